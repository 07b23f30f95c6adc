// `{ file: PATH }` in place of a long text: a kind declares which of its string fields may take
// one (KindModule.textFileFields, paths inside an entry, "*" for any list index; in the config
// schema such a field is `{"$ref": "#/$defs/textOrFile"}`), and the loader
// replaces each reference by the file's text before the entry is collected, so every later stage
// (merge, digest, plan, apply) sees plain strings. PATH is relative to the YAML file that names
// it and must stay inside the project directory (the root file's, symlinks resolved), like an
// include: a config from a pull request must not read ~/.ssh/id_rsa into a template. A missing,
// outside, unreadable or non-UTF-8 file is a problem at the reference's `file:` value. The text
// is taken verbatim: no ${VAR} interpolation (an HTML template may hold `${...}` of its own) and
// `{{ }}` template syntax is left alone.

import { isUtf8 } from "node:buffer";
import { realpath } from "node:fs/promises";
import { dirname, isAbsolute, resolve } from "node:path";
import { readBoundedFile } from "../bounded-file.js";
import type { Position, Problem } from "../errors.js";
import { isOutside } from "./include-scope.js";
import { displayPath, positionAt, type YamlFile } from "./yaml-file.js";

/** A reference to a text file, in place of the text itself. */
export interface TextFileRef {
  file: string;
}

/** A field path inside a config file's data; "*" matches any index of a list. */
export type TextFieldPath = readonly (string | "*")[];

/** Exactly `{ file: "..." }`: anything else is left for the schema to judge. */
export function isTextFileRef(value: unknown): value is TextFileRef {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === "file" && typeof (value as TextFileRef).file === "string";
}

/** Where references are read from, and what bounds them. */
export interface TextFileScope {
  /** The YAML file naming the references (its data and positions). */
  file: YamlFile;
  /** The project directory (real path) references must stay inside; undefined: allowed anywhere. */
  project: string | undefined;
  /** The working directory, for the paths messages show. */
  cwd: string;
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
  const found: {
    holder: Record<string, unknown>;
    key: string;
    ref: TextFileRef;
    path: (string | number)[];
  }[] = [];
  for (const field of fields) collect(data, field, [], found);
  if (found.length === 0) return;
  const cache = new Map<string, Promise<TextRead>>();
  let next = 0;
  const worker = async () => {
    while (next < found.length) {
      const item = found[next++];
      if (item === undefined) break;
      const pos = positionAt(scope.file, [...item.path, "file"]);
      const target = resolve(dirname(scope.file.path), item.ref.file);
      let read = cache.get(target);
      if (read === undefined) {
        read = readTextFile(item.ref.file, target, scope);
        cache.set(target, read);
      }
      const result = await read;
      if ("text" in result) item.holder[item.key] = result.text;
      else problems.push(problemAt(pos, result.reason, item.path));
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, found.length) }, worker));
}

type TextRead = { text: string } | { reason: string };

/** The text of one referenced file, or why it cannot be used. */
export async function readTextFile(written: string, target: string, scope: TextFileScope): Promise<TextRead> {
  const shown = `file "${written}"`;
  const allow = "pass --allow-include-outside to allow it";
  if (scope.project !== undefined && isAbsolute(written))
    return {
      reason: `${shown} is an absolute path; text files must stay inside the config's folder (${allow})`,
    };
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
  const read = await readBoundedFile(real);
  if (!read.ok) return { reason: `${shown} ${read.reason}` };
  if (!isUtf8(read.bytes)) return { reason: `${shown} is not valid UTF-8 text: save it as UTF-8` };
  return { text: read.bytes.toString("utf8") };
}

function collect(
  value: unknown,
  field: TextFieldPath,
  at: (string | number)[],
  found: { holder: Record<string, unknown>; key: string; ref: TextFileRef; path: (string | number)[] }[],
): void {
  const [head, ...rest] = field;
  if (head === undefined) return;
  if (head === "*") {
    if (!Array.isArray(value)) return;
    value.forEach((item, index) => {
      collect(item, rest, [...at, index], found);
    });
    return;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return;
  const holder = value as Record<string, unknown>;
  if (rest.length > 0) {
    collect(holder[head], rest, [...at, head], found);
    return;
  }
  const ref = holder[head];
  if (isTextFileRef(ref)) found.push({ holder, key: head, ref, path: [...at, head] });
}

function problemAt(pos: Position, message: string, path: (string | number)[]): Problem {
  let field = "";
  for (const s of path) field += typeof s === "number" ? `[${s}]` : field === "" ? s : `.${s}`;
  return { severity: "error", rule: "text-file", message, pos, field };
}
