// `plan` never writes, and `apply plan.json` sends nothing but reads until its first planned
// write: no capability probe (it used to PUT an all-zero override id). Checked from the
// emulator's own request log, with an override update in the plan (the case that probed).
import { describe, expect, it } from "vitest";
import { ACME_BASE, cliTests, TENANT_1, WORKFLOW_SHIPPED } from "../support/cli.js";

const CONFIG = `${ACME_BASE}overrides:
  - workflow: ${WORKFLOW_SHIPPED}
    tenant: ${TENANT_1}
    active: true
    preferenceSettings: { sms: false }
`;

const cliTest = cliTests();

describe.each([
  ["with the observed extensions", false],
  ["on a spec-only server", true],
])("reads only %s", (_label, strictSpec) => {
  it("plan and apply plan.json send only GETs before the first planned write", async () => {
    const session = await cliTest({ config: CONFIG, strictSpec });
    const { cli, workspace, emulator } = session;
    expect((await cli("apply", "--auto-approve")).code).toBe(0);
    await workspace.write("notiform.yaml", CONFIG.replace("active: true", "active: false"));

    const before = emulator.requests.length;
    const plan = await cli("plan", "--out", "plan.json");
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain("workflow override");
    const planned = emulator.requests.slice(before);
    expect(planned.length).toBeGreaterThan(0);
    expect(planned.filter((r) => r.method !== "GET")).toEqual([]);

    const start = emulator.requests.length;
    await cli("apply", "plan.json");
    const applied = emulator.requests.slice(start);
    const firstWrite = applied.findIndex((r) => r.method !== "GET");
    expect(firstWrite).toBeGreaterThan(0);
    // The first write is the planned update of the real override, not a probe.
    expect(applied[firstWrite]?.method).toBe("PUT");
    expect(applied[firstWrite]?.path).toMatch(/^\/v1\/workflow-overrides\/[0-9a-f]{24}$/);
    expect(applied[firstWrite]?.path).not.toContain("000000000000000000000000");
    expect(applied.some((r) => r.path.includes("000000000000000000000000"))).toBe(false);
  });
});
