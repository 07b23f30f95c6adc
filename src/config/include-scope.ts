// Includes stay inside the project: the root file's directory, symlinks resolved. A config from
// a pull request must not read ~/.ssh/config or /etc/passwd into an error message, so an include
// that is absolute, climbs out with "..", or reaches out through a symlink is a config error at
// the include, unless --allow-include-outside. A symlinked directory that loops makes a glob
// reach the same files by ever longer paths: that is one error, and each file is loaded once.
import { realpathSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import { displayPath } from "./display-path.js";

const ALLOW = "pass --allow-include-outside to allow it";

/**
 * The longest include pattern globbed: no path is longer (PATH_MAX is 4,096 on Linux), and the
 * glob library throws on patterns over 65,536 characters.
 */
export const MAX_INCLUDE_PATTERN = 4096;

/**
 * A pattern as messages quote it: whole when short, else its start and its length. Messages end up
 * in the pull-request comment: three 30,000-character patterns must not make it 90,000.
 */
export function shown(pattern: string): string {
  return pattern.length <= 120
    ? `"${pattern}"`
    : `"${pattern.slice(0, 100)}…" (${pattern.length} characters)`;
}

/** Why a pattern is refused before globbing, or undefined. `project`: undefined when allowed. */
export function checkIncludePattern(
  pattern: string,
  base: string,
  project: string | undefined,
): string | undefined {
  if (project === undefined) return undefined;
  if (isAbsolute(pattern))
    return `include ${shown(pattern)} is an absolute path; includes must stay inside the project directory (${ALLOW})`;
  if (isOutside(project, resolve(realOrSelf(base), pattern)))
    return `include ${shown(pattern)} leads outside the project directory; includes must stay inside it (${ALLOW})`;
  return undefined;
}

/**
 * The glob's matches, each file once (by its real path), without those outside the project;
 * `problems` says what was dropped, at most one message per kind.
 */
export function distinctIncludeMatches(
  pattern: string,
  globbed: readonly string[],
  project: string | undefined,
  cwd: string,
): { matches: string[]; problems: string[] } {
  const byReal = new Map<string, string>();
  const outside: string[] = [];
  let repeated: [string, string] | undefined;
  for (const match of globbed) {
    const real = realOrSelf(match);
    if (project !== undefined && isOutside(project, real)) {
      outside.push(match);
      continue;
    }
    const first = byReal.get(real);
    if (first === undefined) byReal.set(real, match);
    else repeated ??= [first, match];
  }
  const problems: string[] = [];
  const [first] = outside;
  if (first !== undefined) {
    const more = outside.length > 1 ? ` and ${outside.length - 1} more` : "";
    problems.push(
      `include ${shown(pattern)} reaches ${displayPath(first, cwd)}${more} through a symbolic link leading outside the project directory (${ALLOW})`,
    );
  }
  if (repeated !== undefined) {
    problems.push(
      `include ${shown(pattern)} reaches the same file by more than one path (${displayPath(repeated[0], cwd)} and ${displayPath(repeated[1], cwd)}): a symbolic link to a directory loops back; each file was read once`,
    );
  }
  return { matches: [...byReal.values()], problems };
}

export function isOutside(project: string, path: string): boolean {
  const rel = relative(project, path);
  return rel === ".." || rel.startsWith(`..${"/"}`) || rel.startsWith("..\\") || isAbsolute(rel);
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
