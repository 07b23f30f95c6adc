// A step switched off in the dashboard (`active: false`) is exported as such: the exported config
// keeps it off, so it plans back to zero, and an apply of the export never switches it on again.
// (No seed or fixture has an inactive step: without this test, dropping `active: false` from the
// export would pass everything.)
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { cliTests } from "../support/cli.js";

const cliTest = cliTests();

describe("export of a workflow with an inactive step", () => {
  it("writes active: false for that step only, and the export plans back to zero", async () => {
    const { call, cli, run, workspace, emulator } = await cliTest({ flavor: "real" });
    const group = emulator.store("development").notificationGroups[0]?._id;
    const created = await call("POST", "/v1/workflows", {
      name: "Quiet steps",
      notificationGroupId: group,
      active: true,
      steps: [
        { name: "bell", active: false, template: { type: "in_app", content: "Shipped {{orderId}}" } },
        { name: "text", template: { type: "sms", content: "Order {{orderId}} shipped" } },
      ],
    });
    const id = created.data._id as string;
    const live = emulator.store("development").workflows.find((w) => w._id === id);
    expect(live?.steps.map((s) => [s.name, s.active])).toEqual([
      ["bell", false],
      ["text", true],
    ]);

    const exported = await cli("export", "--dir", "exported");
    expect(exported.code, exported.stderr).toBe(0);
    const { workflows } = parse(await workspace.read("exported/workflows.yaml")) as {
      workflows: { name: string; steps?: { name: string; active?: boolean }[] }[];
    };
    const steps = workflows.find((w) => w.name === "Quiet steps")?.steps ?? [];
    expect(steps.map((s) => [s.name, s.active])).toEqual([
      ["bell", false],
      ["text", undefined],
    ]);

    const plan = await run(["plan", "--detailed-exitcode"], { cwd: workspace.path("exported") });
    expect(plan.stdout, plan.stderr).toContain("No changes.");
    expect(plan.code).toBe(0);
    emulator.clearRequests();
    const applied = await run(["apply", "--auto-approve"], { cwd: workspace.path("exported") });
    expect(applied.code, applied.stderr).toBe(0);
    expect(emulator.requests.filter((r) => r.method !== "GET")).toEqual([]);
    expect(emulator.store("development").workflows.find((w) => w._id === id)?.steps[0]?.active).toBe(false);
  });
});
