// How messages show a file's path. Its own module, free of the YAML parser: the main thread names
// files (the session, the state file) without loading the loader.
import { relative } from "node:path";
import { visibleText } from "../sanitize.js";

/** A path as messages show it: relative to cwd, with line breaks and controls made visible. */
export function displayPath(path: string, cwd: string): string {
  const rel = relative(cwd, path).split("\\").join("/");
  return visibleText(rel === "" ? path : rel);
}
