// What export writes reads back as the very values it was given: every string (blank lines,
// spaces, tabs, unicode, YAML's own syntax), under any key ("__proto__" included), in nested maps
// and lists. yaml 2.9's stringify alone writes a text of spaces and line breaks as a block scalar
// that reads back without its spaces; the export's writer quotes those.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { exportYaml } from "../../src/pipeline/export-yaml.js";

const awkward = fc.string({
  unit: fc.constantFrom(
    " ",
    "\t",
    "\n",
    "\r\n",
    "a",
    "#",
    ":",
    "-",
    "|",
    ">",
    '"',
    "'",
    "{",
    "\u00a0",
    "é",
    "😀",
    "\\",
  ),
  maxLength: 12,
});
const blank = fc.string({ unit: fc.constantFrom(" ", "\t", "\n", "\r\n"), maxLength: 8 });
const text = fc.oneof(
  blank,
  awkward,
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.string({ maxLength: 20 }),
);
const key = fc.oneof(
  fc.constantFrom("__proto__", "constructor", "a b", "-", "? x", ""),
  fc.string({ maxLength: 8 }),
);
const value = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: "small" },
    text,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("node"), { maxLength: 3 }),
    fc.dictionary(key, tie("node"), { maxKeys: 3 }),
  ),
})).node;

describe("exportYaml", () => {
  it("writes text of spaces and line breaks alone so that it reads back exactly", () => {
    for (const blank of ["  \n", "\n  \n", "\t\n", " \n \n ", "\n", "\r\n  "]) {
      expect(parse(exportYaml({ content: blank })), JSON.stringify(blank)).toEqual({ content: blank });
    }
    expect(exportYaml({ content: "<p>hi</p>\n  \n<p>there</p>\n" })).toContain("content: |");
  });

  it("reads back every value it writes (generative)", () => {
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 4 }), (document) => {
        const back = parse(exportYaml(document));
        expect(JSON.stringify(back)).toBe(JSON.stringify(document));
      }),
      { seed: 20261127, numRuns: 2000 },
    );
  });
});
