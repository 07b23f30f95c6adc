// Tenants as a managed kind, end to end through the CLI against the emulator (real flavor, both
// environments): a tenant and an override naming it apply in one run (the override after the
// tenant, with the id its create produced), plan back to zero; `data` is sent whole and numbers
// stay numbers; Production gets its own tenant by apply, never by promotion; tenants the config
// does not name are listed, never deleted; export writes them and plans back to zero.
import { describe, expect, it } from "vitest";
import { applyWay, BOTH_WAYS } from "../support/both-ways.js";
import { cliTests, twoEnvironmentsConfig } from "../support/cli.js";

const cliTest = cliTests();

const CONFIG = `${twoEnvironmentsConfig("Acme Inc")}workflows:
  - identifier: order-shipped
tenants:
  - identifier: acme-eu
    name: Acme Europe
    data: { seats: 5, plan: pro, limits: { daily: 100 } }
overrides:
  - workflow: order-shipped
    tenant: acme-eu
    active: true
    preferenceSettings: { sms: false }
`;

/** Both environments, the real flavor. */
const setUp = (config = CONFIG) => cliTest({ config, flavor: "real" });

describe("tenants as code", () => {
  it.each(BOTH_WAYS)(
    "a tenant and an override naming it apply in one run, plan to zero; Production gets its own tenant (%s)",
    async (way) => {
      const { emulator, cli, json } = await setUp();
      const planned = await json(["plan", "--env", "development"], { schema: "plan" });
      expect(planned.code, planned.stderr).toBe(0);
      const plan = planned.value;
      expect(plan.actions.map((a: { id: string; op: string }) => [a.id, a.op])).toEqual([
        ["tenant/acme-eu", "create"],
        ["override/order-shipped@acme-eu", "create"],
      ]);
      expect(plan.actions[1].dependsOn).toContain("tenant/acme-eu");
      expect(plan.actions[1].requests[0].body.tenantId).toBe("<id of tenant/acme-eu>");
      // Tenants the config does not name are listed, never touched.
      expect(
        plan.unmanaged
          .filter((u: { kind: string }) => u.kind === "tenant")
          .map((u: { key: string }) => u.key),
      ).toEqual(["tenant-one", "tenant-three", "tenant-two"].sort());

      await applyWay(cli, way, "--env", "development");
      const development = emulator.store("development");
      const tenant = development.tenants.find((t) => t.identifier === "acme-eu");
      expect(tenant).toMatchObject({
        name: "Acme Europe",
        data: { seats: 5, plan: "pro", limits: { daily: 100 } },
      });
      const override = development.overrides.find((o) => o._tenantId === tenant?._id);
      expect(override).toMatchObject({ active: true, preferenceSettings: { sms: false, email: true } });
      expect(development.tenants.map((t) => t.identifier)).toContain("tenant-one");
      const again = await cli("plan", "--env", "development", "--detailed-exitcode");
      expect(again.stdout, again.stderr).toContain("No changes.");
      expect(again.code).toBe(0);

      // Tenants are never promoted: Production's plan creates its own, and then plans to zero.
      await applyWay(cli, way, "--env", "production");
      const productionTenant = emulator.store("production").tenants.find((t) => t.identifier === "acme-eu");
      expect(productionTenant?.data).toEqual({ seats: 5, plan: "pro", limits: { daily: 100 } });
      expect(productionTenant?._id).not.toBe(tenant?._id);
      const productionPlan = (await json(["plan", "--env", "production"])).value;
      expect(productionPlan.actions.filter((a: { kind: string }) => a.kind === "tenant")).toEqual([]);
    },
  );

  it("a data change is one update that sends data whole (keys left out are removed)", async () => {
    const { emulator, workspace, cli, json } = await setUp();
    expect((await cli("apply", "--env", "development", "--auto-approve")).code).toBe(0);
    await workspace.write(
      "notiform.yaml",
      CONFIG.replace(
        "data: { seats: 5, plan: pro, limits: { daily: 100 } }",
        "data: { seats: 6, plan: pro }",
      ),
    );
    const plan = (await json(["plan", "--env", "development"])).value;
    expect(plan.actions.map((a: { id: string; op: string }) => [a.id, a.op])).toEqual([
      ["tenant/acme-eu", "update"],
    ]);
    expect(plan.actions[0].requests).toEqual([
      { method: "PATCH", path: "/v1/tenants/acme-eu", body: { data: { seats: 6, plan: "pro" } } },
    ]);
    emulator.clearRequests();
    expect((await cli("apply", "--env", "development", "--auto-approve")).code).toBe(0);
    expect(emulator.requests.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`)).toEqual([
      "PATCH /v1/tenants/acme-eu",
    ]);
    const tenant = emulator.store("development").tenants.find((t) => t.identifier === "acme-eu");
    expect(tenant?.data).toEqual({ seats: 6, plan: "pro" });
    expect((await cli("plan", "--env", "development", "--detailed-exitcode")).code).toBe(0);
  });

  it("a tenant the server holds without data plans to zero against data: {}", async () => {
    const { emulator, cli, json } = await setUp(
      "version: 1\norganization: Acme Inc\ntenants:\n  - identifier: tenant-one\n    name: Tenant One\n    data: {}\n",
    );
    const tenant = emulator.store("development").tenants.find((t) => t.identifier === "tenant-one");
    expect(tenant).toBeDefined();
    expect(tenant?.data).toBeUndefined();
    const plan = await json(["plan", "--detailed-exitcode"]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.value.actions).toEqual([]);
    emulator.clearRequests();
    expect((await cli("apply", "--auto-approve")).code).toBe(0);
    expect(emulator.requests.filter((r) => r.method !== "GET")).toEqual([]);
  });

  it("export writes the tenants, and the exported config plans back to zero", async () => {
    const { workspace, cli, run } = await setUp("version: 1\norganization: Acme Inc\n");
    expect((await cli("apply", "--auto-approve")).code).toBe(0);
    const exported = await cli("export", "--dir", "exported");
    expect(exported.code, exported.stderr).toBe(0);
    const tenants = await workspace.read("exported/tenants.yaml");
    expect(tenants).toContain("identifier: tenant-one");
    const zero = await run(["plan", "--detailed-exitcode"], { cwd: workspace.path("exported") });
    expect(zero.stdout, zero.stderr).toContain("No changes.");
  });
});
