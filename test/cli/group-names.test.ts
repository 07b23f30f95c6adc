// A workflow's group is shown by config key when the config names it, and otherwise by the
// group's name (never by a bare server id) wherever the server lists groups.
import { describe, expect, it } from "vitest";
import { cliTests, WORKFLOW_SHIPPED } from "../support/cli.js";

const cliTest = cliTests();

describe("a workflow's group in a plan", () => {
  it("is shown by name when the config does not name it, and by key when it does", async () => {
    const session = await cliTest({
      config: `version: 1\norganization: Acme Inc\nnotificationGroups:\n  - { key: billing, name: Billing }\nworkflows:\n  - { key: shipped, id: ${WORKFLOW_SHIPPED}, notificationGroup: billing }\n`,
    });
    const workflow = session.emulator.store("development").workflows.find((w) => w._id === WORKFLOW_SHIPPED);
    const group = session.emulator
      .store("development")
      .notificationGroups.find((g) => g._id === workflow?._notificationGroupId);
    expect(group).toBeDefined();
    const plan = await session.cli("plan");
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain(
      `notificationGroup: ${JSON.stringify(`group "${group?.name}" (not in the config)`)} -> "billing"`,
    );
    expect(plan.stdout).not.toContain(`id:${group?._id}`);
    expect((await session.cli("apply", "--auto-approve")).code).toBe(0);
    expect((await session.cli("plan", "--detailed-exitcode")).code).toBe(0);
  });
});
