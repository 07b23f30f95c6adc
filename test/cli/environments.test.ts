// Two environments, one config (issue 13), as processes over HTTP against the emulator: workflows
// and tenants by identifier, resolved per environment and kept in that environment's state file;
// a Production key plans Development-only changes as not applicable (never exit 1) and exports;
// a state file is refused with the other environment's key; spec-only servers say which entries
// need an id.
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import type { EmulatorHandle } from "../../src/emulator/index.js";
import { validatorOf } from "../../src/schemas.js";
import { checkStateShape } from "../../src/state/state-schema.js";
import { cliTests, type Workspace } from "../support/cli.js";

const DEVELOPMENT_ONLY = "Development-only: overrides are written with a Development key and never promoted";

/** Identifiers only: no workflow or tenant id anywhere. */
const CONFIG = `version: 1
organization: Acme Inc
environments:
  development:
    apiKeyEnv: NOTIFORM_KEY_DEVELOPMENT
    serverEnvironment: Development
  production:
    apiKeyEnv: NOTIFORM_KEY_PRODUCTION
    serverEnvironment: Production
workflows:
  - identifier: order-shipped
    name: Order shipped (v2)
  - key: digest
    identifier: weekly-digest
    active: true
  - identifier: password-reset
    active: false
    tags: [accounts]
overrides:
  - workflow: order-shipped
    tenant: tenant-one
    active: true
    preferenceSettings: { sms: false }
`;

const cliTest = cliTests();

async function setup(config = CONFIG, options: { strictSpec?: boolean } = {}) {
  const {
    emulator: handle,
    workspace,
    run,
  } = await cliTest({
    config,
    ...options,
    env: (keys) => ({
      NOTIFORM_KEY_DEVELOPMENT: keys.development,
      NOTIFORM_KEY_PRODUCTION: keys.production,
      NOTIFORM_API_KEY: keys.development,
    }),
  });
  const cli = (args: string[], env: Record<string, string> = {}) => run(args, { env });
  return { handle, workspace, cli };
}

const writes = (handle: EmulatorHandle) =>
  handle.requests.filter((r) => r.method !== "GET" && !r.path.startsWith("/__emulator"));

async function stateOf(workspace: Workspace, name: string) {
  return JSON.parse(await readFile(workspace.path(name), "utf8"));
}

describe("one config, Development and Production", () => {
  it("plans and applies by identifier in Development, then plans Production with Development-only changes not applicable", async () => {
    const { handle, workspace, cli } = await setup();
    const development = handle.store("development");
    const production = handle.store("production");
    const devShipped = development.workflows.find((w) => w.triggers[0]?.identifier === "order-shipped");
    const prodShipped = production.workflows.find((w) => w.triggers[0]?.identifier === "order-shipped");
    expect(prodShipped?._id).not.toBe(devShipped?._id);

    const plan = await cli(["plan", "--env", "development", "--detailed-exitcode"]);
    expect(plan.code, plan.stderr).toBe(2);
    // The override is shown by identifiers, not ids.
    expect(plan.stdout).toContain("order-shipped@tenant-one");
    expect(plan.stdout).not.toContain("650000000000000000000001");

    const applied = await cli(["apply", "--env", "development", "--auto-approve"]);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(devShipped?.name).toBe("Order shipped (v2)");
    expect(development.overrides.map((o) => [o._workflowId, o._tenantId])).toEqual([
      [devShipped?._id, "650000000000000000000001"],
    ]);
    const state = await stateOf(workspace, "notiform.development.state.json");
    expect(state.serverEnvironment).toEqual({ id: development.environmentId, name: "Development" });
    expect(state.identifiers.workflows["order-shipped"]).toBe(devShipped?._id);
    expect(state.identifiers.tenants["tenant-one"]).toBe("650000000000000000000001");
    expect((await cli(["plan", "--env", "development", "--detailed-exitcode"])).code).toBe(0);

    // Production: the same config, the Production key. Workflows are authored in Development and
    // reach Production by promotion (a Production edit would be overwritten by the next one):
    // every workflow difference is shown as arriving by promotion and nothing is sent for it; the
    // override is Development-only.
    handle.clearRequests();
    const prodPlan = await cli(["plan", "--env", "production", "--detailed-exitcode", "--output", "json"]);
    expect(prodPlan.code, prodPlan.stderr).toBe(0);
    const planned = JSON.parse(prodPlan.stdout);
    const actions = planned.actions as { id: string; op: string; reason?: string; requests: unknown[] }[];
    const byId = new Map(actions.map((a) => [a.id, a]));
    for (const id of ["workflow/order-shipped", "workflow/password-reset", "workflow/digest"]) {
      expect(byId.get(id)).toMatchObject({ op: "not-applicable", requests: [] });
      expect(byId.get(id)?.reason).toContain("arrives by promotion");
    }
    expect(byId.get("override/order-shipped@tenant-one")).toMatchObject({
      op: "not-applicable",
      reason: DEVELOPMENT_ONLY,
    });
    // Overrides are not even read with a Production key.
    expect(handle.requests.filter((r) => r.path.startsWith("/v1/workflow-overrides"))).toEqual([]);

    const prodApply = await cli(["apply", "--env", "production", "--auto-approve"]);
    expect(prodApply.code, prodApply.stdout + prodApply.stderr).toBe(0);
    expect(prodShipped?.name).not.toBe("Order shipped (v2)");
    expect(production.overrides).toEqual([]);
    expect(writes(handle)).toEqual([]);
    // Only not-applicable actions are left: shown, but not counted as changes.
    const settled = await cli(["plan", "--env", "production", "--detailed-exitcode"]);
    expect(settled.code, settled.stderr).toBe(0);
    expect(settled.stdout).toContain("arrives by promotion");
    const prodState = await stateOf(workspace, "notiform.production.state.json");
    expect(prodState.serverEnvironment.name).toBe("Production");
    expect(prodState.identifiers.workflows["order-shipped"]).toBe(prodShipped?._id);
  });

  it("saves a plan made by identifier that follows the plan schema, and applies it, recording the identifiers", async () => {
    const { handle, workspace, cli } = await setup();
    const saved = await cli(["plan", "--env", "development", "--out", "plan.json"]);
    expect(saved.code, saved.stderr).toBe(0);
    const plan = JSON.parse(await readFile(workspace.path("plan.json"), "utf8"));
    const validate = validatorOf("plan");
    expect(validate(plan), JSON.stringify(validate.errors)).toBe(true);
    expect(plan.bindings.identifiers.tenants).toEqual({ "tenant-one": "650000000000000000000001" });
    const applied = await cli(["apply", "plan.json", "--env", "development"]);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(handle.store("development").overrides).toHaveLength(1);
    const state = await stateOf(workspace, "notiform.development.state.json");
    expect(state.identifiers.tenants["tenant-one"]).toBe("650000000000000000000001");
    expect(checkStateShape(state)).toEqual([]);
  });

  it("exports with a Production key, leaving overrides out with a note, and plans back to zero", async () => {
    const { handle, cli, workspace } = await setup();
    const production = { NOTIFORM_API_KEY: handle.productionApiKey ?? "" };
    const exported = await cli(["export", "--env", "production", "--dir", "exported"]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toContain(`Not exported: workflow overrides (${DEVELOPMENT_ONLY})`);
    // The guard for the environment the key reached; workflows by identifier, no ids.
    expect(await readFile(workspace.path("exported/notiform.yaml"), "utf8")).toContain(
      "serverEnvironment: Production",
    );
    const workflows = await readFile(workspace.path("exported/workflows.yaml"), "utf8");
    expect(workflows).toContain("identifier: order-shipped");
    expect(workflows).not.toMatch(/\bid:/);
    const plan = await cli(
      [
        "plan",
        "--config",
        "exported/notiform.yaml",
        "--env",
        "production",
        "--detailed-exitcode",
        "--state",
        "prod.state.json",
      ],
      production,
    );
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toContain("No changes.");
  });

  it("refuses a state file with the other environment's key before anything is written", async () => {
    const { handle, workspace, cli } = await setup(CONFIG.replace(/\n {4}serverEnvironment: \w+/g, ""));
    // The development environment's variable holding the Production key: one state file, two keys.
    expect((await cli(["apply", "--env", "development", "--auto-approve"])).code).toBe(0);
    const before = await readFile(workspace.path("notiform.development.state.json"), "utf8");
    handle.clearRequests();
    const refused = await cli(["apply", "--env", "development", "--auto-approve"], {
      NOTIFORM_KEY_DEVELOPMENT: handle.productionApiKey ?? "",
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("belongs to the Development environment");
    expect(refused.stderr).toContain("--env");
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(writes(handle)).toEqual([]);
    expect(await readFile(workspace.path("notiform.development.state.json"), "utf8")).toBe(before);
    // The guard is known by its code, not its wording.
    const json = await cli(["apply", "--env", "development", "--auto-approve", "--output", "json"], {
      NOTIFORM_KEY_DEVELOPMENT: handle.productionApiKey ?? "",
    });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).error.code).toBe("STATE_FOREIGN");
    expect(writes(handle)).toEqual([]);
    expect(await readFile(workspace.path("notiform.development.state.json"), "utf8")).toBe(before);
  });

  it("refuses a key that reaches another environment than the config's guard, and whoami says which", async () => {
    const { cli, handle } = await setup();
    const wrong = await cli(["plan", "--env", "production"], { NOTIFORM_KEY_PRODUCTION: handle.apiKey });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("reaches the Development environment");
    expect(wrong.stderr).toContain("is for Production");
    for (const args of [["plan"], ["apply", "--auto-approve"]]) {
      const json = await cli([...args, "--env", "production", "--output", "json"], {
        NOTIFORM_KEY_PRODUCTION: handle.apiKey,
      });
      expect(json.code, json.stdout).toBe(1);
      expect(JSON.parse(json.stdout).error.code).toBe("ENVIRONMENT_MISMATCH");
    }
    expect(writes(handle)).toEqual([]);
    const whoami = await cli(["whoami", "--env", "production"], { NOTIFORM_KEY_PRODUCTION: handle.apiKey });
    expect(whoami.code).toBe(0);
    expect(whoami.stdout).toMatch(/Environment: +Development \(/);
    expect(whoami.stdout).toMatch(/Config env: +production/);
  });

  it("finds a workflow or tenant identifier that matches nothing at plan time, every one at its position", async () => {
    const { cli, handle } = await setup(`version: 1
organization: Acme Inc
workflows:
  - identifier: no-such-flow
  - identifier: also-missing
overrides:
  - workflow: 64f1c0ffee0000000000a001
    tenant: no-such-tenant
`);
    const result = await cli(["plan"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'notiform.yaml:4:17  error  workflow "no-such-flow": no workflow with trigger identifier',
    );
    expect(result.stderr).toContain("notiform.yaml:5:17");
    expect(result.stderr).toContain(
      'notiform.yaml:8:13  error  override of workflow "64f1c0ffee0000000000a001": no tenant with identifier "no-such-tenant"',
    );
    expect(writes(handle)).toEqual([]);
  });
});

describe("a server that does not say which environment a key reaches", () => {
  it("takes a Development-only 401 on the override read as 'not readable' and goes on with the plan", async () => {
    const { handle, cli } = await setup(CONFIG.replace(/\n {4}serverEnvironment: \w+/g, ""));
    handle.injectFault({
      method: "GET",
      path: "/v1/environments/me",
      times: 10,
      kind: {
        status: 404,
        body: { statusCode: 404, message: "Cannot GET /v1/environments/me", error: "Not Found" },
      },
    });
    const plan = await cli(["plan", "--env", "production", "--detailed-exitcode", "--output", "json"]);
    expect(plan.code, plan.stderr).toBe(2);
    const actions = JSON.parse(plan.stdout).actions as { id: string; op: string; reason?: string }[];
    expect(actions.find((a) => a.id === "override/order-shipped@tenant-one")).toMatchObject({
      op: "not-applicable",
      reason: DEVELOPMENT_ONLY,
    });
    // The read was tried, and answered 401: that is the only way to know here.
    expect(handle.requests.some((r) => r.path.startsWith("/v1/workflow-overrides") && r.status === 401)).toBe(
      true,
    );
  });
});

describe("a spec-only server (--strict-spec)", () => {
  it("points at every entry that needs an id in this environment's overlay, in one run", async () => {
    const { cli } = await setup(
      `version: 1
organization: Acme Inc
workflows:
  - identifier: order-shipped
    name: Order shipped
  - identifier: weekly-digest
overrides:
  - workflow: order-shipped
    tenant: tenant-one
`,
      { strictSpec: true },
    );
    const result = await cli(["plan"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /notiform\.yaml:4:17 +error +workflow "order-shipped": .*add its id \(id: <24 hex>\)/,
    );
    expect(result.stderr).toMatch(
      /notiform\.yaml:6:17 +error +workflow "weekly-digest": .*this environment's overlay/,
    );
    expect(result.stderr).toMatch(/notiform\.yaml:9:13 +error +override .*add its id \(tenantId: <24 hex>\)/);
  });

  it("uses the state file's recorded resolutions where the server cannot look identifiers up", async () => {
    const { cli, workspace, handle } = await setup(
      `version: 1
organization: Acme Inc
workflows:
  - identifier: order-shipped
    name: Order shipped (v4)
overrides:
  - workflow: order-shipped
    tenant: tenant-one
`,
      { strictSpec: true },
    );
    await workspace.write(
      "notiform.state.json",
      JSON.stringify({
        formatVersion: 1,
        target: { apiUrl: handle.url.replace(/\/+$/, ""), organization: "Acme Inc", environment: null },
        notificationGroups: {},
        workflows: {},
        identifiers: {
          workflows: { "order-shipped": "64f1c0ffee0000000000a001" },
          tenants: { "tenant-one": "650000000000000000000001" },
        },
      }),
    );
    const plan = await cli(["plan", "--output", "json"]);
    expect(plan.code, plan.stderr).toBe(0);
    const requests = JSON.parse(plan.stdout).actions.flatMap((a: { requests: unknown[] }) => a.requests);
    expect(requests).toContainEqual({
      method: "PUT",
      path: "/v1/workflows/64f1c0ffee0000000000a001",
      body: { name: "Order shipped (v4)" },
    });
    expect(requests).toContainEqual(
      expect.objectContaining({
        path: "/v1/workflow-overrides",
        body: expect.objectContaining({ tenantId: "650000000000000000000001" }),
      }),
    );
  });

  it("plans with the ids an environment's overlay gives", async () => {
    const { cli, workspace } = await setup(
      `version: 1
organization: Acme Inc
environments:
  development:
    include: [dev.yaml]
workflows:
  - identifier: order-shipped
    name: Order shipped (v3)
overrides:
  - workflow: order-shipped
    tenant: tenant-one
    active: true
`,
      { strictSpec: true },
    );
    await workspace.write(
      "dev.yaml",
      `workflows:
  - identifier: order-shipped
    id: 64f1c0ffee0000000000a001
overrides:
  - workflow: order-shipped
    tenant: tenant-one
    tenantId: "650000000000000000000001"
`,
    );
    const applied = await cli(["apply", "--env", "development", "--auto-approve"]);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(applied.stdout).toContain("order-shipped@tenant-one");
    const again = await cli(["plan", "--env", "development", "--detailed-exitcode"]);
    expect(again.code, again.stdout).toBe(0);
  });
});
