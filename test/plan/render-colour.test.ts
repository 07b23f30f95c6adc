// Colour as Terraform and git use it (issue 33 item 10): a change's head in its op's colour, a
// field's old -> new yellow (~) or green when new (+), a diff's added lines green, removed lines
// red, hunk heads cyan; on a terminal only, never with NO_COLOR or --no-color.
import { describe, expect, it } from "vitest";
import type { PlanAction } from "../../src/kinds/plan-action.js";
import { stepField } from "../../src/kinds/workflow/steps-canonical.js";
import type { Plan } from "../../src/plan/model.js";
import { renderPlanText } from "../../src/plan/render-text.js";
import { planOf, updateAction } from "../helpers/builders.js";
import { cliTests } from "../support/cli.js";

const GREEN = "\u001b[32m";
const RED = "\u001b[31m";
const YELLOW = "\u001b[33m";
const CYAN = "\u001b[36m";
const RESET = "\u001b[0m";

function planWith(changes: PlanAction["changes"]): Plan {
  return planOf([updateAction(changes)], { target: { environment: null } });
}

const html = (edited: boolean) =>
  Array.from({ length: 12 }, (_, i) => `<p>line ${i}${edited && i === 6 ? " edited" : ""}</p>`).join("\n");

describe("plan text colours", () => {
  const plan = planWith([
    { field: "name", old: "Shipped", new: "Order shipped" },
    { field: "description", new: "Sent when it ships" },
    { field: stepField("email-customer", "template.content"), old: html(false), new: html(true) },
  ]);

  it("colours field changes and diff lines as Terraform and git do", () => {
    const text = renderPlanText(plan, { color: true, verbose: false });
    expect(text).toContain(`${YELLOW}  ~ workflow order-shipped${RESET}`);
    expect(text).toContain(`      ${YELLOW}name: "Shipped" -> "Order shipped"${RESET}\n`);
    expect(text).toContain(`      ${GREEN}description: "Sent when it ships"${RESET}\n`);
    expect(text).toContain(`        ${RED}-<p>line 6</p>${RESET}\n`);
    expect(text).toContain(`        ${GREEN}+<p>line 6 edited</p>${RESET}\n`);
    expect(text).toMatch(new RegExp(`\\n {8}${CYAN.replace("[", "\\[")}@@ `));
    // Context lines stay plain.
    expect(text).toContain("\n         <p>line 5</p>\n");
  });

  it("colours the verbose diff too, and nothing at all without colour", () => {
    const verbose = renderPlanText(plan, { color: true, verbose: true });
    expect(verbose).toContain(`${RED}-  "name": "Shipped",${RESET}`);
    expect(verbose).toContain(`${GREEN}+  "name": "Order shipped",${RESET}`);
    expect(renderPlanText(plan, { color: false, verbose: true })).not.toContain("\u001b[");
  });
});

const cliTest = cliTests();

describe("plan on a terminal", () => {
  /** `plan` on a terminal over a live topic "News" the config renames "Newsletter". */
  async function renamedTopic() {
    const test = await cliTest({
      config: "version: 1\norganization: Acme Inc\ntopics:\n  - key: news\n    name: Newsletter\n",
    });
    await test.call("POST", "/v1/topics", { key: "news", name: "News" });
    return (env: Record<string, string>, extra: string[] = []) =>
      test.onTerminal(["plan", ...extra], { env });
  }

  it("colours the field change on a TTY", async () => {
    const plan = await renamedTopic();
    const pty = plan({ NO_COLOR: "" });
    expect(await pty.exited).toBe(0);
    expect(pty.output()).toContain(`${YELLOW}name: "News" -> "Newsletter"${RESET}`);
  });

  it("never with NO_COLOR or --no-color", async () => {
    const plan = await renamedTopic();
    const withEnv = plan({ NO_COLOR: "1" });
    expect(await withEnv.exited).toBe(0);
    expect(withEnv.output()).toContain('name: "News" -> "Newsletter"');
    expect(withEnv.output()).not.toContain(YELLOW);
    const withFlag = plan({ NO_COLOR: "" }, ["--no-color"]);
    expect(await withFlag.exited).toBe(0);
    expect(withFlag.output()).toContain('name: "News" -> "Newsletter"');
    expect(withFlag.output()).not.toContain(YELLOW);
  });
});
