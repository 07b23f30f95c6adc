// What the reviewer sees is what apply sends (1): for any two different values of a field, the
// text plan and the markdown comment each show an update from one to the other so that a
// reviewer can tell the two apart. The oracle: the change from a to b and the change from b to a
// must look different on the screen (`seen`: invisible characters, raw controls and trailing
// blanks count for nothing), which fails exactly when a's and b's renderings look the same.
// The values are near-misses: trailing or leading blanks, a tab or a no-break space for a space,
// zero-width and bidi characters, CR vs LF vs CRLF, a final newline, escape sequences, a literal
// `\t` for a tab, "null" for null, "1" for 1, [] for {} for "", keys that differ invisibly.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, type JsonValue } from "../../src/canonical.js";
import type { FieldChange, PlanAction } from "../../src/kinds/plan-action.js";
import { stepField } from "../../src/kinds/workflow/steps-canonical.js";
import { renderPlanMarkdown } from "../../src/plan/render-markdown.js";
import { renderPlanText } from "../../src/plan/render-text.js";
import { planOf, updateAction } from "../helpers/builders.js";
import { readComment, seen } from "../support/plan-view.js";

/** Where a change can show: one-line fields, step fields, long text as a diff, data objects. */
const FIELDS: { kind: PlanAction["kind"]; field: string }[] = [
  { kind: "topic", field: "name" },
  { kind: "tenant", field: "data" },
  { kind: "layout", field: "content" },
  { kind: "workflow", field: stepField("email-customer", "template.subject") },
  { kind: "workflow", field: stepField("email-customer", "template.content") },
  { kind: "workflow", field: stepField("wait", "metadata") },
];

/** Characters that look like nothing, or like a plain space, or act on the terminal. */
const SNEAKY = [
  " ",
  "\t",
  "\u00a0",
  "\u2003",
  "\u202f",
  "\u3000",
  "\u200b",
  "\u200d",
  "\u2060",
  "\ufeff",
  "\u00ad",
  "\u034f",
  "\ufe0f",
  "\u3164",
  "\u202e",
  "\u2066",
  "\u001b[2J",
  "\u001b[31m",
  "\r",
  "\n",
  "\r\n",
  "\u2028",
  "\u0085",
];
/** Literal text that reads like an escape notiform itself writes. */
const LOOKALIKE = ["\\t", "\\n", "\\r", "\\u00a0", "\\u200b", "\\u001b", '\\"', "\\\\"];

const line = fc.stringMatching(/^[a-z <>{}"=/.]{0,30}$/);
const text = fc.oneof(
  line,
  fc.array(line, { minLength: 2, maxLength: 8 }).map((lines) => lines.join("\n")),
  fc.tuple(line, fc.integer({ min: 81, max: 160 })).map(([l, n]) => `${l}${"x".repeat(n)}`),
  fc.array(line, { minLength: 2, maxLength: 5 }).map((lines) => `${lines.join("\n")}\n`),
);

/** `s` with `piece` put in at `at` (modulo its length), or replacing the character there. */
const perturbed = fc
  .tuple(
    text,
    fc.constantFrom(...SNEAKY, ...LOOKALIKE),
    fc.nat(),
    fc.constantFrom("insert", "replace", "append", "prepend"),
  )
  .map(([s, piece, n, how]): [string, string] => {
    const at = n % (s.length + 1);
    if (how === "append") return [s, s + piece];
    if (how === "prepend") return [s, piece + s];
    if (how === "replace" && at < s.length) return [s, s.slice(0, at) + piece + s.slice(at + 1)];
    return [s, s.slice(0, at) + piece + s.slice(at)];
  });

/** The same text with its line ends or its final newline changed. */
const lineEnds = text.chain((s) =>
  fc.constantFrom<[string, string]>(
    [s, s.replace(/\n/g, "\r\n")],
    [s, s.replace(/\n/g, "\r")],
    [s, s.endsWith("\n") ? s.slice(0, -1) : `${s}\n`],
    [s, `${s}\r`],
    [s, s.replace(/\n/g, "\u2028")],
  ),
);

/** Values of different types that print alike somewhere. */
const TYPED: [JsonValue, JsonValue][] = [
  ["null", null],
  ["1", 1],
  ["true", true],
  ["false", false],
  [[], {}],
  [[], ""],
  [{}, ""],
  ["", null],
  ["[]", []],
  ["{}", {}],
  ['{\n  "a": 1\n}', { a: 1 }],
  [JSON.stringify({ a: "x".repeat(90) }, null, 2), { a: "x".repeat(90) }],
  [{ a: 1 }, { "a\u200b": 1 }],
  [{ "a b": 1 }, { "a\u00a0b": 1 }],
  [{ a: "x" }, { a: "x " }],
  [{ a: "x\ty" }, { a: "x\\ty" }],
  [["a", "b"], "a,b"],
  [{ body: "x".repeat(100) }, { body: `${"x".repeat(100)} ` }],
];

/** Long values that differ only past the width a comment shows of them. */
const clipped = fc
  .tuple(fc.integer({ min: 230, max: 700 }), fc.constantFrom("a", "b", " ", "\u00a0"))
  .chain(([n, end]) =>
    fc.constantFrom<[JsonValue, JsonValue]>(
      [`${"x".repeat(n)}`, `${"x".repeat(n)}${end}`],
      [{ a: "x".repeat(n) }, { a: `${"x".repeat(n)}${end}` }],
      [["x".repeat(n)], ["x".repeat(n), end]],
    ),
  );

const pair = fc
  .oneof(perturbed, lineEnds, fc.constantFrom(...TYPED), clipped)
  .filter(([a, b]) => canonicalJson(a) !== canonicalJson(b));

function planFor(kind: PlanAction["kind"], change: FieldChange) {
  return planOf([updateAction([change], kind, "order-shipped")]);
}

const textOf = (kind: PlanAction["kind"], change: FieldChange) =>
  seen(renderPlanText(planFor(kind, change), { color: false, verbose: false }));

/** The comment as shown: its sections' rows and diff blocks (the head is the same either way). */
function commentOf(kind: PlanAction["kind"], change: FieldChange): string {
  const view = readComment(renderPlanMarkdown(planFor(kind, change)));
  return JSON.stringify({ sections: view.sections, prose: view.prose });
}

const CUT_NOTE =
  /Values cut short are shown whole by `notiform plan`|Lines cut at \d+ characters: run `notiform plan`/;

const RUNS = { seed: 20_260_517, numRuns: 400 } as const;

describe("an update from a to b looks different from one from b to a", () => {
  it("in the text plan", () => {
    fc.assert(
      fc.property(pair, fc.constantFrom(...FIELDS), ([a, b], { kind, field }) => {
        const forward = textOf(kind, { field, old: a, new: b });
        const back = textOf(kind, { field, old: b, new: a });
        expect(forward).toContain("~ ");
        expect(forward, `${JSON.stringify(a)} -> ${JSON.stringify(b)}\n${forward}`).not.toBe(back);
      }),
      RUNS,
    );
  });

  it("in the markdown comment", () => {
    fc.assert(
      fc.property(pair, fc.constantFrom(...FIELDS), ([a, b], { kind, field }) => {
        const forward = commentOf(kind, { field, old: a, new: b });
        const back = commentOf(kind, { field, old: b, new: a });
        // A value the comment cuts may look the same either way: then the comment must say so.
        if (forward === back) expect(forward).toMatch(CUT_NOTE);
        else expect(forward, `${JSON.stringify(a)} -> ${JSON.stringify(b)}\n${forward}`).not.toBe(back);
      }),
      RUNS,
    );
  });
});
