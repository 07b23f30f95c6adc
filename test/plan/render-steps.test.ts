// How workflow content changes read in a plan (issue 24): a step's field as `step NAME  FIELD:
// old -> new`, the step list as what was added, removed or reordered, long text as a unified
// diff in text, and in markdown as a diff block cut at DIFF_LINES lines under the table.
import { describe, expect, it } from "vitest";
import type { PlanAction } from "../../src/kinds/plan-action.js";
import { stepField } from "../../src/kinds/workflow/steps-canonical.js";
import type { Plan } from "../../src/plan/model.js";
import { DIFF_LINES, renderPlanMarkdown } from "../../src/plan/render-markdown.js";
import { renderPlanText } from "../../src/plan/render-text.js";
import { planOf, updateAction } from "../helpers/builders.js";

function planWith(
  changes: PlanAction["changes"],
  kind: PlanAction["kind"] = "workflow",
  key = "order-shipped",
): Plan {
  return planOf([updateAction(changes, kind, key)]);
}

const html = (n: number, changed: number) =>
  Array.from({ length: n }, (_, i) => `<p>line ${i}${i === changed ? " edited" : ""}</p>`).join("\n");

describe("workflow content in a plan", () => {
  it("shows a step's field as old -> new, and the step list as added and removed steps", () => {
    const text = renderPlanText(
      planWith([
        { field: "steps", old: ["email-customer", "bell"], new: ["email-customer", "chat"] },
        { field: stepField("email-customer", "template.subject"), old: "Shipped", new: "Your order shipped" },
      ]),
      { color: false, verbose: false },
    );
    expect(text).toContain("  ~ workflow order-shipped\n");
    expect(text).toContain("      steps: + chat, - bell (removed)\n");
    expect(text).toContain('      step email-customer  subject: "Shipped" -> "Your order shipped"\n');
    const data = renderPlanText(
      planWith([
        { field: stepField("wait", "metadata"), new: { type: "regular", amount: 2, unit: "hours" } },
      ]),
      { color: false, verbose: false },
    );
    expect(data).toContain('      step wait  metadata: {"amount":2,"type":"regular","unit":"hours"}\n');
  });

  it("shows long text as a unified diff of the lines that changed", () => {
    const text = renderPlanText(
      planWith([
        { field: stepField("email-customer", "template.content"), old: html(30, -1), new: html(30, 12) },
      ]),
      { color: false, verbose: false },
    );
    expect(text).toContain("      step email-customer  content: changed, 30 lines\n");
    expect(text).toContain("        -<p>line 12</p>\n");
    expect(text).toContain("        +<p>line 12 edited</p>\n");
    expect(text).not.toContain("line 2</p>");
  });

  it("puts long text diffs in markdown under the table, cut at DIFF_LINES lines", () => {
    const markdown = renderPlanMarkdown(
      planWith([
        {
          field: stepField("email-customer", "template.content"),
          old: html(200, -1),
          new: html(200, -1).replace(/line/g, "row"),
        },
      ]),
    );
    expect(markdown).toContain("`step email-customer  content: changed, 200 lines`");
    expect(markdown).toContain("```diff\n");
    const block = markdown.slice(markdown.indexOf("```diff\n") + 8, markdown.lastIndexOf("\n```"));
    expect(block.split("\n")).toHaveLength(DIFF_LINES);
    expect(markdown).toMatch(/more diff lines: run `notiform plan` for the whole diff/);
  });

  it("shows a layout's content as a unified diff, in text and in markdown (not one escaped string)", () => {
    const layout = (body: string) =>
      `<!DOCTYPE html>\n<html>\n<body>\n<header>Acme</header>\n${body}\n<main>{{{body}}}</main>\n</body>\n</html>\n`;
    const plan = planWith(
      [
        { field: "content", old: layout("<p>Hello</p>"), new: layout("<p>Hello there</p>") },
        { field: "name", old: "Brand", new: "Brand 2" },
      ],
      "layout",
      "brand",
    );
    const text = renderPlanText(plan, { color: false, verbose: false });
    expect(text).toContain("  ~ layout brand\n");
    expect(text).toContain("      content: changed, 8 lines\n");
    expect(text).toContain("        --- content (live)\n");
    expect(text).toContain("        +++ content (desired)\n");
    expect(text).toContain("        -<p>Hello</p>\n");
    expect(text).toContain("        +<p>Hello there</p>\n");
    expect(text).not.toContain("\\n");
    // Short fields keep their one-line form.
    expect(text).toContain('      name: "Brand" -> "Brand 2"\n');

    const markdown = renderPlanMarkdown(plan);
    expect(markdown).toContain("`content: changed, 8 lines`");
    expect(markdown).not.toContain("<!DOCTYPE html>\\n");
    const block = markdown.slice(markdown.indexOf("```diff\n") + 8, markdown.lastIndexOf("\n```"));
    expect(block.split("\n")).toContain("+<p>Hello there</p>");
  });
});
