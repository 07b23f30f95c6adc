// Issue 25's "done when", end to end as a user does it, through the built CLI against the emulator
// (real flavor, both environments) of a fresh organization: Development holds only what a new one
// has (the "General" group, `novu-default-layout` and its pending DefaultLayout change), Production
// nothing. A config with a layout, a tenant, a workflow whose email uses the layout, and an
// override for that tenant applies in ONE run (layout before the workflow that uses it, tenant and
// workflow before the override, each with the id its create produced), plans to zero, promotes,
// and `apply --env production` creates the tenant there, after which Production plans to zero.
import { describe, expect, it } from "vitest";
import { applyWay, BOTH_WAYS, promoteWay } from "../support/both-ways.js";
import { cliTests, orderShippedByEmail, twoEnvironments } from "../support/cli.js";

const cliTest = cliTests();

const FRESH = twoEnvironments("Fresh Inc");

const BRAND = '<html><body style="color: {{brandColor}}"><main>{{{body}}}</main></body></html>\n';

const CONFIG = `${FRESH.header}layouts:
  - identifier: brand
    name: Brand
    description: The brand frame
    content: { file: layouts/brand.html }
    variables:
      - { name: brandColor, defaultValue: "#0f62fe" }
tenants:
  - identifier: acme-eu
    name: Acme Europe
    data: { region: eu, seats: 5 }
${orderShippedByEmail({
  subject: "Your order {{orderId}} shipped",
  content: '"<p>It is on its way.</p>"',
  layout: "brand",
})}overrides:
  - workflow: order-shipped
    tenant: acme-eu
    active: true
    preferenceSettings: { sms: false }
`;

interface Action {
  id: string;
  op: string;
  kind: string;
  dependsOn: string[];
  reason?: string;
  requests: { method: string; path: string; body: Record<string, unknown>; refs?: unknown[] }[];
}

function freshOrganization() {
  return cliTest({
    ...FRESH.options,
    files: { "notiform.yaml": CONFIG, "layouts/brand.html": BRAND },
  });
}

describe("a layout, a tenant, a workflow using the layout and an override, on a fresh organization", () => {
  it.each(BOTH_WAYS)(
    "applies in one run, plans to zero, promotes, and Production (its tenant applied) plans to zero (%s)",
    async (way) => {
      const { emulator: handle, cli, json } = await freshOrganization();
      const development = handle.store("development");
      expect(development.layouts?.map((l) => l.identifier)).toEqual(["novu-default-layout"]);
      expect(handle.store("production").layouts).toEqual([]);

      const planned = await json(["plan", "--env", "development"], { schema: "plan" });
      expect(planned.code, planned.stderr).toBe(0);
      const actions = planned.value.actions as Action[];
      expect(actions.map((a) => [a.id, a.op, a.dependsOn])).toEqual([
        ["tenant/acme-eu", "create", []],
        ["layout/brand", "create", []],
        ["workflow/order-shipped", "create", ["layout/brand"]],
        ["override/order-shipped@acme-eu", "create", ["tenant/acme-eu", "workflow/order-shipped"]],
      ]);
      // What the plan shows for ids only a create of this apply produces.
      const workflowPost = actions[2]?.requests[0];
      expect(workflowPost?.refs).toEqual([{ field: "steps[0].template.layoutId", action: "layout/brand" }]);
      expect(JSON.stringify(workflowPost?.body)).toContain('"layoutId":"<id of layout/brand>"');
      expect(actions[3]?.requests[0]?.body).toMatchObject({
        workflowId: "<id of workflow/order-shipped>",
        tenantId: "<id of tenant/acme-eu>",
      });

      handle.clearRequests();
      await applyWay(cli, way, "--env", "development");
      const writes = handle.requests
        .filter((r) => r.method !== "GET")
        .map((r) => `${r.method} ${r.path.replace(/[0-9a-f]{24}/, "ID")}`);
      // The layout before the workflow that uses it; the override after both.
      expect(writes.indexOf("POST /v1/layouts")).toBeLessThan(writes.indexOf("POST /v1/workflows"));
      expect(writes.indexOf("POST /v1/workflows")).toBeLessThan(
        writes.indexOf("POST /v1/workflow-overrides"),
      );
      expect(writes.indexOf("POST /v1/tenants")).toBeLessThan(writes.indexOf("POST /v1/workflow-overrides"));
      const brand = development.layouts?.find((l) => l.identifier === "brand");
      expect(brand).toMatchObject({ content: BRAND, isDefault: false });
      const workflow = development.workflows.find((w) => w.triggers[0]?.identifier === "order-shipped");
      expect(workflow?.steps[0]?.template?._layoutId).toBe(brand?._id);
      const tenant = development.tenants.find((t) => t.identifier === "acme-eu");
      expect(development.overrides).toMatchObject([
        {
          _workflowId: workflow?._id,
          _tenantId: tenant?._id,
          active: true,
          preferenceSettings: { sms: false },
        },
      ]);
      const zero = await cli("plan", "--env", "development", "--detailed-exitcode");
      expect(zero.stdout, zero.stderr).toContain("No changes.");
      expect(zero.code).toBe(0);

      // Production before promotion: the layout and the workflow arrive by promotion (nothing sent
      // for them), the tenant is created by apply, the override is Development-only.
      const behind = (await json(["plan", "--env", "production"])).value;
      expect((behind.actions as Action[]).map((a) => [a.id, a.op])).toEqual([
        ["tenant/acme-eu", "create"],
        ["layout/brand", "not-applicable"],
        ["workflow/order-shipped", "not-applicable"],
        ["override/order-shipped@acme-eu", "not-applicable"],
      ]);
      expect(behind.actions[1].reason).toContain("arrives by promotion");
      expect(behind.actions[2].reason).toContain("arrives by promotion");

      const promoted = await promoteWay(cli, way, "--env", "development", "--output", "json");
      const report = JSON.parse(promoted.stdout);
      expect(report.counts).toMatchObject({ failed: 0, skipped: 0 });
      const production = handle.store("production");
      const copy = production.layouts?.find((l) => l.identifier === "brand");
      expect(copy).toMatchObject({ _parentId: brand?._id, content: BRAND });
      const promotedWorkflow = production.workflows.find((w) => w._parentId === workflow?._id);
      // Production's email points at Production's copy of the layout.
      expect(promotedWorkflow?.steps[0]?.template?._layoutId).toBe(copy?._id);

      handle.clearRequests();
      await applyWay(cli, way, "--env", "production");
      expect(handle.requests.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`)).toEqual([
        "POST /v1/tenants",
      ]);
      const productionTenant = production.tenants.find((t) => t.identifier === "acme-eu");
      expect(productionTenant).toMatchObject({ name: "Acme Europe", data: { region: "eu", seats: 5 } });
      expect(productionTenant?._id).not.toBe(tenant?._id);

      const settled = await json(["plan", "--env", "production", "--detailed-exitcode"]);
      expect(settled.code, settled.stderr).toBe(0);
      // Only the override remains, which a Production key can neither read nor write.
      expect((settled.value.actions as Action[]).map((a) => [a.id, a.op])).toEqual([
        ["override/order-shipped@acme-eu", "not-applicable"],
      ]);
      const text = await cli("plan", "--env", "production", "--detailed-exitcode");
      expect(text.code, text.stderr).toBe(0);
    },
  );
});
