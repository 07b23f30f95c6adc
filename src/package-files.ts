// Files that ship beside the code (package.json, schemas/, examples/), found from wherever the
// code runs: src/ under the tests, dist/ when installed, .build/src/ under the benchmark. The
// package root is the nearest directory above this module holding notiform's package.json.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

function findPackageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, "package.json");
    if (
      existsSync(candidate) &&
      (JSON.parse(readFileSync(candidate, "utf8")) as { name?: string }).name === "notiform"
    ) {
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error("notiform's package.json was not found above the running code");
    dir = parent;
  }
}

export const PACKAGE_ROOT = findPackageRoot();

/** A file of the package, e.g. packageFile("schemas", "plan.schema.json"). */
export function packageFile(...segments: string[]): string {
  return join(PACKAGE_ROOT, ...segments);
}

/** A JSON file of the package, parsed (schemas: read once per process by their callers). */
export function readPackageJson(...segments: string[]): unknown {
  return JSON.parse(readFileSync(packageFile(...segments), "utf8"));
}
