// Every YAML file below a directory (the repository's examples and fixtures, for corpus tests).
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

export function yamlFilesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return yamlFilesUnder(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}
