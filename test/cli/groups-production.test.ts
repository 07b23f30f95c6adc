// Notification groups are authored in Development and reach Production by promotion, as
// workflows and layouts do. A Production run before the promotion (a team that exported both
// environments, then planned Production first) shows the base's groups as arriving by
// promotion and sends nothing for them: created there directly, each would exist twice once
// promoted (the server makes a new record per promotion and per POST), and the promoted
// workflows would point at the promoted copy, so Production never planned to zero again.
import { describe, expect, it } from "vitest";
import type { EmulatorHandle } from "../../src/emulator/index.js";
import { cliTests, twoEnvironments } from "../support/cli.js";

const cliTest = cliTests();
const FRESH = twoEnvironments("Groups Inc");

const CONFIG = `${FRESH.header}notificationGroups:
  - key: billing
    name: Billing
workflows:
  - identifier: invoice-ready
    name: Invoice ready
    notificationGroup: billing
    steps:
      - name: in-app
        type: in_app
        template:
          content: "Invoice {{number}} is ready"
`;

const writes = (handle: EmulatorHandle) =>
  handle.requests.filter((r) => r.method !== "GET" && !r.path.startsWith("/__emulator"));

describe("notification groups in Production", () => {
  it("arrive by promotion: Production plans them as not applicable, sends nothing, and holds one copy after the promotion", async () => {
    const { emulator: handle, cli } = await cliTest({ ...FRESH.options, config: CONFIG });
    expect((await cli("apply", "--env", "development", "--auto-approve")).code).toBe(0);

    // Production first, before any promotion: the group is not created there.
    handle.clearRequests();
    const planned = await cli("plan", "--env", "production", "--output", "json", "--detailed-exitcode");
    expect(planned.code, planned.stderr).toBe(0);
    const actions = JSON.parse(planned.stdout).actions as { id: string; op: string; reason?: string }[];
    expect(actions.find((a) => a.id === "notificationGroup/billing")).toMatchObject({
      op: "not-applicable",
      reason: "notification groups are authored in Development: this arrives by promotion (notiform promote)",
    });
    const applied = await cli("apply", "--env", "production", "--auto-approve");
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(writes(handle)).toEqual([]);
    expect(handle.store("production").notificationGroups.map((g) => g.name)).not.toContain("Billing");

    // The promotion brings the group (and the workflow that names it) to Production, once.
    const promoted = await cli("promote", "--env", "development", "--auto-approve");
    expect(promoted.code, promoted.stdout + promoted.stderr).toBe(0);
    const production = handle.store("production");
    const billing = production.notificationGroups.filter((g) => g.name === "Billing");
    expect(billing).toHaveLength(1);
    const workflow = production.workflows.find((w) => w.triggers[0]?.identifier === "invoice-ready");
    expect(workflow?._notificationGroupId).toBe(billing[0]?._id);

    // Production settles at zero, and stays there.
    for (let round = 0; round < 2; round += 1) {
      const settled = await cli("plan", "--env", "production", "--detailed-exitcode");
      expect(settled.code, settled.stdout + settled.stderr).toBe(0);
      expect((await cli("apply", "--env", "production", "--auto-approve")).code).toBe(0);
    }
    expect(handle.store("production").notificationGroups.filter((g) => g.name === "Billing")).toHaveLength(1);
  });
});
