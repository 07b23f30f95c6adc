// A workflow is never promoted before the layout its steps use (issue 33, item 6). An email step
// created over the API gets the environment's default layout (`novu-default-layout` on a fresh
// organization, whose DefaultLayout change is still pending) even when the config names none;
// promoting the workflow alone left Production's copy pointing at no layout until it was promoted
// again. Promotion now carries that layout's change too, before the workflow, both ways (direct,
// and saved with `promote --out` then `promote FILE`). Against the emulator (real flavor).
import { describe, expect, it } from "vitest";
import { BOTH_WAYS, expectPlansToZero, promoteWay } from "../support/both-ways.js";
import { cliTests, orderShippedByEmail, twoEnvironments } from "../support/cli.js";

const cliTest = cliTests();

const FRESH = twoEnvironments("Fresh Inc");

const CONFIG = `${FRESH.header}${orderShippedByEmail({
  subject: "Order {{orderId}} shipped",
  content: '"<p>It is on its way.</p>"',
})}`;

describe.each(BOTH_WAYS)("a workflow whose step uses a layout the config does not name, %s", (way) => {
  it("is promoted after that layout, and points at Production's copy of it", async () => {
    const { emulator: handle, cli } = await cliTest({
      ...FRESH.options,
      config: CONFIG,
    });
    const applied = await cli("apply", "--env", "development", "--auto-approve");
    expect(applied.code, applied.stderr).toBe(0);
    const development = handle.store("development");
    const defaultLayout = development.layouts?.find((l) => l.identifier === "novu-default-layout");
    const workflow = development.workflows.find((w) => w.triggers[0]?.identifier === "order-shipped");
    // The server gave the email step its default layout.
    expect(workflow?.steps[0]?.template?._layoutId).toBe(defaultLayout?._id);

    const preview = await cli("promote", "--env", "development", "--output", "json", "--detailed-exitcode");
    expect(preview.code, preview.stderr).toBe(2);
    const entries = JSON.parse(preview.stdout).entries as { kind: string; entityId: string }[];
    // The layout's change first, then the workflow's.
    expect(entries.map((e) => [e.kind, e.entityId])).toEqual([
      ["layout", defaultLayout?._id],
      ["workflow", workflow?._id],
    ]);

    await promoteWay(cli, way, "--env", "development");
    const production = handle.store("production");
    const copy = production.layouts?.find((l) => l._parentId === defaultLayout?._id);
    expect(copy?._id).toBeDefined();
    const promoted = production.workflows.find((w) => w._parentId === workflow?._id);
    expect(promoted?.steps[0]?.template?._layoutId).toBe(copy?._id);
    await expectPlansToZero(cli, "--env", "production");
  });
});
