// What the reviewer sees is what apply sends: the cases the generative hunt
// (visible-changes.property.test.ts) found, each as the example it shrank to. A change that only
// differs invisibly must still show, in the text plan and in the markdown comment alike.
import { describe, expect, it } from "vitest";
import type { FieldChange, PlanAction } from "../../src/kinds/plan-action.js";
import { stepField } from "../../src/kinds/workflow/steps-canonical.js";
import { renderPlanMarkdown } from "../../src/plan/render-markdown.js";
import { renderPlanText } from "../../src/plan/render-text.js";
import { planOf, updateAction } from "../helpers/builders.js";

function rendered(change: FieldChange, kind: PlanAction["kind"] = "layout") {
  const plan = planOf([updateAction([change], kind, "brand")]);
  return {
    text: renderPlanText(plan, { color: false, verbose: false }),
    markdown: renderPlanMarkdown(plan),
  };
}

const LONG = "x".repeat(100);

describe("a long text's diff shows a change that is only its final newline", () => {
  it.each([
    ["added", `<p>\n${LONG}</p>`, `<p>\n${LONG}</p>\n`],
    ["removed", `<p>\n${LONG}</p>\n`, `<p>\n${LONG}</p>`],
  ])("final newline %s", (_name, old, next) => {
    const { text, markdown } = rendered({ field: "content", old, new: next });
    expect(text).toContain(`        -${LONG}</p>\n`);
    expect(text).toContain(`        +${LONG}</p>\n`);
    expect(text).toContain("\\ No newline at end of file");
    expect(markdown).toContain("\\ No newline at end of file");
  });

  it("texts that both lack a final newline still diff without the marker", () => {
    const { text } = rendered({ field: "content", old: `<p>\n${LONG}</p>`, new: `<p>\n${LONG}!</p>` });
    expect(text).toContain(`        +${LONG}!</p>\n`);
    expect(text).not.toContain("No newline");
  });
});
