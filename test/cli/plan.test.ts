// `notiform plan` as a process against the emulator over HTTP, with and without the observed
// extensions (--strict-spec).
import { describe, expect, it } from "vitest";
import {
  ACME_BASE,
  cliTests,
  createWorkspace,
  runCli,
  TENANT_1,
  WORKFLOW_RESET,
  WORKFLOW_SHIPPED,
} from "../support/cli.js";

const CONFIG = `${ACME_BASE}workflows:
  - key: order-shipped
    id: ${WORKFLOW_SHIPPED}
    name: Order shipped
    notificationGroup: billing
  - key: password-reset
    id: ${WORKFLOW_RESET}
    critical: true
overrides:
  - workflow: order-shipped
    tenant: ${TENANT_1}
    active: true
    preferenceSettings: { sms: false }
`;

const cliTest = cliTests();

function setup(options: { strictSpec?: boolean; config?: string } = {}) {
  return cliTest({ ...options, config: options.config ?? CONFIG });
}

describe.each([
  ["with the observed extensions", false],
  ["on a spec-only server (--strict-spec)", true],
])("notiform plan %s", (_label, strictSpec) => {
  it("plans every resource of the config against an empty server, and exits 2 with --detailed-exitcode", async () => {
    const { cli } = await setup({ strictSpec });
    const result = await cli("plan", "--detailed-exitcode");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(2);
    expect(result.stdout).toContain("+ topic newsletter");
    expect(result.stdout).toContain("+ notification group billing");
    expect(result.stdout).toContain(`+ workflow override order-shipped@${TENANT_1}`);
    expect(result.stdout).toMatch(/Plan: 4 to create, /);
  });

  it("exits 0 with no changes once the server matches", async () => {
    const { cli } = await setup({ strictSpec });
    expect((await cli("apply", "--auto-approve")).code).toBe(0);
    const result = await cli("plan", "--detailed-exitcode");
    expect(result.stdout).toContain("Plan: 0 to create, 0 to update, 0 unverified");
    expect(result.code).toBe(0);
  });

  it("shows drift made directly through the API as a field-level change", async () => {
    const { cli, emulator } = await setup({ strictSpec });
    expect((await cli("apply", "--auto-approve")).code).toBe(0);
    const response = await fetch(`${emulator.url}/v1/topics/newsletter`, {
      method: "PATCH",
      headers: { authorization: `ApiKey ${emulator.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Renamed by hand" }),
    });
    expect(response.status).toBe(200);
    const result = await cli("plan", "--detailed-exitcode");
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('~ topic newsletter\n      name: "Renamed by hand" -> "Newsletter"');
  });

  it("plans a rename in the config as an update, never a create", async () => {
    const { cli, workspace } = await setup({ strictSpec });
    expect((await cli("apply", "--auto-approve")).code).toBe(0);
    await workspace.write("notiform.yaml", CONFIG.replace("name: Billing", "name: Billing and invoices"));
    const result = await cli("plan", "--output", "json");
    const plan = JSON.parse(result.stdout);
    expect(plan.actions).toHaveLength(1);
    expect(plan.actions[0]).toMatchObject({ id: "notificationGroup/billing", op: "update" });
    expect(plan.actions[0].requests[0].method).toBe("PATCH");
  });
});

describe("notiform plan guards and failures", () => {
  it("refuses an organization mismatch before showing any diff", async () => {
    const { cli } = await setup({ config: CONFIG.replace("Acme Inc", "Globex") });
    const result = await cli("plan");
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(
      'the API key reaches organization "Acme Inc", but the config is for "Globex"',
    );
  });

  it("names the variable, not the key, when the key is wrong", async () => {
    const { run } = await setup();
    const result = await run(["plan"], { env: { NOTIFORM_API_KEY: "nf_wrong_key_1234567890" } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("NOTIFORM_API_KEY");
    expect(result.stderr).not.toContain("nf_wrong_key_1234567890");
    expect(result.stderr.trim().split("\n").length).toBeLessThanOrEqual(2);
  });

  it("names the URL when the server cannot be reached", async () => {
    const workspace = await createWorkspace({ "notiform.yaml": CONFIG });
    const result = await runCli(["plan", "--api-url", "http://127.0.0.1:9"], {
      cwd: workspace.dir,
      env: { NOTIFORM_API_KEY: "nf_some_key_1234" },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("http://127.0.0.1:9");
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it("points at the config line and column of a workflow id the server does not have", async () => {
    const { cli } = await setup({ config: CONFIG.replace(WORKFLOW_RESET, "64f1c0ffee00000000000bad") });
    const result = await cli("plan");
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /notiform\.yaml:17:9 +workflow password-reset: no workflow with id 64f1c0ffee00000000000bad/,
    );
    // Workflows can be created (by identifier, with a name): the hint must not say otherwise.
    expect(result.stderr).not.toContain("cannot be created");
    expect(result.stderr).toContain("identifier");
  });

  it("plans an override update as usual on a spec-only server; apply finds the route missing and says so", async () => {
    const { cli, workspace } = await setup({ strictSpec: true });
    expect((await cli("apply", "--auto-approve")).code).toBe(0);
    await workspace.write(
      "notiform.yaml",
      CONFIG.replace("active: true\n    preferenceSettings", "active: false\n    preferenceSettings"),
    );
    // Finding out at plan time would take a PUT, and plan never writes.
    const plan = await cli("plan", "--detailed-exitcode");
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain(`~ workflow override order-shipped@${TENANT_1}`);
    const apply = await cli("apply", "--auto-approve");
    expect(apply.code).toBe(1);
    expect(apply.stdout + apply.stderr).toMatch(/Cannot PUT/);
    expect(apply.stdout + apply.stderr).not.toMatch(/\n\s+at /);
  });

  it("saves the JSON plan with --out and renders markdown for a PR comment", async () => {
    const { cli, workspace } = await setup();
    const result = await cli("plan", "--out", "plan.json", "--output", "markdown", "--commit", "c0ffee42");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("<!-- notiform-plan -->");
    expect(result.stdout).toMatch(/organization \*\*Acme Inc\*\* · .* · commit `c0ffee42`/);
    const saved = JSON.parse(await workspace.read("plan.json"));
    expect(saved.formatVersion).toBe(4);
    expect(saved.target.organization).toBe("Acme Inc");
    expect(saved.summary.create).toBe(4);
  });

  it("prints with --output json exactly the plan --out saves, sealed", async () => {
    const { cli, workspace } = await setup();
    const result = await cli("plan", "--out", "plan.json", "--output", "json");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(await workspace.read("plan.json"));
    expect(JSON.parse(result.stdout).contentDigest).toMatch(/^hmac-sha256:/);
  });
});

describe("notiform plan request economy", () => {
  it("reads 1,002 topics and 300 overrides with only the list requests", async () => {
    const topics = Array.from(
      { length: 1000 },
      (_, i) => `  - key: topic-${String(i).padStart(4, "0")}\n    name: Topic ${i}\n`,
    ).join("");
    const tenants = Array.from(
      { length: 300 },
      (_, i) => `65000000000000000000${(1000 + i).toString(16).padStart(4, "0")}`,
    );
    const overrides = tenants.map((t) => `  - workflow: ${WORKFLOW_SHIPPED}\n    tenant: ${t}\n`).join("");
    const { cli, emulator } = await cliTest({
      seed: { environments: { development: { tenants: tenants.map((_id) => ({ _id })) } } },
      config: `version: 1\norganization: Acme Inc\ntopics:\n${topics}overrides:\n${overrides}`,
    });
    // Make the server match, then count the requests of one plan.
    const applied = await cli("apply", "--auto-approve");
    expect(applied.code, applied.stderr).toBe(0);
    emulator.clearRequests();
    const result = await cli("plan", "--detailed-exitcode");
    expect(result.code).toBe(0);
    const paths = emulator.requests
      .filter((r) => !r.path.startsWith("/__emulator"))
      .map((r) => `${r.method} ${r.path.split("?")[0]}`);
    // 1,000 topics of the config + the 2 the seed already has: 101 pages of 10.
    expect(paths.filter((p) => p === "GET /v1/topics")).toHaveLength(101);
    expect(paths.filter((p) => p === "GET /v1/workflow-overrides")).toHaveLength(3);
    expect(paths.filter((p) => p === "GET /v1/organizations/me")).toHaveLength(1);
    // Which environment the key reaches (a 24-hex tenant is an id: no lookups).
    expect(paths.filter((p) => p === "GET /v1/environments/me")).toHaveLength(1);
    expect(paths).toHaveLength(106);
  });
});
