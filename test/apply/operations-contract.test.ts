// Apply sends exactly what the plan showed: for a plan that holds every operation type, the
// writes the emulator received (method, path, JSON body) are the plan's rendered requests, no
// more and no fewer — with only the ids of resources created in the same apply filled in.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/canonical.js";
import { cliTests, TENANT_1, TENANT_2, WORKFLOW_RESET, WORKFLOW_SHIPPED } from "../support/cli.js";

const cliTest = cliTests();

const BRANDING = (color: string) => `branding:
  color: "${color}"
  fontColor: "#ffffff"
  contentBackground: "#fafafa"
  fontFamily: Inter
  logo: https://example.com/logo.png
`;

const BEFORE = `version: 1
organization: Acme Inc
topics:
  - { key: t1, name: T1 }
notificationGroups:
  - { key: g1, name: G1 }
workflows:
  - { key: order-shipped, id: ${WORKFLOW_SHIPPED}, name: Order shipped, active: true }
overrides:
  - { workflow: order-shipped, tenant: ${TENANT_1}, active: false }
${BRANDING("#000000")}`;

const AFTER = `version: 1
organization: Acme Inc
topics:
  - { key: t1, name: T1 renamed }
  - { key: t2, name: T2 }
notificationGroups:
  - { key: g1, name: G1 renamed }
  - { key: g2, name: G2 }
workflows:
  - key: order-shipped
    id: ${WORKFLOW_SHIPPED}
    name: Shipped!
    notificationGroup: g2
    active: false
    preferenceSettings: { sms: false }
overrides:
  - { workflow: order-shipped, tenant: ${TENANT_1}, active: true }
  - { workflow: ${WORKFLOW_RESET}, tenant: ${TENANT_2}, preferenceSettings: { push: false } }
${BRANDING("#0f62fe")}`;

interface Request {
  method: string;
  path: string;
  body: Record<string, unknown>;
  refs?: { field: string; action: string }[];
}

describe("operations and requests", () => {
  it("sends exactly the plan's requests for every operation type", async () => {
    const session = await cliTest({ config: BEFORE });
    expect((await session.cli("apply", "--auto-approve")).code).toBe(0);
    await session.workspace.write("notiform.yaml", AFTER);
    const planned = await session.cli("plan", "--out", "plan.json");
    expect(planned.code, planned.stderr).toBe(0);
    const plan = JSON.parse(await session.workspace.read("plan.json")) as {
      actions: { id: string; operations: { type: string }[]; requests: Request[] }[];
    };
    const types = plan.actions.flatMap((a) => a.operations.map((op) => op.type)).sort();
    expect(types).toEqual([
      "branding.update",
      "notificationGroup.create",
      "notificationGroup.rename",
      "override.create",
      "override.update",
      "topic.create",
      "topic.rename",
      "workflow.setStatus",
      "workflow.update",
    ]);

    session.emulator.requests.length = 0;
    const applied = await session.cli("apply", "plan.json");
    expect(applied.code, applied.stderr).toBe(0);

    const state = JSON.parse(readFileSync(join(session.workspace.dir, "notiform.state.json"), "utf8"));
    const createdIds = new Map([["notificationGroup/g2", state.notificationGroups.g2.id as string]]);
    const expected = plan.actions.flatMap((action) =>
      action.requests.map((request) => {
        const body = { ...request.body };
        for (const ref of request.refs ?? []) body[ref.field] = createdIds.get(ref.action);
        return canonicalJson({ method: request.method, path: request.path, body });
      }),
    );
    const sent = session.emulator.requests
      .filter((r) => r.method !== "GET")
      .map((r) => canonicalJson({ method: r.method, path: r.path, body: r.body }));
    expect(sent.sort()).toEqual(expected.sort());
    expect((await session.cli("plan", "--detailed-exitcode")).code).toBe(0);
  });
});
