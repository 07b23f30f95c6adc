// Canonical JSON: one byte-exact text per value (keys sorted, no whitespace), so that equal
// values compare equal and digests are stable across runs, machines and key orders.
import { createHash } from "node:crypto";

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") {
    return JSON.stringify(value ?? null);
  }
  // Concatenation, not map + join: this runs over every resource of a plan, several times.
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i += 1) out += `${i === 0 ? "" : ","}${canonicalJson(value[i])}`;
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  let out = "{";
  for (const key of Object.keys(record).sort()) {
    const item = record[key];
    if (item === undefined) continue;
    out += `${out.length === 1 ? "" : ","}${JSON.stringify(key)}:${canonicalJson(item)}`;
  }
  return `${out}}`;
}

/** sha256 of the canonical JSON, prefixed with the algorithm so the format can evolve. */
export function digestOf(value: unknown): string {
  return `sha256:${createHash("sha256").update(canonicalJson(value)).digest("hex")}`;
}

/**
 * The fields of a live object that the config manages, by name: a saved plan's live digest covers
 * only these, so a dashboard edit of a field the config leaves alone does not make it stale.
 */
export function managedFields<T>(fields: Record<string, T>, managed: Iterable<string>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const field of managed) if (Object.hasOwn(fields, field)) out[field] = fields[field] as T;
  return out;
}

export function sameValue(a: unknown, b: unknown): boolean {
  // Most compared fields are strings and booleans: no need to serialize those.
  if (typeof a === "string" || typeof a === "boolean") return a === b;
  return canonicalJson(a) === canonicalJson(b);
}

/**
 * A deep copy with keys in sorted order: for deterministic output files (every caller serializes
 * it at once). Plain objects, not null-prototype ones: JSON.stringify takes its fast path only for
 * those, twice as fast on a report or plan of thousands of entries.
 */
export function sortKeysDeep<T>(value: T): T {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => sortKeysDeep(item)) as T;
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(record).sort()) {
    const item = record[key];
    if (item !== undefined) setDataKey(out, key, sortKeysDeep(item));
  }
  return out as T;
}

/**
 * `out[key] = value` for a key that is data (config or server text), into a plain object. A key
 * "__proto__" is defined, not assigned, so it stays an own key instead of replacing the object's
 * prototype (a copy would then silently lose what apply still sends). Only that key: defining
 * every key is several times slower, and outputs copy tens of thousands of them.
 */
export function setDataKey(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}
