// What crosses from the config worker to the main thread (load-worker.ts -> load-beside.ts): a
// part of a kind's entries with their sources packed into one Int32Array and two small tables
// (file names, field-name lists) instead of an object per position. Structured cloning spends
// most of its time on those objects (a position per field of every entry, each with its own copy
// of the file name): for the bench's 16,550 entries, about 55 ms of the main thread while its
// reads are in flight, against about 7 ms packed (and a fifth of the worker's cost to send).
// unpackEntries gives back plain objects equal to the originals, key order included; a part
// holding anything this layout does not describe exactly is not packed, and crosses as it is.

import type { Desired, Source } from "../config/model.js";
import type { Position } from "../errors.js";

export interface PackedEntries {
  specs: unknown[];
  /** File names, each once. */
  files: string[];
  /** Field-name lists of `source.fields`, each distinct list once. */
  shapes: string[][];
  /** Per entry: shape, then file, line, col of `pos`, then file, line, col per field of its shape. */
  numbers: Int32Array;
  /** `source.flagged` of the entries that have one (only on a config that will not load): [index, paths]. */
  flagged?: [number, readonly string[]][];
}

/** The entries packed, or undefined when one of them holds what the layout does not describe. */
export function packEntries(entries: readonly unknown[]): PackedEntries | undefined {
  const files = new Table<string>();
  const shapes = new Table<string[]>();
  const specs: unknown[] = [];
  const numbers: number[] = [];
  const flagged: [number, readonly string[]][] = [];
  // Consecutive entries mostly share their file and their field names: those are checked first.
  let lastFile = "";
  let lastFileIndex = -1;
  let lastNames: string[] = [];
  let lastShape = -1;
  const fileOf = (file: string): number => {
    if (file !== lastFile || lastFileIndex < 0) {
      lastFileIndex = files.indexOf(file, file);
      lastFile = file;
    }
    return lastFileIndex;
  };
  const pushPosition = (value: unknown): boolean => {
    if (!isPosition(value)) return false;
    numbers.push(fileOf(value.file), value.line, value.col);
    return true;
  };
  for (let index = 0; index < entries.length; index += 1) {
    const entry = entries[index];
    if (!hasKeys(entry, ENTRY_KEYS)) return undefined;
    const source = entry.source;
    const withFlag = hasKeys(source, SOURCE_KEYS_FLAGGED);
    if (!withFlag && !hasKeys(source, SOURCE_KEYS)) return undefined;
    const fields = source.fields;
    if (!isPlainRecord(fields)) return undefined;
    const names = Object.keys(fields);
    // A name that an assignment would not store as an own property.
    if (names.includes("__proto__")) return undefined;
    if (lastShape < 0 || !sameNames(names, lastNames)) {
      // JSON, not a join: [] and [""] (or names holding the separator) must not share a key.
      lastShape = shapes.indexOf(JSON.stringify(names), names);
      lastNames = names;
    }
    numbers.push(lastShape);
    if (!pushPosition(source.pos)) return undefined;
    for (const name of names) if (!pushPosition(fields[name])) return undefined;
    if (withFlag) {
      const paths = source.flagged;
      if (!Array.isArray(paths) || !paths.every((path) => typeof path === "string")) return undefined;
      flagged.push([index, paths]);
    }
    specs.push(entry.spec);
  }
  return {
    specs,
    files: files.values,
    shapes: shapes.values,
    numbers: Int32Array.from(numbers),
    ...(flagged.length > 0 ? { flagged } : {}),
  };
}

/** Distinct values, each numbered by its first appearance. */
class Table<T> {
  readonly values: T[] = [];
  private readonly numbers = new Map<string, number>();

  /** The number of `value`, whose `key` no other value shares. */
  indexOf(key: string, value: T): number {
    let number = this.numbers.get(key);
    if (number === undefined) {
      number = this.values.length;
      this.values.push(value);
      this.numbers.set(key, number);
    }
    return number;
  }
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}

/** The entries packEntries packed, as plain objects. */
export function unpackEntries(packed: PackedEntries): Desired<unknown>[] {
  const { specs, files, shapes, numbers } = packed;
  const flagged = new Map(packed.flagged ?? []);
  const entries: Desired<unknown>[] = new Array(specs.length);
  let at = 0;
  const position = (): Position => {
    const pos = {
      file: files[numbers[at] as number] as string,
      line: numbers[at + 1] as number,
      col: numbers[at + 2] as number,
    };
    at += 3;
    return pos;
  };
  for (let index = 0; index < specs.length; index += 1) {
    const names = shapes[numbers[at] as number] as string[];
    at += 1;
    const pos = position();
    const fields: Record<string, Position> = {};
    for (const name of names) fields[name] = position();
    const paths = flagged.get(index);
    const source: Source = paths === undefined ? { pos, fields } : { pos, fields, flagged: paths };
    entries[index] = { spec: specs[index], source };
  }
  return entries;
}

const ENTRY_KEYS = ["spec", "source"] as const;
const SOURCE_KEYS = ["pos", "fields"] as const;
const SOURCE_KEYS_FLAGGED = ["pos", "fields", "flagged"] as const;
const POSITION_KEYS = ["file", "line", "col"] as const;

/**
 * A plain object whose enumerable string keys (what structured cloning copies) are exactly
 * `keys`, in that order. for-in, not Object.keys: no array per object (a position per field).
 */
function hasKeys<const K extends string>(value: unknown, keys: readonly K[]): value is Record<K, unknown> {
  if (!isPlainRecord(value)) return false;
  let index = 0;
  for (const key in value) {
    if (key !== keys[index]) return false;
    index += 1;
  }
  return index === keys.length;
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  // Object.prototype only: unpacking makes plain objects, and must make what was packed.
  return Object.getPrototypeOf(value) === Object.prototype;
}

function isPosition(value: unknown): value is Position {
  if (!isPlainRecord(value)) return false;
  // Its own loop rather than hasKeys: one object shape at this site keeps V8's enumeration fast.
  let index = 0;
  for (const key in value) {
    if (key !== POSITION_KEYS[index]) return false;
    index += 1;
  }
  return index === 3 && typeof value.file === "string" && isInt32(value.line) && isInt32(value.col);
}

function isInt32(value: unknown): boolean {
  return typeof value === "number" && (value | 0) === value && !Object.is(value, -0);
}
