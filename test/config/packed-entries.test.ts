// What the config worker sends back is its entries with their sources packed
// (src/loader/packed-entries.ts). Unpacked, they must be the very entries that were packed, key
// order and all; a part the layout does not describe exactly is left unpacked (and crosses as
// plain objects); and the loader's real entries must take the packed way, or the saving is gone.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/loader/index.js";
import { packEntries, unpackEntries } from "../../src/loader/packed-entries.js";

const VALID = join(import.meta.dirname, "..", "fixtures", "valid");

// Plain objects, as the loader makes them (a null prototype is left unpacked, tested below).
const plain = { noNullPrototype: true } as const;
const position = fc.record(
  {
    file: fc.constantFrom("notiform.yaml", "topics/a.yaml", "workflows/ü b.yaml"),
    line: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
    col: fc.integer({ min: 1, max: 10_000 }),
  },
  plain,
);
const fieldName = fc.oneof(
  fc.constantFrom("key", "name", "steps[0].template.content", "preferenceSettings.email", "constructor", ""),
  // "__proto__" is left unpacked (a case below).
  fc.string().filter((name) => name !== "__proto__"),
);
const entry = fc.record(
  {
    spec: fc.jsonValue(),
    source: fc.oneof(
      fc.record({ pos: position, fields: fc.dictionary(fieldName, position, plain) }, plain),
      fc.record(
        {
          pos: position,
          fields: fc.dictionary(fieldName, position, plain),
          flagged: fc.array(fc.string(), { maxLength: 3 }),
        },
        plain,
      ),
    ),
  },
  plain,
);

describe("packed config entries", () => {
  it("unpack to the entries that were packed, key order included", () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 30 }), (entries) => {
        const packed = packEntries(entries);
        expect(packed).toBeDefined();
        const unpacked = unpackEntries(structuredClone(packed) as NonNullable<typeof packed>);
        // node's deep-strict equality (prototypes, own keys) rather than toStrictEqual, which
        // compares a "constructor" key by identity, and "constructor" is a fine field name.
        expect(isDeepStrictEqual(unpacked, entries)).toBe(true);
        expect(JSON.stringify(unpacked)).toBe(JSON.stringify(entries));
      }),
    );
  });

  it("share one file name per file instead of a copy per position", () => {
    const pos = { file: "notiform.yaml", line: 3, col: 5 };
    const entries = Array.from({ length: 100 }, (_, i) => ({
      spec: { key: `t${i}` },
      source: { pos, fields: { key: { ...pos, col: 10 }, name: { ...pos, line: 4 } } },
    }));
    const packed = packEntries(entries);
    expect(packed?.files).toEqual(["notiform.yaml"]);
    expect(packed?.shapes).toEqual([["key", "name"]]);
  });

  it.each([
    ["an entry with a key beyond spec and source", { spec: 1, source: okSource(), extra: true }],
    ["a source with a key beyond pos, fields and flagged", { spec: 1, source: { ...okSource(), more: 1 } }],
    ["keys in another order", { source: okSource(), spec: 1 }],
    [
      "a line that is not an integer",
      { spec: 1, source: { pos: { file: "a", line: 1.5, col: 1 }, fields: {} } },
    ],
    ["a line past 32 bits", { spec: 1, source: { pos: { file: "a", line: 2 ** 31, col: 1 }, fields: {} } }],
    ["a column of -0", { spec: 1, source: { pos: { file: "a", line: 1, col: -0 }, fields: {} } }],
    [
      "a position with an extra key",
      { spec: 1, source: { pos: { file: "a", line: 1, col: 1, end: 2 }, fields: {} } },
    ],
    ["a file that is not a string", { spec: 1, source: { pos: { file: 7, line: 1, col: 1 }, fields: {} } }],
    ["fields without a prototype", { spec: 1, source: { pos: okSource().pos, fields: Object.create(null) } }],
    [
      "a field named __proto__",
      {
        spec: 1,
        source: { pos: okSource().pos, fields: JSON.parse('{"__proto__":{"file":"a","line":1,"col":1}}') },
      },
    ],
    ["flagged paths that are not strings", { spec: 1, source: { ...okSource(), flagged: [1] } }],
  ])("leave a part unpacked when it holds %s", (_, odd) => {
    expect(packEntries([{ spec: 0, source: okSource() }, odd])).toBeUndefined();
  });

  it.each(readdirSync(VALID).sort())("%s: every kind's entries take the packed way", async (name) => {
    const dir = join(VALID, name);
    const expected = JSON.parse(readFileSync(join(dir, "expected.json"), "utf8")) as {
      args?: string[];
      env?: Record<string, string>;
    };
    const env = expected.args?.[0] === "--env" ? expected.args[1] : undefined;
    const options = { cwd: dir, vars: expected.env ?? {}, ...(env !== undefined ? { env } : {}) };
    const { desired } = await loadConfig(options);
    for (const entries of Object.values(desired.resources)) {
      const packed = packEntries(entries);
      expect(packed).toBeDefined();
      expect(unpackEntries(packed as NonNullable<typeof packed>)).toStrictEqual(entries);
    }
  });
});

function okSource() {
  return { pos: { file: "a", line: 1, col: 1 }, fields: { key: { file: "a", line: 1, col: 5 } } };
}
