// One config, many arrangements of files (test/config/arrangement-equivalence.test.ts): a
// generated config (generated-config.ts) read into what it means (every `${VAR}` and `$${`
// resolved as docs/environments.md says, every `{ file: }` replaced by the file's text), then
// written back out: split over included files (nested, globbed, in random orders and folders),
// templates moved out to text files, values moved behind `${VAR}` (whole, part, or a default),
// each file in one of three YAML styles (block, JSON, the `yaml` library's own), and where the
// emitters can say so, the line each entry and each value is on.
import { dirname, posix } from "node:path";
import { stringify } from "yaml";
import { isIdentityAt } from "../../src/config/field-types.js";
import type { Files, Generated, Json } from "./generated-config.js";
import { VAR, VAR_VALUE } from "./generated-config.js";

export type Obj = { [key: string]: Json };

/** What a config means: each list section's entries, and branding, with plain values only. */
export interface Meaning {
  sections: [string, Obj[]][];
  branding?: Obj;
}

// ---------------------------------------------------------------------------------------------
// Interpolation as docs/environments.md describes it (the oracle, not the loader's code)

const REFERENCE = /\$\$\{|\$\{([^}]*)\}/g;

/** A string's value after interpolation, and the values taken from `vars` (what is masked). */
export function interpolated(text: string, vars: Record<string, string>): { value: string; used: string[] } {
  const used: string[] = [];
  const value = text.replace(REFERENCE, (match, inner: string) => {
    if (match === "$${") return "${";
    const [, name = "", fallback] = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s.exec(inner) ?? [];
    const given = Object.hasOwn(vars, name) ? vars[name] : undefined;
    if (given !== undefined) used.push(given);
    const out = given ?? fallback;
    if (out === undefined) throw new Error(`the oracle met an unset variable in ${JSON.stringify(text)}`);
    return out;
  });
  return { value, used };
}

/** Text written inline that reads back as `text`: every `${` escaped as `$${`. */
export const escaped = (text: string) => text.replaceAll("${", () => "$${");

/** The generated config's meaning (its interpolated values, its files' texts in place). */
export function meaningOf(generated: Generated): Meaning {
  const resolve = (value: Json): Json => {
    if (typeof value === "string") return interpolated(value, { [VAR]: VAR_VALUE }).value;
    if (Array.isArray(value)) return value.map(resolve);
    if (value === null || typeof value !== "object") return value;
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === "file" && typeof value.file === "string")
      return generated.files[value.file] as string;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v)]));
  };
  const sections: [string, Obj[]][] = [];
  let branding: Obj | undefined;
  for (const [name, value] of Object.entries(generated.body)) {
    if (name === "branding") branding = resolve(value) as Obj;
    else sections.push([name, (value as Json[]).map((entry) => resolve(entry) as Obj)]);
  }
  return branding === undefined ? { sections } : { sections, branding };
}

// ---------------------------------------------------------------------------------------------
// Randomness: one seed per arrangement (fast-check shrinks the config; the seed replays the rest)

export type Rng = () => number;

export function rngOf(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;

export function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Writing values: what goes behind ${VAR}, what moves out to a template file

/**
 * Folder and file names: spaces and unicode.
 * AVOID: a glob's special characters (`*?[]{}()!+@`): an include is a glob, and the docs say
 * nothing of escaping one, so a file so named is not included by its own name.
 */
const SEGMENTS = ["parts", "a b", "ünï", "中文", "team-x", "z_1", "émoji 😀"];
const NAMES = ["body", "a b", "ünï cödé", "中文", "s", "x.y", "mail 😀"];

export interface Writing {
  rng: Rng;
  /** Chance of a string value going behind a `${VAR}`; of a template moving out to a file. */
  varChance: number;
  fileChance: number;
  /** Every file of the arrangement (YAML and templates), path from the root's folder -> text. */
  files: Files;
  /** The variables the arrangement's run is given. */
  vars: Record<string, string>;
  /** Text -> the template file that holds it already (a file may be named twice). */
  shared: Map<string, string>;
}

export function newWriting(rng: Rng, varChance: number, fileChance: number): Writing {
  return { rng, varChance, fileChance, files: {}, vars: { [VAR]: VAR_VALUE }, shared: new Map() };
}

/** A fresh path under the root's folder: `depth` folders, then a name with `ext`. */
export function freshPath(w: Writing, depth: number, ext: string, under = ""): string {
  for (let n = 0; ; n++) {
    const folders = Array.from({ length: depth }, () => pick(w.rng, SEGMENTS));
    const path = posix.join(under, ...folders, `${pick(w.rng, NAMES)}-${n}${ext}`);
    if (!(path in w.files) && !Object.keys(w.files).some((f) => f.startsWith(`${path}/`))) return path;
  }
}

/**
 * A string value as written: inline (escaped), or behind a variable, whole, in part, or as a
 * default with no variable set.
 * AVOID: true/false and numbers behind ${VAR}: docs/environments.md speaks of string values only
 * (the loader turns a whole reference in a true/false field into a boolean; undocumented).
 */
function writeString(w: Writing, value: string, identity = false): string {
  if (w.rng() >= w.varChance) return escaped(value);
  // A name of a resource cannot come from the environment (docs/environments.md): inline or a default.
  if (identity)
    return value.includes("}") || value.includes("${") ? escaped(value) : `\${NF_ARR_UNSET:-${value}}`;
  const name = `NF_ARR_${Object.keys(w.vars).length}`;
  const mode = w.rng();
  if (mode < 0.2 && !value.includes("}") && !value.includes("${")) return `\${NF_ARR_UNSET:-${value}}`; // a default, no variable set
  if (mode < 0.6) {
    w.vars[name] = value;
    return `\${${name}}`;
  }
  // Part of the value, cut between code points: a prefix and a suffix stay inline (a prefix
  // ending in `$` would escape the reference).
  const points = Array.from(value);
  let i = Math.floor(w.rng() * (points.length + 1));
  while (i > 0 && points[i - 1] === "$") i--;
  const j = i + Math.floor(w.rng() * (points.length - i + 1));
  const [head, middle, tail] = [points.slice(0, i), points.slice(i, j), points.slice(j)].map((p) =>
    p.join(""),
  );
  w.vars[name] = middle as string;
  return `${escaped(head as string)}\${${name}}${escaped(tail as string)}`;
}

/** Whether `path` (inside an entry of `section`) is a template that may be `{ file: }`. */
function isTextField(section: string, path: readonly (string | number)[]): boolean {
  if (section === "layouts") return path.length === 1 && path[0] === "content";
  return (
    section === "workflows" &&
    path.length === 4 &&
    path[0] === "steps" &&
    path[2] === "template" &&
    (path[3] === "content" || path[3] === "preheader")
  );
}

/** An entry of `section` as written in the YAML file at `yamlPath`. */
export function writeEntry(w: Writing, section: string, entry: Json, yamlPath: string): Json {
  const walk = (value: Json, path: (string | number)[]): Json => {
    if (typeof value === "string") {
      const identity = isIdentityAt([section, "*", ...path.map((p) => (typeof p === "number" ? "*" : p))]);
      if (!isTextField(section, path) || w.rng() >= w.fileChance) return writeString(w, value, identity);
      let file = w.rng() < 0.5 ? w.shared.get(value) : undefined;
      if (file === undefined) {
        file = freshPath(w, Math.floor(w.rng() * 4), pick(w.rng, [".html", ".txt", ".md"]));
        w.files[file] = value;
        w.shared.set(value, file);
      }
      const relative = posix.relative(posix.dirname(yamlPath), file);
      return { file: !relative.startsWith("..") && w.rng() < 0.3 ? `./${relative}` : relative };
    }
    if (Array.isArray(value)) return value.map((item, i) => walk(item, [...path, i]));
    if (value === null || typeof value !== "object") return value;
    // Keys stay as they are (never interpolated); values of free-form data are walked all the same.
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, [...path, k])]));
  };
  return walk(entry, []);
}

// ---------------------------------------------------------------------------------------------
// Emitting YAML, with the line of each entry and value ("topics[0]", "topics[0].name")

export type Style = "block" | "json" | "library";
export const STYLES: readonly Style[] = ["block", "json", "library"];

export interface Emitted {
  text: string;
  /** Path -> 1-based line (block and JSON styles; empty for the library's). */
  lines: Map<string, number>;
}

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PLAIN_TEXT = /^[A-Za-z][A-Za-z0-9 _-]*[A-Za-z0-9]$/;
const RESERVED = /^(true|false|null|True|False|Null|TRUE|FALSE|NULL)$/;

function scalar(value: Json, rng: Rng): string {
  if (typeof value === "string")
    return PLAIN_TEXT.test(value) && !RESERVED.test(value) && rng() < 0.5 ? value : JSON.stringify(value);
  if (typeof value === "number") return Object.is(value, -0) ? "-0" : String(value);
  return JSON.stringify(value);
}

const isCollection = (v: Json): v is Json[] | Obj => v !== null && typeof v === "object";
const isEmpty = (v: Json[] | Obj) => (Array.isArray(v) ? v.length === 0 : Object.keys(v).length === 0);
const keyText = (key: string) => (PLAIN_KEY.test(key) ? key : JSON.stringify(key));
const child = (path: string, key: string | number) =>
  typeof key === "number" ? `${path}[${key}]` : path === "" ? key : `${path}.${key}`;

export function emit(tree: Obj, style: Style, rng: Rng): Emitted {
  const lines = new Map<string, number>();
  // AVOID: block scalars for text of spaces and line breaks alone: yaml 2.9's stringify writes
  // "  \n" as `|+` over a line of spaces, which reads back (by the spec) as "\n". Quoted instead.
  if (style === "library")
    return { text: stringify(tree, { lineWidth: 0, blockQuote: !hasBlankText(tree) }), lines };
  const out: string[] = [];
  const mark = (path: string) => lines.set(path, out.length + 1);
  const inline = (v: Json): string => {
    if (!isCollection(v)) return scalar(v, rng);
    if (Array.isArray(v)) return `[${v.map(inline).join(", ")}]`;
    return `{ ${Object.entries(v)
      .map(([k, x]) => `${keyText(k)}: ${inline(x)}`)
      .join(", ")} }`;
  };
  const flat = (v: Json) =>
    isCollection(v) && (isEmpty(v) || (Object.values(v).every((x) => !isCollection(x)) && rng() < 0.3));

  // Block style: a mapping's keys at `indent`; a list's items as "- " at `indent`.
  const block = (v: Json[] | Obj, indent: number, path: string) => {
    const pad = " ".repeat(indent);
    if (Array.isArray(v)) {
      v.forEach((item, i) => {
        const at = child(path, i);
        if (!isCollection(item) || flat(item)) {
          mark(at);
          out.push(`${pad}- ${inline(item)}`);
          return;
        }
        const start = out.length;
        block(item, indent + 2, at);
        out[start] = `${pad}- ${(out[start] as string).slice(indent + 2)}`;
        lines.set(at, start + 1);
      });
      return;
    }
    for (const [k, x] of Object.entries(v)) {
      const at = child(path, k);
      if (!isCollection(x) || flat(x)) {
        mark(at);
        if (isCollection(x) && !Array.isArray(x)) for (const key of Object.keys(x)) mark(child(at, key));
        out.push(`${pad}${keyText(k)}: ${inline(x)}`);
      } else {
        out.push(`${pad}${keyText(k)}:`);
        mark(at);
        block(x, Array.isArray(x) && rng() < 0.5 ? indent : indent + 2, at);
      }
    }
  };
  // JSON: every value of a mapping on its key's line, every list item on a line of its own.
  const json = (v: Json, indent: number, path: string, prefix: string, suffix: string) => {
    const pad = " ".repeat(indent);
    mark(path);
    if (!isCollection(v) || isEmpty(v)) {
      out.push(`${pad}${prefix}${JSON.stringify(v)}${suffix}`);
      return;
    }
    const entries: [string | number, Json][] = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
    out.push(`${pad}${prefix}${Array.isArray(v) ? "[" : "{"}`);
    entries.forEach(([k, x], i) => {
      const comma = i === entries.length - 1 ? "" : ",";
      json(x, indent + 2, child(path, k), typeof k === "number" ? "" : `${JSON.stringify(k)}: `, comma);
    });
    out.push(`${pad}${Array.isArray(v) ? "]" : "}"}${suffix}`);
  };
  if (style === "json") json(tree, 0, "", "", "");
  else if (Object.keys(tree).length === 0) out.push("{}");
  else block(tree, 0, "");
  lines.delete("");
  return { text: `${out.join("\n")}\n`, lines };
}

/** Whether any text of `value` is spaces and line breaks alone, with both. */
export function hasBlankText(value: Json): boolean {
  if (typeof value === "string") return /^[ \n]*$/.test(value) && value.includes(" ") && value.includes("\n");
  if (Array.isArray(value)) return value.some(hasBlankText);
  return value !== null && typeof value === "object" && Object.values(value).some(hasBlankText);
}

/** The folder of a file's path, "" for the root's folder. */
export const folderOf = (path: string) => (dirname(path) === "." ? "" : dirname(path));
