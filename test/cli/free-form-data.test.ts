// Interpolation decides text fields by their path in the schema, never by a key's name: a
// workflow's free-form `data` keeps its numbers through plan JSON, apply and a re-plan.
import { describe, expect, it } from "vitest";
import { cliTests, TENANT_1, WORKFLOW_SHIPPED } from "../support/cli.js";

const cliTest = cliTests();

const CONFIG = `version: 1
organization: Acme Inc
workflows:
  - key: order-shipped
    id: ${WORKFLOW_SHIPPED}
    data: { id: 42, name: 7, key: 3.5, tenant: 650000000001, nested: { workflow: 9 } }
overrides:
  - workflow: order-shipped
    tenant: ${TENANT_1}
`;

describe("free-form data", () => {
  it("keeps data: {id: 42, name: 7} as numbers in plan JSON, in what apply sends and after a re-plan", async () => {
    const session = await cliTest({ config: CONFIG });
    const planned = await session.cli("plan", "--output", "json");
    expect(planned.code, planned.stderr).toBe(0);
    const plan = JSON.parse(planned.stdout);
    const update = plan.actions.find((a: { id: string }) => a.id === "workflow/order-shipped");
    const expected = { id: 42, name: 7, key: 3.5, tenant: 650000000001, nested: { workflow: 9 } };
    expect(update.requests[0].body.data).toEqual(expected);
    expect(update.operations[0]).toMatchObject({ type: "workflow.update", fields: { data: expected } });
    // ...while the override's unquoted tenant id, a text field, stays the digits written.
    const override = plan.actions.find((a: { kind: string }) => a.kind === "override");
    expect(override.requests[0].body.tenantId).toBe(TENANT_1);

    const applied = await session.cli("apply", "--auto-approve");
    expect(applied.code, applied.stderr).toBe(0);
    const stored = await fetch(`${session.emulator.url}/v1/workflows/${WORKFLOW_SHIPPED}`, {
      headers: { authorization: `ApiKey ${session.emulator.apiKey}` },
    }).then((r) => r.json() as Promise<{ data: { data: unknown } }>);
    expect(stored.data.data).toEqual(expected);

    const again = await session.cli("plan", "--detailed-exitcode");
    expect(again.code, again.stdout).toBe(0);
  });

  it("refuses a number JSON cannot hold exactly there, rather than send it rounded", async () => {
    const session = await cliTest({
      config: CONFIG.replace("tenant: 650000000001", "tenant: 650000000000000000000001"),
    });
    const planned = await session.cli("plan");
    expect(planned.code).toBe(1);
    expect(planned.stderr).toContain(
      "notiform.yaml:6:48  error  650000000000000000000001 cannot be sent as a number exactly (JSON numbers cannot hold it): quote it to send it as text",
    );
    // Reads may start while the config loads; nothing is written.
    expect(session.emulator.requests.filter((r) => r.method !== "GET")).toEqual([]);
  });
});
