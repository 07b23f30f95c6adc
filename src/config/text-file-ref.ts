// `{ file: PATH }` in place of a long text: a kind declares which of its string fields may take
// one (KindModule.textFileFields, paths inside an entry, "*" for any list index; in the config
// schema such a field is `{"$ref": "#/$defs/textOrFile"}`), and the loader
// replaces each reference by the file's text before the entry is collected, so every later stage
// (merge, digest, plan, apply) sees plain strings. PATH is relative to the YAML file that names
// it and must stay inside the project directory (the root file's, symlinks resolved), like an
// include: a config from a pull request must not read ~/.ssh/id_rsa into a template; nor anything
// inside a .git folder (a checkout's stored token), even with --allow-include-outside. A missing,
// outside, unreadable or non-UTF-8 file is a problem at the reference's `file:` value. The text
// is taken verbatim: no ${VAR} interpolation (an HTML template may hold `${...}` of its own) and
// `{{ }}` template syntax is left alone.

import { isUtf8 } from "node:buffer";
import { realpath } from "node:fs/promises";
import { dirname, isAbsolute, relative, resolve } from "node:path";
import { readBoundedFile } from "../bounded-file.js";
import type { Position, Problem } from "../errors.js";
import { displayPath } from "./display-path.js";
import { isTextFileRef, type TextFileRef } from "./file-ref.js";
import { isOutside, shown as quoted } from "./include-scope.js";
import { positionAt, type YamlFile } from "./yaml-file.js";

export { isTextFileRef, type TextFileRef } from "./file-ref.js";

/** A field path inside a config file's data; "*" matches any index of a list. */
export type TextFieldPath = readonly (string | "*")[];

/** Where references are read from, and what bounds them. */
export interface TextFileScope {
  /** The YAML file naming the references (its data and positions). */
  file: YamlFile;
  /** The project directory (real path) references must stay inside; undefined: allowed anywhere. */
  project: string | undefined;
  /** The working directory, for the paths messages show. */
  cwd: string;
  /** The total every reference of the config counts against (shared by all its files). */
  budget: TextBudget;
}

/**
 * The most text all `{ file: }` references of one config bring in together: 64 MiB. Each
 * reference counts, so a file named twice (or two hard links to one file) counts twice: every
 * copy is held, digested and planned. 150 references to a 20 MB file took validate to 3.6 GB and
 * an internal error; now the reference that crosses the total is the error.
 */
export const MAX_TEXT_FILE_TOTAL = 64 * 1024 * 1024;

export interface TextBudget {
  /** Bytes of text brought in so far. */
  used: number;
  /** Set once a reference crossed the total: later references are not read. */
  exceeded: boolean;
}

export function newTextBudget(): TextBudget {
  return { used: 0, exceeded: false };
}

/** How many files are read at once: a config of 4,000 templates must not open 4,000 handles. */
const READ_CONCURRENCY = 16;

/**
 * Replace, in `data` (the file's parsed document, changed in place), every `{ file: PATH }` at one
 * of `fields` (absolute paths: section first) by the text of that file. Problems go to `problems`;
 * a reference that failed is left as it was (the load fails on the problem anyway).
 */
export async function resolveTextFileRefs(
  scope: TextFileScope,
  data: Record<string, unknown>,
  fields: readonly TextFieldPath[],
  problems: Problem[],
): Promise<void> {
  const found: FileRefAt[] = [];
  for (const field of fields) collectFileRefs(data, field, found);
  if (found.length === 0) return;
  const cache = new Map<string, Promise<TextRead>>();
  let next = 0;
  const worker = async () => {
    while (next < found.length) {
      const item = found[next++];
      if (item === undefined) break;
      if (scope.budget.exceeded) break;
      const pos = positionAt(scope.file, [...item.path, "file"]);
      const target = resolve(dirname(scope.file.path), item.ref.file);
      // Keyed by the reference as written AND where it leads: whether a reference is allowed
      // depends on how it is written (an absolute path is refused where a relative one to the
      // same file is not), so a decision for one spelling must never answer for another, and
      // an error must quote the path this reference wrote.
      const key = `${item.ref.file}\u0000${target}`;
      let read = cache.get(key);
      if (read === undefined) {
        read = readTextFile(item.ref.file, target, scope);
        cache.set(key, read);
      }
      const result = await read;
      if (!("text" in result)) {
        problems.push(problemAt(pos, result.reason, item.path));
        continue;
      }
      if (scope.budget.exceeded) break;
      if (chargeTextBudget(scope.budget, result.bytes)) {
        problems.push(problemAt(pos, overTextBudget(item.ref.file), item.path));
        break;
      }
      (item.holder as Record<string | number, unknown>)[item.key] = result.text;
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, found.length) }, worker));
}

type TextRead = { text: string; bytes: number } | { reason: string };

/** The text of one referenced file, or why it cannot be used. */
export async function readTextFile(written: string, target: string, scope: TextFileScope): Promise<TextRead> {
  const shown = `file ${quoted(written)}`;
  const allow = "pass --allow-include-outside to allow it";
  if (scope.project !== undefined && isAbsolute(written))
    return {
      reason: `${shown} is an absolute path; text files must stay inside the config's folder (${allow})`,
    };
  // As written first (`.GIT` is .git on a case-insensitive disk), then as resolved (links).
  if (isInsideGitDir(scope.project, target)) return { reason: insideGit(shown) };
  let real: string;
  try {
    real = await realpath(target);
  } catch {
    // Named once: where it was looked for is added only when it reads differently from what
    // was written (a file included from another folder).
    const looked = displayPath(target, scope.cwd);
    return { reason: `${shown} does not exist${looked === written ? "" : ` (looked for ${looked})`}` };
  }
  if (scope.project !== undefined && isOutside(scope.project, real)) {
    return {
      reason: `${shown} leads outside the config's folder; text files must stay inside it (${allow})`,
    };
  }
  if (isInsideGitDir(scope.project, real)) return { reason: insideGit(shown) };
  const read = await readBoundedFile(real);
  if (!read.ok) return { reason: `${shown} ${read.reason}` };
  if (!isUtf8(read.bytes)) return { reason: `${shown} is not valid UTF-8 text: save it as UTF-8` };
  return { text: read.bytes.toString("utf8"), bytes: read.bytes.length };
}

/** Count `bytes` against the total; true (and the budget marked exceeded) when they cross it. */
export function chargeTextBudget(budget: TextBudget, bytes: number): boolean {
  budget.used += bytes;
  if (budget.used <= MAX_TEXT_FILE_TOTAL) return false;
  budget.exceeded = true;
  return true;
}

export function overTextBudget(written: string): string {
  return `file ${quoted(written)} takes the text of the config's { file: } references past ${MAX_TEXT_FILE_TOTAL / (1024 * 1024)} MiB, the most notiform reads (every reference counts, a file named twice counts twice)`;
}

function insideGit(shown: string): string {
  return `${shown} is inside a .git folder: repository internals (a checkout's stored credentials, its history) are never read into a config`;
}

/**
 * Whether `path` has a `.git` segment (below `project` when there is one): the Action's default
 * config sits at the repository root, where `.git/config` holds the checkout's
 * `extraheader = AUTHORIZATION: basic ...`, and a pull request could show it in the plan comment.
 * Case-insensitive (`.GIT` is the same folder on macOS and Windows), and as Windows reads a name:
 * trailing dots and spaces dropped, and its short name `GIT~1`. `--allow-include-outside` does
 * not lift it.
 */
export function isInsideGitDir(project: string | undefined, path: string): boolean {
  const rel = project === undefined ? path : relative(project, path);
  return rel.split(/[\\/]+/).some((segment) => {
    const name = segment.toLowerCase().replace(/[. ]+$/, "");
    return name === ".git" || /^git~\d+$/.test(name);
  });
}

/** A `{ file: }` reference found at a declared field, and where it stands so it can be replaced. */
export interface FileRefAt {
  holder: Record<string, unknown> | unknown[];
  key: string | number;
  ref: TextFileRef;
  path: (string | number)[];
}

/**
 * Every `{ file: }` reference at `field` (a path from `value`; `*` walks a list, and when it is the
 * last step the list's items are the references) pushed to `found`, in document order.
 */
export function collectFileRefs(
  value: unknown,
  field: TextFieldPath,
  found: FileRefAt[],
  at: (string | number)[] = [],
): void {
  const [head, ...rest] = field;
  if (head === undefined) return;
  if (head === "*") {
    if (!Array.isArray(value)) return;
    value.forEach((item, index) => {
      if (rest.length > 0) collectFileRefs(item, rest, found, [...at, index]);
      else if (isTextFileRef(item))
        found.push({ holder: value, key: index, ref: item, path: [...at, index] });
    });
    return;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return;
  const holder = value as Record<string, unknown>;
  if (rest.length > 0) {
    collectFileRefs(holder[head], rest, found, [...at, head]);
    return;
  }
  const ref = holder[head];
  if (isTextFileRef(ref)) found.push({ holder, key: head, ref, path: [...at, head] });
}

/** A path inside an entry as a problem names its field: `steps[0].template.content`. */
export function fieldText(path: readonly (string | number)[]): string {
  let field = "";
  for (const s of path) field += typeof s === "number" ? `[${s}]` : field === "" ? s : `.${s}`;
  return field;
}

function problemAt(pos: Position, message: string, path: (string | number)[]): Problem {
  return { severity: "error", rule: "text-file", message, pos, field: fieldText(path) };
}
