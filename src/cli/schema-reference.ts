// Where the schema modeline of an exported file points, relative to the directory written to, so
// an editor resolves it there. A project that installs notiform has it under node_modules in the
// directory or one above it: that path is the same in every clone, so it is preferred. Otherwise
// (npx, a global install, a checkout of notiform) the schema of the running package is used.
import { existsSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { packageFile } from "../package-files.js";

const INSTALLED = ["node_modules", "notiform", "schemas", "notiform.schema.json"];

export function schemaReference(dir: string): string {
  let candidate = dir;
  for (;;) {
    const installed = join(candidate, ...INSTALLED);
    if (existsSync(installed)) return relativeUrl(dir, installed);
    const parent = dirname(candidate);
    if (parent === candidate) break;
    candidate = parent;
  }
  return relativeUrl(dir, packageFile("schemas", "notiform.schema.json"));
}

/** A relative path with forward slashes, starting with ./ or ../ (what YAML tooling expects). */
function relativeUrl(from: string, to: string): string {
  const path = relative(from, to).split(sep).join("/");
  return path.startsWith("../") ? path : `./${path}`;
}
