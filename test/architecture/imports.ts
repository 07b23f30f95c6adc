// The import graph of src/, shared by the architecture tests: a small parser of import and
// export-from statements is enough for this code base (no dynamic specifiers to relative files).
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

export const ROOT = resolve(import.meta.dirname, "..", "..");
export const SRC = join(ROOT, "src");

export function sourceFiles(dir: string = SRC): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) for (const file of sourceFiles(path)) files.push(file);
    else if (entry.name.endsWith(".ts")) files.push(path);
  }
  return files;
}

// `import … from "x"`, `import "x"`, `export … from "x"`, `import("x")`, across lines.
const SPECIFIER =
  /(?:^|[;\s])(?:import|export)\s(?:[^;"'`]*?\sfrom\s*)?["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

export function importsOf(text: string): string[] {
  const withoutComments = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  return [...withoutComments.matchAll(SPECIFIER)].map((m) => m[1] ?? m[2] ?? "").filter(Boolean);
}

export const rel = (path: string) => relative(ROOT, path).split("\\").join("/");

/** Every src/ file (repository-relative) -> the src/ files it imports, type-only included. */
export function graph(): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const targets = importsOf(readFileSync(file, "utf8"))
      .filter((s) => s.startsWith("."))
      .map((s) => resolve(dirname(file), s.replace(/\.js$/, ".ts")));
    edges.set(rel(file), targets.map(rel));
  }
  return edges;
}
