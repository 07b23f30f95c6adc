// Canonical JSON is what digests and comparisons are made of: one text per value whatever its
// key order, that reads back as the same value, with undefined members left out as JSON does.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/canonical.js";

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
