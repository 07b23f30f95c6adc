// Random Handlebars templates from a grammar, for the agreement test between the offline render
// checks (src/render/checks.ts) and the renderer (test/render/checks-agree.test.ts). Each template
// comes with its own oracle, written from Handlebars 4.7's compiler and runtime (not from the
// checks): every call it emits is a "piece" with its span in the text, the region it sits in
// (evaluated on every render, maybe, or never) and a verdict:
//   - "fails": the piece throws whenever it is evaluated, whatever the payload (an unknown name
//     called with positional arguments, a partial, a decorator, a hook, a bare helper call the
//     engine refuses): the checks claim to find exactly these;
//   - "renders": it never throws (a lookup, a section, a block parameter);
//   - "depends": it may or may not throw, depending on the payload or on the helper's arguments
//     (`{{foo k=1}}` throws only when the payload has a truthy `foo`): no claim either way.
// The oracle is checked against the renderer by the test: a "fails" piece in an "always" region
// must make the renderer fail on every payload.
import fc from "fast-check";
import { BUILT_INS, SERVER } from "./template-oracle.js";

export type Region = "always" | "maybe" | "never";
export type Verdict = "fails" | "renders" | "depends";
export type CallKind = "inline" | "block" | "sub";

export interface Piece {
  start: number;
  end: number;
  region: Region;
  verdict: Verdict;
  text: string;
}

export interface Generated {
  template: string;
  pieces: Piece[];
  /** A deliberately broken piece was inserted: the oracle's pieces say nothing then. */
  broken: boolean;
}

/** What a bare call (no positional arguments) of a known helper does: asked of the renderer once. */
export type BareProbe = (name: string, kind: CallKind) => Verdict;

type Param = { k: "lit"; v: string } | { k: "path"; v: string } | { k: "sub"; call: Call };
type Callee = { k: "name"; v: string } | { k: "path"; v: string } | { k: "lit"; v: string };
interface Call {
  callee: Callee;
  params: Param[];
  hash: [string, Param][];
}
type Form = "{{" | "{{{" | "{{&" | "{{~";
export type Node =
  | { k: "text"; v: string }
  | { k: "mustache"; form: Form; call: Call }
  | { k: "block"; call: Call; as: string[]; body: Node[]; inverse?: { chain?: Call; body: Node[] } }
  | { k: "raw"; call: Call; text: string }
  | { k: "partial"; name: string }
  | { k: "partialBlock"; name: string; body: Node[] }
  | { k: "decorator"; name: string }
  | { k: "inline"; name: string; body: Node[] }
  | { k: "comment"; v: string }
  | { k: "broken"; v: string };

// ---------------------------------------------------------------------------------------------
// Names

const UNKNOWN = ["foo", "ifCond", "i18n", "t", "raw", "constructor", "toString", "__proto__"];
const PAYLOAD_NAMES = ["x", "a", "items", "name", "n", "d"];
/** Block parameter names: some are helper or payload names, to be shadowed. */
const BLOCK_PARAMS = ["item", "p", "uppercase", "foo", "json", "x"];
const PATHS = [
  "a.b",
  "this",
  "this.x",
  "../x",
  "@root.x",
  "@root",
  "@index",
  "@first",
  "./x",
  "items.[0]",
  "this.if",
  "../lookup",
  "lookup.x",
  "each.items",
  "this.helperMissing",
  "this.uppercase",
];
const LITERAL_CALLEES = ['"foo"', '"uppercase"', "1", "true", "null"];
const STRINGS = ['"abc"', '""', '"2024-01-02T10:00:00Z"', '"YYYY"', '"yyyy-MM-dd"', '"x y"', '"é😀"', '"b"'];
const NUMBERS = ["0", "1", "2.5", "-3"];
const OTHER_LITERALS = ["true", "false", "null", "undefined"];
const HASH_KEYS = ["decimalLength", "k", "includeZero", "thousandsSep"];
const LETTERS = "abcdefghijklmnopqrstuvwxyzA";

/** A name one edit away from a helper (which may land on another helper: the oracle looks). */
const typoArb: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(...SERVER, "if", "each", "with", "lookup"), fc.nat(), fc.nat(25), fc.nat(3))
  .map(([name, at, letter, op]) => {
    const i = at % (name.length + 1);
    const c = LETTERS[letter] ?? "a";
    if (op === 0 && name.length > 1) return name.slice(0, i) + name.slice(i + 1);
    if (op === 1) return name.slice(0, i) + c + name.slice(i);
    if (op === 2 && i < name.length) return name.slice(0, i) + c + name.slice(i + 1);
    if (i + 1 < name.length) return name.slice(0, i) + name[i + 1] + name[i] + name.slice(i + 2);
    return `${name}s`;
  })
  .filter((name) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name));

const nameArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SERVER, ...BUILT_INS) },
  { weight: 3, arbitrary: typoArb },
  { weight: 2, arbitrary: fc.constantFrom(...UNKNOWN) },
  { weight: 2, arbitrary: fc.constantFrom(...PAYLOAD_NAMES) },
  { weight: 1, arbitrary: fc.constantFrom(...BLOCK_PARAMS) },
);

const calleeArb: fc.Arbitrary<Callee> = fc.oneof(
  { weight: 6, arbitrary: nameArb.map((v) => ({ k: "name" as const, v })) },
  { weight: 2, arbitrary: fc.constantFrom(...PATHS).map((v) => ({ k: "path" as const, v })) },
  { weight: 1, arbitrary: fc.constantFrom(...LITERAL_CALLEES).map((v) => ({ k: "lit" as const, v })) },
);

function callArb(depth: number): fc.Arbitrary<Call> {
  const param: fc.Arbitrary<Param> =
    depth <= 0
      ? leafParamArb
      : fc.oneof(
          { weight: 5, arbitrary: leafParamArb },
          { weight: 1, arbitrary: callArb(depth - 1).map((call) => ({ k: "sub" as const, call })) },
        );
  return fc.record({
    callee: calleeArb,
    params: fc.array(param, { maxLength: 3 }),
    hash: fc.array(fc.tuple(fc.constantFrom(...HASH_KEYS), param), { maxLength: 2 }),
  });
}

const leafParamArb: fc.Arbitrary<Param> = fc.oneof(
  fc.constantFrom(...STRINGS, ...NUMBERS, ...OTHER_LITERALS).map((v) => ({ k: "lit" as const, v })),
  fc
    .constantFrom(...PAYLOAD_NAMES, ...BLOCK_PARAMS, "a.b", "this", "@root.x", "../x", "@index", "@root")
    .map((v) => ({ k: "path" as const, v })),
);

// ---------------------------------------------------------------------------------------------
// Text: `{`, `}`, `\{{` (an escaped mustache), unicode; never an unescaped `{{`, and never
// touching a mustache so as to change it (ending in `{` or `\`, starting with `}`).

const CHUNKS = [
  "a",
  "Hi ",
  " ",
  "{",
  "}",
  "\\{{",
  "é",
  "日本",
  "😀",
  "\n",
  "<b>",
  "&amp;",
  "'",
  '"',
  "=",
  "`",
  "\\x",
  "\t",
];
const textArb = fc.array(fc.constantFrom(...CHUNKS), { minLength: 1, maxLength: 6 }).map((chunks) => {
  let text = "";
  for (const chunk of chunks) text += text.endsWith("{") && chunk.startsWith("{") ? `·${chunk}` : chunk;
  if (text.endsWith("{") || text.endsWith("\\")) text += "·";
  return text.startsWith("}") ? `·${text}` : text;
});
const commentArb = fc.constantFrom("{{! note }}", "{{!-- a }} b --}}", "{{!-- {{x}} --}}", "{{!}}");
const rawTextArb = fc.constantFrom("{{x}}", "}} {{#if}}", "plain", "{{> p}}", "");
const BROKEN = [
  "{{#if x}}",
  "{{/if}}",
  "{{#each items}}z{{/with}}",
  "{{x",
  "{{}}",
  "{{#}}",
  "{{else}}",
  "{{{x}}",
  "{{> }}",
  "{{!-- open",
  "{{#with a}}{{else}}{{else}}{{/with}}",
  "{{foo (}}",
  "{{a=}}",
  "{{{{raw}}}}x",
];

export function nodesArb(depth: number): fc.Arbitrary<Node[]> {
  return fc.array(nodeArb(depth), { maxLength: depth >= 2 ? 6 : 3 });
}

function nodeArb(depth: number): fc.Arbitrary<Node> {
  const leaves: fc.WeightedArbitrary<Node>[] = [
    { weight: 4, arbitrary: textArb.map((v) => ({ k: "text" as const, v })) },
    {
      weight: 6,
      arbitrary: fc
        .record({ form: fc.constantFrom<Form>("{{", "{{", "{{{", "{{&", "{{~"), call: callArb(1) })
        .map(({ form, call }) => ({ k: "mustache" as const, form, call })),
    },
    {
      weight: 1,
      arbitrary: fc
        .record({ call: callArb(0), text: rawTextArb })
        .filter(({ call }) => call.callee.k === "name")
        .map(({ call, text }) => ({ k: "raw" as const, call, text })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom("p", "inlined").map((name) => ({ k: "partial" as const, name })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom("deco", "inline", "inlne")
        .map((name) => ({ k: "decorator" as const, name })),
    },
    { weight: 1, arbitrary: commentArb.map((v) => ({ k: "comment" as const, v })) },
  ];
  if (depth <= 0) return fc.oneof(...leaves);
  const inner = nodesArb(depth - 1);
  const block: fc.Arbitrary<Node> = fc
    .record({
      call: fc.oneof(
        callArb(1),
        // The built-in blocks with a literal condition: regions evaluated on every render.
        fc.record({
          callee: fc.constantFrom("if", "unless").map((v) => ({ k: "name" as const, v })),
          params: fc.tuple(leafParamArb).map((params) => [...params] as Param[]),
          hash: fc.constant([] as [string, Param][]),
        }),
        fc.constant<Call>({
          callee: { k: "name", v: "with" },
          params: [{ k: "path", v: "@root" }],
          hash: [],
        }),
      ),
      as: fc.oneof(
        fc.constant([] as string[]),
        fc.array(fc.constantFrom(...BLOCK_PARAMS), { minLength: 1, maxLength: 2 }),
      ),
      body: inner,
      inverse: fc.option(fc.record({ chain: fc.option(callArb(0), { nil: undefined }), body: inner }), {
        nil: undefined,
      }),
    })
    .map((spec) => {
      const node: Node = { k: "block", call: spec.call, as: [...new Set(spec.as)], body: spec.body };
      if (spec.inverse !== undefined) {
        const inverse: { chain?: Call; body: Node[] } = { body: spec.inverse.body };
        if (spec.inverse.chain !== undefined) inverse.chain = spec.inverse.chain;
        node.inverse = inverse;
      }
      return node;
    });
  return fc.oneof(
    ...leaves,
    { weight: 5, arbitrary: block },
    {
      weight: 1,
      arbitrary: fc
        .record({ name: fc.constantFrom("p", "q"), body: inner })
        .map((s) => ({ k: "partialBlock" as const, ...s })),
    },
    {
      weight: 1,
      arbitrary: fc
        .record({ name: fc.constantFrom("inlined"), body: inner })
        .map((s) => ({ k: "inline" as const, ...s })),
    },
  );
}

/** A template: nodes, sometimes with one deliberately broken piece spliced in. */
export const templateArb = fc
  .tuple(nodesArb(3), fc.option(fc.tuple(fc.nat(), fc.constantFrom(...BROKEN)), { freq: 6, nil: undefined }))
  .map(([nodes, broken]): Node[] => {
    if (broken === undefined) return nodes;
    const at = broken[0] % (nodes.length + 1);
    return [...nodes.slice(0, at), { k: "broken", v: broken[1] }, ...nodes.slice(at)];
  });

export { serialize } from "./template-oracle.js";
