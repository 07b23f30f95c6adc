// Canonical JSON is what digests and comparisons are made of: one text per value whatever its
// key order, that reads back as the same value, with undefined members left out as JSON does.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, sortKeysDeep } from "../../src/canonical.js";

/** The same value with every object's keys in reverse insertion order. */
function reordered(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(reordered);
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, item]) => [key, reordered(item)]),
  );
}

describe("canonicalJson", () => {
  it("reads back as the value, and does not depend on key order", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(canonicalJson(reordered(value))).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it("sorts keys, leaves undefined members out, and writes no whitespace", () => {
    expect(canonicalJson({ b: [1, { d: undefined, c: "x" }], a: null, e: undefined })).toBe(
      '{"a":null,"b":[1,{"c":"x"}]}',
    );
    expect(canonicalJson([undefined, "é\n"])).toBe('[null,"é\\n"]');
    expect(canonicalJson({})).toBe("{}");
    expect(canonicalJson([])).toBe("[]");
  });
});

/** The null-prototype sorted copy sortKeysDeep made before: its output files must not change. */
function nullPrototypeSorted(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(nullPrototypeSorted);
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(record).sort())
    if (record[key] !== undefined) out[key] = nullPrototypeSorted(record[key]);
  return out;
}

describe("sortKeysDeep", () => {
  it("serializes byte for byte as the null-prototype copy did, whatever the key order", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(nullPrototypeSorted(value), null, 2);
        expect(JSON.stringify(sortKeysDeep(value), null, 2)).toBe(text);
        expect(JSON.stringify(sortKeysDeep(reordered(value)), null, 2)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it("sorts keys at every depth, keeps a __proto__ key as data and leaves undefined members out", () => {
    const value = JSON.parse('{"z":1,"__proto__":{"b":2,"a":1},"m":[{"y":1,"x":2}]}');
    const sorted = sortKeysDeep({ ...value, gone: undefined });
    expect(Object.keys(sorted)).toEqual(["__proto__", "m", "z"]);
    expect(JSON.stringify(sorted)).toBe('{"__proto__":{"a":1,"b":2},"m":[{"x":2,"y":1}],"z":1}');
  });
});
