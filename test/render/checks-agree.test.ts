// Generative agreement between the two judges of a template: the offline checks
// (renderer.checkTemplate, run by validate/plan/apply) and the renderer itself (what preview and
// the emulator's preview routes run, calibrated against the real server's captures). Random
// templates come from a grammar (test/support/template-grammar.ts: text with `{`, `}`, `\{{` and
// unicode; every mustache form; the built-in blocks and every server helper inline, as a block
// with {{else}} and as a sub-expression, with 0..3 literal or path params and hash args; typos one
// edit from a helper; unknown names; block parameters named like helpers; paths called as
// helpers; partials, partial blocks, inline partials, decorators, comments, raw blocks; and
// deliberately broken syntax), each rendered over random payloads (missing keys, arrays, numbers,
// strings, dates, nesting). The properties, and why each is true:
//   1. Never a raw exception, and bounded: both paths answer with problems or a RenderError only.
//   2. Parse errors are payload-independent: the renderer fails to parse on a payload exactly
//      when the checks report a template-parse error, with the engine's same message.
//   3. Every position the checks give lies inside the template.
//   4. A failure of a class the checks claim (Missing helper, a partial that cannot be found,
//      Missing decorator) on any payload means the checks report an error.
//   5. Against the grammar's oracle (template-oracle.ts, from Handlebars' own rules), for a
//      template that parses: (a) every error the checks report sits on a call the oracle says
//      fails whenever it is evaluated; (b) if that call is evaluated on every render, the
//      renderer fails on every payload; (c) every such failing call is reported, wherever it is;
//      (d) the oracle itself agrees with the renderer: a failing call evaluated on every render
//      fails every payload.
// Dropped as not true: "an error from the checks means the renderer fails on every payload". The
// checks are lexical on purpose: a typo'd helper or a partial inside `{{#if false}}…{{/if}}` (or a
// loop over an empty list) never runs, so that render succeeds, yet the template is refused,
// because the branch the payload happens to skip is the one that fails in production. Soundness
// holds per call (5a) and, for calls every render evaluates, per template (5b).
// To hunt: NOTIFORM_CHECKS_SEED=n NOTIFORM_CHECKS_RUNS=m npx vitest run test/render/checks-agree.test.ts
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { loadRenderer, RenderError, type TemplateProblem } from "../../src/render/index.js";
import { cliTests, runCli } from "../support/cli.js";
import type { BareProbe, CallKind, Generated, Piece, Verdict } from "../support/template-grammar.js";
import { serialize, templateArb } from "../support/template-grammar.js";

const renderer = await loadRenderer();
const SEED = Number(process.env.NOTIFORM_CHECKS_SEED ?? 20260514);
const RUNS = Number(process.env.NOTIFORM_CHECKS_RUNS ?? 400);

// ---------------------------------------------------------------------------------------------
// The two judges

type Outcome = { ok: string } | { error: RenderError };

function raw(what: string, template: string, error: unknown): never {
  throw new Error(`${what} threw a raw ${String(error)} on ${JSON.stringify(template)}`);
}

function render(template: string, payload: Record<string, unknown>): Outcome {
  try {
    return { ok: renderer.renderSms({ content: template }, { payload }).content };
  } catch (error) {
    if (error instanceof RenderError) return { error };
    return raw("the renderer", template, error);
  }
}

function check(template: string): TemplateProblem[] {
  try {
    renderer.templateVariables(template);
    return renderer.checkTemplate(template);
  } catch (error) {
    return raw("the checks", template, error);
  }
}

/** What a known helper called with no arguments does, asked of the renderer (the same every time). */
const probes = new Map<string, Verdict>();
const probe: BareProbe = (name: string, kind: CallKind) => {
  const text =
    kind === "block" ? `{{#${name}}}{{/${name}}}` : kind === "sub" ? `{{log (${name})}}` : `{{${name}}}`;
  let verdict = probes.get(text);
  if (verdict === undefined) {
    verdict = "error" in render(text, {}) ? "fails" : "renders";
    probes.set(text, verdict);
  }
  return verdict;
};

// ---------------------------------------------------------------------------------------------
// Payloads

const scalarArb = fc.constantFrom<unknown>(
  null,
  0,
  1,
  -1.5,
  2,
  1700000000000,
  "",
  "abc",
  "x y",
  "2024-01-02",
  "2024-01-02T10:00:00Z",
  true,
  false,
  "Ünï 😀",
  "<b>&'\"",
);
const { value: valueArb } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", maxDepth: 3 },
    scalarArb,
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom("b", "x", "name", "key", "if"), tie("value"), {
      maxKeys: 3,
      noNullPrototype: true,
    }),
  ),
}));
const payloadArb = fc.dictionary(
  fc.constantFrom("x", "a", "items", "name", "n", "d", "item", "p", "foo", "uppercase", "lookup", "if", "b"),
  valueArb,
  { maxKeys: 6, noNullPrototype: true },
) as fc.Arbitrary<Record<string, unknown>>;

// ---------------------------------------------------------------------------------------------
// The properties

function offsetOf(template: string, pos: { line: number; col: number }): number | undefined {
  const lines = template.split("\n");
  const line = lines[pos.line - 1];
  if (line === undefined || pos.col < 1 || pos.col > line.length + 1) return undefined;
  return lines.slice(0, pos.line - 1).reduce((sum, text) => sum + text.length + 1, 0) + pos.col - 1;
}

/** The innermost piece holding `offset`. */
function pieceAt(pieces: Piece[], offset: number): Piece | undefined {
  return pieces
    .filter((piece) => piece.start <= offset && offset < piece.end)
    .sort((a, b) => a.end - a.start - (b.end - b.start))[0];
}

const CLAIMED = /^(Missing helper: "|Missing decorator: "|The partial .* could not be found)/;

/** The first disagreement, described, or undefined when both judges agree. */
function disagreement(generated: Generated, payloads: Record<string, unknown>[]): string | undefined {
  const { template, pieces } = generated;
  const problems = check(template);
  const errors = problems.filter((p) => p.severity === "error");
  const outcomes = payloads.map((payload) => render(template, payload));
  const failed = outcomes.flatMap((o) => ("error" in o ? [o.error] : []));
  const failsAll = failed.length === outcomes.length;
  const parse = errors.find((p) => p.rule === "template-parse");

  for (const p of problems)
    if (p.pos !== undefined && offsetOf(template, p.pos) === undefined)
      return `position ${p.pos.line}:${p.pos.col} of "${p.message}" is outside the template`;
  const parseFailure = failed.find((e) => e.kind === "parse");
  if (parseFailure !== undefined || parse !== undefined) {
    if (parseFailure === undefined || parse === undefined || !failsAll)
      return `parse: checks ${parse?.message ?? "none"}; renderer ${parseFailure?.message ?? "none"}`;
    if (parse.message !== parseFailure.message)
      return `parse messages differ: ${parse.message} / ${parseFailure.message}`;
    return undefined;
  }
  const claimed = failed.find((e) => CLAIMED.test(e.message));
  if (claimed !== undefined && errors.length === 0)
    return `the renderer failed with "${claimed.message}" but the checks report nothing`;
  if (generated.broken) return undefined;

  for (const error of errors) {
    const offset = error.pos === undefined ? undefined : offsetOf(template, error.pos);
    const piece = offset === undefined ? undefined : pieceAt(pieces, offset);
    if (piece === undefined) return `the checks' "${error.message}" is on no call`;
    if (piece.verdict !== "fails")
      return `the checks refuse ${piece.text} ("${error.message}"), which ${piece.verdict === "renders" ? "never fails" : "fails only on some payloads"}`;
    if (piece.region === "always" && !failsAll)
      return `the checks refuse ${piece.text} ("${error.message}"), evaluated on every render, yet a payload renders`;
  }
  for (const piece of pieces.filter((p) => p.verdict === "fails")) {
    const reported = errors.some((e) => {
      const offset = e.pos === undefined ? undefined : offsetOf(template, e.pos);
      return offset !== undefined && piece.start <= offset && offset < piece.end;
    });
    if (!reported) return `${piece.text} fails whenever it is evaluated, but the checks do not report it`;
    if (piece.region === "always" && !failsAll)
      return `the oracle says ${piece.text} fails every render, but a payload renders (oracle wrong)`;
  }
  return undefined;
}

function assertAgreement(generated: Generated, payloads: Record<string, unknown>[]): void {
  const found = disagreement(generated, [{}, ...payloads]);
  if (found !== undefined)
    throw new Error(
      `${found}\ntemplate: ${JSON.stringify(generated.template)}\npayloads: ${JSON.stringify(payloads)}`,
    );
}

describe("the render checks agree with the renderer (generative, seeded)", () => {
  it(`random templates over random payloads (seed ${SEED}, ${RUNS} runs)`, () => {
    fc.assert(
      fc.property(templateArb, fc.array(payloadArb, { minLength: 2, maxLength: 3 }), (nodes, payloads) => {
        const generated = serialize(nodes, probe);
        // Bounded: the grammar's depth and widths keep every text short.
        expect(generated.template.length).toBeLessThan(5000);
        assertAgreement(generated, payloads);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it("a known disagreement makes the property fail (the test can fail)", () => {
    // A call the oracle says fails, which the checks did not report, is reported as such.
    const piece: Piece = { start: 0, end: 11, region: "always", verdict: "fails", text: "{{if x}}" };
    expect(disagreement({ template: "{{log 1}}!!", pieces: [piece], broken: false }, [{}])).toMatch(
      /but the checks do not report it/,
    );
  });
});

/** The checks' errors, as `line:col message`. */
function errorsOf(template: string): string[] {
  return renderer
    .checkTemplate(template)
    .filter((p) => p.severity === "error")
    .map((p) => `${p.pos?.line}:${p.pos?.col} ${p.message}`);
}

/** The renderer's answer: the text, or the RenderError's message. */
function rendered(template: string, payload: Record<string, unknown> = {}): string {
  try {
    return renderer.renderSms({ content: template }, { payload }).content;
  } catch (error) {
    if (error instanceof RenderError) return `RenderError: ${error.message}`;
    throw error;
  }
}

describe("disagreements found by the generative agreement test", () => {
  it("a block parameter is a value, even given arguments, and only inside its block's body", () => {
    // The compiler binds `as |item|` lexically (classifySexpr: a block param is never a call):
    // `{{item x}}` prints the item, `{{#item 1}}` is a section over it.
    const inside = "{{#each items as |item|}}{{item x}}{{#item 1}}!{{/item}}{{/each}}";
    expect(rendered(inside, { items: [1, 2] })).toBe("1!2!");
    expect(errorsOf(inside)).toEqual([]);
    // After the block (or in its {{else}}) the name is the helper again: a bare call that fails.
    const after = "{{#each items as |uppercase|}}{{/each}}{{uppercase}}";
    expect(rendered(after, { items: [1] })).toBe("RenderError: value.toUpperCase is not a function");
    expect(errorsOf(after)).toEqual([
      '1:42 "uppercase" is a helper, called here with no arguments, which fails every render: value.toUpperCase is not a function',
    ]);
    const inElse = "{{#each items as |a|}}{{else}}{{a y}}{{/each}}";
    expect(rendered(inElse)).toBe('RenderError: Missing helper: "a"');
    expect(errorsOf(inElse)).toEqual(['1:33 Missing helper: "a" (did you mean "gt"?)']);
  });

  it("a path whose first part is a built-in, called, calls that built-in; a literal callee is a name", () => {
    // helperSexpr looks `path.parts[0]` up in the compiler's known helpers: `this.if`, `../lookup`
    // and `lookup.x` are the built-ins; the checks refused them as paths that cannot be called.
    expect(rendered('{{this.lookup a "b"}}|{{#this.if x}}yes{{/this.if}}', { a: { b: "B" }, x: 1 })).toBe(
      "B|yes",
    );
    expect(errorsOf('{{this.lookup a "b"}}|{{#this.if x}}yes{{/this.if}}')).toEqual([]);
    // ... and a hook reached that way fails every render, with a hash alone too.
    expect(rendered("{{this.helperMissing k=1}}")).toBe(
      "RenderError: Cannot read properties of undefined (reading 'call')",
    );
    expect(errorsOf("{{this.helperMissing k=1}}")).toEqual([
      "1:3 \"helperMissing\" is Handlebars' own hook, not a helper a template can call, which fails every render: Cannot read properties of undefined (reading 'call')",
    ]);
    // transformLiteralToPath: `{{"foo" x}}` calls `foo` (and `{{"uppercase" x}}` the helper).
    expect(rendered('{{"uppercase" x}}', { x: "a" })).toBe("A");
    expect(rendered('{{"foo" x}}')).toBe('RenderError: Missing helper: "foo"');
    expect(rendered("{{true x}}")).toBe('RenderError: Missing helper: "true"');
    expect(errorsOf('{{"uppercase" x}}{{"foo" x}}{{true x}}{{uppercase ("lookup")}}')).toEqual([
      '1:20 Missing helper: "foo"',
      '1:31 Missing helper: "true"',
      "1:52 \"lookup\" is a helper, called here with no arguments, which fails every render: Cannot read properties of undefined (reading 'lookupProperty')",
    ]);
  });

  it("the inline decorator is Handlebars' own: the partial it defines is found in its program", () => {
    // Every Handlebars environment registers `inline`; the server's engine too. The partial it
    // defines serves its program (and the blocks inside) from the start: the checks refused
    // both the decorator and the partial.
    const template = '{{> p}}{{#each items}}{{> p}}{{/each}}{{#*inline "p"}}[{{@root.n}}]{{/inline}}';
    expect(rendered(template, { n: 1, items: [0] })).toBe("[1][1]");
    expect(errorsOf(template)).toEqual([]);
    // Defined inside a block, it is gone once the block is done: that partial still fails.
    const scoped = '{{#if n}}{{#*inline "p"}}x{{/inline}}{{/if}}{{> p}}';
    expect(rendered(scoped, { n: 1 })).toBe("RenderError: The partial p could not be found");
    expect(errorsOf(scoped)).toEqual([
      "1:45 The partial p could not be found: the server registers no partials (a partial block {{#> p}}…{{/p}} renders its fallback)",
    ]);
  });
});

// A handful of the cases above through the CLI: `notiform validate` on a workflow whose SMS step
// is the template, and the bundled emulator's preview route (127.0.0.1) on a payload.
const cliTest = cliTests();
const CLI_CASES: {
  template: string;
  payload: Record<string, unknown>;
  refused: boolean;
  renders: boolean;
}[] = [
  {
    template: "{{#each items as |item|}}{{item x}}{{/each}}",
    payload: { items: [1] },
    refused: false,
    renders: true,
  },
  { template: '{{this.lookup a "b"}}', payload: { a: { b: "B" } }, refused: false, renders: true },
  { template: '{{#*inline "p"}}hi{{/inline}}{{> p}}', payload: {}, refused: false, renders: true },
  {
    template: "{{#each items as |uppercase|}}{{/each}}{{uppercase}}",
    payload: { items: [] },
    refused: true,
    renders: false,
  },
  { template: "{{upercase name}}", payload: { name: "a" }, refused: true, renders: false },
  // Refused though this payload renders: the checks are lexical on purpose (see the top).
  { template: "{{#if vip}}{{upercase name}}{{/if}}", payload: {}, refused: true, renders: true },
];

describe("the same judges through the CLI and the emulator", () => {
  it("validate refuses exactly the templates the checks refuse; the emulator's preview renders as the renderer", async () => {
    const { workspace, call } = await cliTest({ flavor: "real" });
    for (const { template, payload, refused, renders } of CLI_CASES) {
      await workspace.write("sms.txt", template);
      await workspace.write(
        "notiform.yaml",
        "version: 1\nworkflows:\n  - key: w\n    identifier: w\n    name: W\n    steps:\n      - name: sms\n        type: sms\n        template: { content: { file: sms.txt } }\n",
      );
      const validate = await runCli(["validate"], { cwd: workspace.dir });
      expect(validate.code, `${template}: ${validate.stderr}`).toBe(refused ? 1 : 0);
      expect(validate.stderr).not.toContain("    at ");
      const answer = await call("POST", "/v1/content-templates/preview/sms", { content: template, payload });
      expect("data" in answer, `${template}: ${JSON.stringify(answer)}`).toBe(renders);
      expect(rendered(template, payload).startsWith("RenderError")).toBe(!renders);
    }
  });
});
