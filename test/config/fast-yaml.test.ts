// The fast YAML path must be indistinguishable from the library: whenever it accepts a text, the
// library parses the same text without error into the same values, node kinds, scalar styles and
// start offsets (so every position the user sees is the same). On anything else it must decline.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, stringify } from "yaml";
import { parseSimpleYaml, plainValue } from "../../src/config/fast-yaml.js";
import { yamlFilesUnder } from "../helpers/yaml-files.js";

const ROOT = join(import.meta.dirname, "..", "..");

/** The tree as data: kind, style, value, start line:col, for every node. */
function describeTree(node: unknown, lines: LineCounter): unknown {
  const start = (n: { range?: [number, number, number] | null }) => {
    const { line, col } = lines.linePos(n.range?.[0] ?? -1);
    return `${line}:${col}`;
  };
  if (isScalar(node)) return { scalar: node.value, type: node.type, source: node.source, at: start(node) };
  if (isMap(node)) {
    return {
      map: node.items.map((pair) =>
        isPair(pair) ? [describeTree(pair.key, lines), describeTree(pair.value, lines)] : "?",
      ),
      flow: node.flow === true,
      at: start(node),
    };
  }
  if (isSeq(node))
    return {
      seq: node.items.map((item) => describeTree(item, lines)),
      flow: node.flow === true,
      at: start(node),
    };
  return { other: String(node) };
}

/** Asserts agreement when the fast path accepts; returns whether it did. */
function agreesWithLibrary(text: string): boolean {
  const fast = parseSimpleYaml(text);
  if (fast === undefined) return false;
  const lines = new LineCounter();
  const library = parseDocument(text, { lineCounter: lines, uniqueKeys: true });
  expect(library.errors.map((e) => e.message)).toEqual([]);
  expect(fast.doc.toJS()).toEqual(library.toJS());
  // The loader reads a fast tree's values with plainValue, not toJS: exactly the same values.
  expect(plainValue(fast.doc.contents)).toStrictEqual(library.toJS());
  expect(describeTree(fast.doc.contents, fast.lines)).toEqual(describeTree(library.contents, lines));
  expect(fast.lines.lineStarts).toEqual(lines.lineStarts);
  return true;
}

describe("parseSimpleYaml", () => {
  it("agrees with the library on every config file of the repository it accepts", () => {
    const files = [
      ...yamlFilesUnder(join(ROOT, "test", "fixtures")),
      ...yamlFilesUnder(join(ROOT, "examples")),
    ];
    let accepted = 0;
    for (const file of files) if (agreesWithLibrary(readFileSync(file, "latin1"))) accepted += 1;
    // The subset is the common case: most real files take the fast path.
    expect(accepted).toBeGreaterThan(files.length / 2);
  });

  it("takes the fast path for the documented config style", () => {
    const text = readFileSync(join(ROOT, "examples", "basic", "notiform.yaml"), "utf8");
    expect(agreesWithLibrary(text)).toBe(true);
    expect(agreesWithLibrary(text.replace(/\n/g, "\r\n"))).toBe(true);
  });

  it.each([
    ["an anchor", "a: &x b\nc: *x\n"],
    ["a tag", "a: !!str 1\n"],
    ["a block scalar", "a: |\n  text\n"],
    ["a multi-line plain scalar", "a: one\n  two\n"],
    ["a null value", "a:\nb: c\n"],
    ["a hex number", "a: 0x1F\n"],
    ["a duplicate key", "a: 1\na: 2\n"],
    ["a tab", "a:\n\t- b\n"],
    ["a lone carriage return", "a: b\rc: d\n"],
    ["two documents", "a: b\n---\nc: d\n"],
    ["a quoted key", '"a": b\n'],
    ["an unclosed quote", 'a: "b\n'],
    ["a flow collection over two lines", "a: [b,\n  c]\n"],
    ["a nested flow collection", "a: { b: [c] }\n"],
    ["a root list", "- a\n"],
    ["an empty file", ""],
    ["a key without a space after the colon", "a:b\n"],
    ["a nested mapping on one line", "a: b: c\n"],
    ["a bad dedent", "a:\n    b: c\n  d: e\n"],
    ["a merge key", "a: { b: c }\nd:\n  <<: { e: f }\n"],
    ["a null word", "a: ~\n"],
    ["an unknown escape", 'a: "\\x41"\n'],
    ["a trailing comma in a flow collection", "a: [b, c, ]\n"],
  ])("declines %s (the library decides)", (_name, text) => {
    expect(parseSimpleYaml(text)).toBeUndefined();
  });

  it("keeps the spaces YAML keeps: JavaScript's trim removes more than space and tab", () => {
    const spaces = [...Array(0x10000).keys()]
      .map((code) => String.fromCharCode(code))
      .filter((c) => c.trim() === "" && c !== " " && c !== "\t" && c !== "\n" && c !== "\r");
    expect(spaces).toContain("\u00a0");
    for (const space of spaces)
      for (const text of [
        `name: Trailing${space}\n`,
        `name: ${space}Leading\n`,
        `tags: [a${space}, b]\n`,
        `name: a${space}# not a comment\n`,
      ])
        agreesWithLibrary(text); // declined, or read exactly as the library reads it
  });

  it("reads unquoted ids, booleans, integers, quotes and escapes as the library does", () => {
    const text = [
      "version: 1",
      "# a comment",
      "topics:",
      "- key: a   # compact sequence at the key's indent",
      "  name: 'it''s'",
      "-   key: b",
      '    name: "tab\\there \\u00e9 \\"q\\""',
      "workflows:",
      "  - key: w",
      "    id: 64f1c0ffee0000000000a001",
      "    active: True",
      "    tags: [a, 'b c', \"d\"]",
      "    data: {}",
      "    preferenceSettings: { email: false, sms: true }",
      "overrides:",
      "  - workflow: w",
      "    tenant: 650000000000000000000001",
      "    note: -1",
      "    other: a#b c",
      "    url: http://x.test/a?b=c",
      "    floats: [1.5, 6500000000000000000000e1, 1e3, -.5, 1., +2E-3]",
      "    exp: 6500000000000000000000e0",
      "",
    ].join("\n");
    expect(agreesWithLibrary(text)).toBe(true);
  });

  it("agrees with the library on generated configs in every layout the library writes", () => {
    const key = fc.stringMatching(/^[a-z][a-zA-Z0-9_-]{0,8}$/);
    const text = fc.oneof(
      { arbitrary: fc.stringMatching(/^[A-Za-z$][A-Za-z0-9 ._:/{}-]{0,14}$/), weight: 6 },
      fc.string({ maxLength: 12 }),
      fc.stringMatching(/^[ -~]{0,16}$/),
      fc.constantFrom(
        "true",
        "null",
        "1.5",
        "0x10",
        "- a",
        "a: b",
        "#x",
        " lead",
        "trail ",
        "'",
        '"',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: ${...} is the config's interpolation syntax, on purpose.
        "${VAR:-x}",
        "1e3",
        "-1",
      ),
    );
    const scalar = fc.oneof({ arbitrary: text, weight: 4 }, fc.integer(), fc.boolean());
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: "small" },
        scalar,
        fc.array(tie("node"), { maxLength: 3 }),
        fc.dictionary(key, tie("node"), { maxKeys: 3 }),
      ),
    })).node;
    const root = fc.dictionary(key, value, { minKeys: 1, maxKeys: 5 });
    const options = fc.record({
      indent: fc.constantFrom(2, 4),
      indentSeq: fc.boolean(),
      collectionStyle: fc.constantFrom("any", "block", "flow") as fc.Arbitrary<"any" | "block" | "flow">,
      defaultStringType: fc.constantFrom("PLAIN", "QUOTE_SINGLE", "QUOTE_DOUBLE") as fc.Arbitrary<
        "PLAIN" | "QUOTE_SINGLE" | "QUOTE_DOUBLE"
      >,
    });
    let accepted = 0;
    fc.assert(
      fc.property(root, options, (data, opts) => {
        const written = stringify(data, { ...opts, lineWidth: 0 });
        if (agreesWithLibrary(written)) accepted += 1;
        agreesWithLibrary(written.replace(/\n/g, "\r\n")); // as checked out on Windows
      }),
      { numRuns: 600, seed: 20261122 },
    );
    // Quoted keys and nested flow collections (most layouts) take the library path; enough do not.
    expect(accepted).toBeGreaterThan(30);
  });

  it("never accepts a damaged text the library reads differently", () => {
    const base = readFileSync(join(ROOT, "examples", "basic", "notiform.yaml"), "utf8");
    const damage = fc.record({
      at: fc.nat({ max: base.length }),
      cut: fc.nat({ max: 3 }),
      insert: fc.constantFrom(
        "",
        " ",
        "  ",
        "\n",
        "-",
        ":",
        ": ",
        "#",
        " #",
        "'",
        '"',
        "{",
        "}",
        "[",
        "]",
        ",",
        "a",
        "0",
        "\n  ",
        "\n- ",
      ),
    });
    let accepted = 0;
    fc.assert(
      fc.property(damage, ({ at, cut, insert }) => {
        if (agreesWithLibrary(base.slice(0, at) + insert + base.slice(at + cut))) accepted += 1;
      }),
      { numRuns: 1500, seed: 7 },
    );
    // Many damaged texts are still valid YAML of the subset: the check is not vacuous.
    expect(accepted).toBeGreaterThan(300);
  });
});
