// What the reviewer sees is what apply sends (2, 3): the markdown comment of any plan, whatever
// its keys, step names, values and reasons hold (backticks, pipes, `</details>`, `<!--`, headings,
// table rows, line breaks), reads back with the plan's structure: one section per kind with its
// count, one row per shown action with its op, its key and one code span per field change, no
// heading, HTML tag, comment or block that notiform did not write. And nothing goes silently:
// under any budget, each kind's count equals its rows plus the "N more" it names, a kind left
// out whole is named in the closing note, and the summary line is the plan's.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { JsonValue } from "../../src/canonical.js";
import type { ActionOp, FieldChange, PlanAction } from "../../src/kinds/plan-action.js";
import { KINDS } from "../../src/kinds/registry.js";
import { stepField } from "../../src/kinds/workflow/steps-canonical.js";
import type { Plan } from "../../src/plan/model.js";
import { describeKind, OP_SYMBOL, summaryLine } from "../../src/plan/render-common.js";
import { CHANGE_WIDTH, renderPlanMarkdown } from "../../src/plan/render-markdown.js";
import { clipText, visibleKey, visibleText } from "../../src/sanitize.js";
import { planOf } from "../helpers/builders.js";
import { readComment, seen } from "../support/plan-view.js";

/** Pieces of markdown and HTML that would end a span, a cell, a block or start another. */
const FRAGMENTS = [
  "`",
  "``",
  "```",
  "````diff",
  "|",
  "\\|",
  "\\",
  "</details>",
  "<details>",
  "</summary>",
  "</code>",
  "<!--",
  "-->",
  "<br>",
  "\n# Plan: 0 to create",
  "\n#### topics: 1 change (1 update)",
  "\n| ~ update | `evil` | `name: 1 -> 2` |",
  "\n\n",
  "\r\n",
  "\u2028",
  "&lt;",
  "<b>",
  "_",
  "*",
  " ",
  "@octocat",
  "[x](https://evil.example)",
];
const hostile = fc
  .array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 6 })), { maxLength: 8 })
  .map((parts) => parts.join(""));
const value: fc.Arbitrary<JsonValue> = fc.oneof(
  hostile,
  fc.dictionary(hostile, hostile, { maxKeys: 3 }),
  fc.array(hostile, { maxLength: 3 }),
  fc.array(hostile, { minLength: 3, maxLength: 12 }).map((lines) => lines.join("\n")),
  fc.constantFrom(null, true, 1, "x".repeat(500)),
);
const field = fc.oneof(
  fc.constantFrom("name", "active", "data", "content", "preferenceSettings.sms"),
  fc
    .tuple(hostile, fc.constantFrom("template.subject", "template.content", "metadata"))
    .map(([step, f]) => stepField(step, f)),
);
const change: fc.Arbitrary<FieldChange> = fc
  .record({ field, old: value, new: value, known: fc.boolean() })
  .map(({ field, old, new: next, known }) => (known ? { field, old, new: next } : { field, new: next }));
const OPS: ActionOp[] = ["create", "update", "unverified", "not-applicable", "uncertain"];
const action = fc
  .record({
    kind: fc.constantFrom(...KINDS),
    // A key is never empty (the schema's minLength), and a code span cannot be.
    key: fc
      .oneof(
        hostile,
        fc.nat({ max: 500 }).map((n) => "k".repeat(n)),
      )
      .map((k) => `k${k}`),
    op: fc.constantFrom(...OPS),
    changes: fc.array(change, { maxLength: 4 }),
    reason: hostile,
  })
  .map(
    ({ kind, key, op, changes, reason }): PlanAction => ({
      id: `${kind}/${key}`,
      kind,
      key,
      op,
      changes,
      operations: [],
      requests: [],
      dependsOn: [],
      live: { origin: "api", digest: "" },
      ...(op === "create" || op === "update" ? {} : { reason }),
    }),
  );

function planWith(actions: PlanAction[], organization: string): Plan {
  const plan = planOf(actions, { target: { organization } });
  const count = (op: ActionOp) => actions.filter((a) => a.op === op).length;
  plan.summary = {
    create: count("create"),
    update: count("update"),
    unverified: count("unverified"),
    notApplicable: count("not-applicable"),
    uncertain: count("uncertain"),
    unchanged: 3,
    unmanaged: 0,
  };
  return plan;
}

const ORDER: Record<ActionOp, number> = {
  uncertain: 0,
  "not-applicable": 1,
  update: 2,
  unverified: 3,
  create: 4,
};
const OWN_TAGS = new Set(["details", "summary", "b", "br", "code"]);
const HEADING = /^(### notiform plan · |#### [a-z ]+: \d+ changes? \(|#### Messages: )/;

function checkComment(plan: Plan, budget: number | undefined) {
  const markdown = renderPlanMarkdown(plan, budget === undefined ? {} : { budget });
  const view = readComment(markdown);
  expect(view.openDetails, "every <details> and fence is closed").toBe(0);
  expect(view.comments, "only the marker is an HTML comment").toBe(1);
  expect(view.tags.filter((tag) => !OWN_TAGS.has(tag))).toEqual([]);
  for (const heading of view.headings) expect(heading).toMatch(HEADING);
  expect(view.headings.filter((h) => h.startsWith("### "))).toHaveLength(1);
  expect(view.prose).toContain(seen(summaryLine(plan)));

  const left = view.prose.find((line) => line.startsWith("_… not shown, to keep this comment")) ?? "";
  for (const kind of KINDS) {
    const actions = plan.actions.filter((a) => a.kind === kind).sort((a, b) => ORDER[a.op] - ORDER[b.op]);
    const label = describeKind(kind, 2);
    const sections = view.sections.filter((s) => s.heading.startsWith(`#### ${label}: `));
    if (actions.length === 0) {
      expect(sections).toEqual([]);
      continue;
    }
    if (sections.length === 0) {
      expect(left, `${label} left out without a word`).toContain(label);
      continue;
    }
    expect(sections).toHaveLength(1);
    const section = sections[0];
    if (section === undefined) continue;
    const counted = `${actions.length} change${actions.length === 1 ? "" : "s"}`;
    expect(section.heading).toContain(`: ${counted} (`);
    expect(section.rows.length + section.more, `${label}: rows and "more" add up`).toBe(actions.length);
    section.rows.forEach((row, i) => {
      const shown = actions[i];
      if (shown === undefined) return;
      expect(row.op).toBe(`${OP_SYMBOL[shown.op]} ${shown.op}`);
      expect(row.key).toEqual([seen(visibleText(clipText(visibleKey(shown.key), CHANGE_WIDTH)))]);
      expect(row.changes, JSON.stringify(shown.changes)).toHaveLength(shown.changes.length);
      if (shown.reason !== undefined) expect(row.note).toContain(`${shown.op}: `);
      else expect(row.note).toBe("");
    });
  }
}

const RUNS = { seed: 20_260_518, numRuns: 150 } as const;

describe("the markdown comment reads back as the plan", () => {
  it("for any keys, step names, values and reasons", () => {
    fc.assert(
      fc.property(fc.array(action, { maxLength: 25 }), hostile, (actions, organization) => {
        checkComment(planWith(actions, organization), undefined);
      }),
      RUNS,
    );
  });

  it("under any budget, nothing is left out without a word", () => {
    fc.assert(
      fc.property(
        fc.array(action, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 3_000, max: 30_000 }),
        (actions, budget) => {
          checkComment(planWith(actions, "Acme"), budget);
        },
      ),
      RUNS,
    );
  });
});
