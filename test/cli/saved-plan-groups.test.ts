// `apply FILE` of a plan that binds a notification group needing no change (found by the
// generative promotion test): the refresh re-read only what the plan's actions touch, so the
// group was never read again and its binding looked moved ("the plan is stale"). It failed on
// the first Production apply of the reviewed-plan flow (docs/ci.md) of any config with a group.
import { describe, expect, it } from "vitest";
import { cliTests, twoEnvironments } from "../support/cli.js";

const cliTest = cliTests();
const FRESH = twoEnvironments("Groups Inc");

describe("apply FILE binding a group that needs no change", () => {
  it("records the binding, as the direct apply does (a group matched by name in Development)", async () => {
    const { cli, workspace } = await cliTest({
      ...FRESH.options,
      config: `${FRESH.header}notificationGroups:\n  - key: billing\n    name: General\n`,
    });
    const planned = await cli("plan", "--env", "development", "--out", "plan.json");
    expect(planned.stdout, planned.stderr).toContain("No changes.");
    const applied = await cli("apply", "plan.json", "--env", "development");
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const state = JSON.parse(await workspace.read("notiform.development.state.json"));
    expect(Object.keys(state.notificationGroups ?? {})).not.toHaveLength(0);
  });

  it("applies a reviewed Production plan after a promotion that brought the group", async () => {
    const config = `${FRESH.header}notificationGroups:
  - key: billing
    name: Billing
workflows:
  - identifier: order-shipped
    name: Order shipped
    notificationGroup: billing
`;
    const { cli } = await cliTest({ ...FRESH.options, config });
    expect((await cli("apply", "--env", "development", "--auto-approve")).code).toBe(0);
    expect((await cli("promote", "--env", "development", "--auto-approve")).code).toBe(0);
    const planned = await cli("plan", "--env", "production", "--out", "plan.json");
    expect(planned.code, planned.stderr).toBe(0);
    const applied = await cli("apply", "plan.json", "--env", "production");
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect((await cli("plan", "--env", "production", "--detailed-exitcode")).code).toBe(0);
  });
});
