// `notiform apply` as a process against the emulator: fresh and saved plans, refusals, partial
// failure and convergence. After every apply, a re-plan must be empty.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import type { EmulatorHandle } from "../../src/emulator/index.js";
import { applyWay, BOTH_WAYS } from "../support/both-ways.js";
import { ACME_BASE, cliTests, TENANT_1, TENANT_2, WORKFLOW_RESET, WORKFLOW_SHIPPED } from "../support/cli.js";

const CONFIG = `${ACME_BASE}workflows:
  - key: order-shipped
    id: ${WORKFLOW_SHIPPED}
    name: Order shipped
    notificationGroup: billing
    active: true
  - key: password-reset
    id: ${WORKFLOW_RESET}
    critical: true
overrides:
  - workflow: order-shipped
    tenant: ${TENANT_1}
    active: true
    preferenceSettings: { sms: false }
  - workflow: password-reset
    tenant: ${TENANT_2}
`;

const cliTest = cliTests();

function setup(options: { strictSpec?: boolean; config?: string } = {}) {
  return cliTest({ ...options, config: options.config ?? CONFIG });
}

function writes(handle: EmulatorHandle) {
  return handle.requests.filter((r) => r.method !== "GET" && !r.path.startsWith("/__emulator"));
}

describe.each([
  ["with the observed extensions", false],
  ["on a spec-only server", true],
])("notiform apply %s", (_label, strictSpec) => {
  it.each(BOTH_WAYS)(
    "creates everything on an empty server, after which the plan is empty (%s)",
    async (way) => {
      const { cli, workspace } = await setup({ strictSpec });
      const result = await applyWay(cli, way);
      expect(result.stdout).toMatch(/Apply complete: \d+ applied, 0 failed, 0 skipped\./);
      const state = JSON.parse(await workspace.read("notiform.state.json"));
      expect(state.notificationGroups.billing.name).toBe("Billing");
      expect(state.workflows[WORKFLOW_SHIPPED].values.notificationGroup).toBe("billing");
      const again = await cli("plan", "--detailed-exitcode");
      expect(again.stdout).toContain("No changes.");
      expect(again.code).toBe(0);
    },
  );
});

describe("notiform apply", () => {
  it("refuses without a terminal unless --auto-approve, and changes nothing", async () => {
    const { cli, emulator } = await setup();
    const result = await cli("apply");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("refusing to apply without confirmation");
    expect(writes(emulator)).toEqual([]);
  });

  it("says so and exits 0 when there is nothing to change", async () => {
    const { cli } = await setup();
    expect((await cli("apply", "--auto-approve")).code).toBe(0);
    const result = await cli("apply");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("No changes. Nothing to apply.");
  });

  it("applies a saved plan without prompting; the same plan again (a retried job) sends nothing and says so", async () => {
    const { cli, emulator, workspace } = await setup();
    expect((await cli("plan", "--out", "plan.json")).code).toBe(0);
    const actions = (JSON.parse(await workspace.read("plan.json")) as { actions: unknown[] }).actions.length;
    const first = await cli("apply", "plan.json");
    expect(first.code, first.stderr).toBe(0);
    const writesAfterFirst = writes(emulator).length;
    const second = await cli("apply", "plan.json");
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain("Apply complete: 0 applied, 0 failed, 0 skipped.");
    expect(second.stdout).toContain(`${actions} of the plan's actions were already as desired`);
    expect(writes(emulator).length).toBe(writesAfterFirst);
  });

  it("refuses a stale plan and names the topic that moved", async () => {
    const { cli, call, workspace } = await setup();
    expect((await cli("apply", "--auto-approve")).code).toBe(0);
    await workspace.write("notiform.yaml", CONFIG.replace("name: Newsletter", "name: Weekly newsletter"));
    expect((await cli("plan", "--out", "plan.json")).code).toBe(0);
    await call("POST", "/v1/topics", { key: "late-arrival", name: "Late" });
    await call("PATCH", "/v1/topics/newsletter", { name: "Changed meanwhile" });
    const result = await cli("apply", "plan.json");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("topic/newsletter");
    expect(result.stderr).not.toContain("late-arrival");
  });

  it("a saved plan goes stale only for managed fields, and the refusal names the field that moved", async () => {
    const { cli, emulator, workspace } = await setup();
    expect((await cli("apply", "--auto-approve")).code).toBe(0);
    const edited = CONFIG.replace("critical: true", "critical: false");
    await workspace.write("notiform.yaml", edited);
    const dashboard = (id: string, body: unknown) =>
      fetch(`${emulator.url}/v1/workflows/${id}`, {
        method: "PUT",
        headers: { authorization: `ApiKey ${emulator.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });

    // A dashboard edit of the description, which the config does not manage: still applies.
    expect((await cli("plan", "--out", "plan.json")).code).toBe(0);
    expect((await dashboard(WORKFLOW_RESET, { description: "Edited in the dashboard" })).status).toBe(200);
    const applied = await cli("apply", "plan.json");
    expect(applied.code, applied.stderr).toBe(0);

    // An edit of a managed field refuses, naming it (and only it: tags are not managed).
    await workspace.write("notiform.yaml", CONFIG.replace("name: Order shipped", "name: Order shipped v2"));
    expect((await cli("plan", "--out", "plan.json")).code).toBe(0);
    expect((await dashboard(WORKFLOW_SHIPPED, { name: "Meanwhile", tags: ["moved"] })).status).toBe(200);
    const refused = await cli("apply", "plan.json");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("workflow/order-shipped (name changed on the server since the plan)");
  });

  it("says so when only an environment variable changed since the plan, never its value", async () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: ${...} is the config's interpolation syntax, on purpose.
    const config = CONFIG.replace("name: Newsletter", "name: ${NEWSLETTER_NAME}");
    const { workspace, ...session } = await setup({ config });
    const run = (value: string, ...args: string[]) => session.run(args, { env: { NEWSLETTER_NAME: value } });
    expect((await run("Weekly letter", "plan", "--out", "plan.json")).code).toBe(0);
    const env = await run("Daily letter", "apply", "plan.json");
    expect(env.code).toBe(1);
    expect(env.stderr).toContain("an environment variable the config interpolates changed since the plan");
    expect(env.stderr).not.toContain("Daily letter");
    expect(env.stderr).not.toContain("Weekly letter");
    // A change to the files themselves is still "the config changed".
    await workspace.write("notiform.yaml", config.replace("name: Order shipped", "name: Order sent"));
    const files = await run("Weekly letter", "apply", "plan.json");
    expect(files.code).toBe(1);
    expect(files.stderr).toContain("the config changed since the plan was made");
  });

  it("refuses a plan made from another config, or for another target", async () => {
    const { cli, workspace } = await setup();
    expect((await cli("plan", "--out", "plan.json")).code).toBe(0);
    await workspace.write("notiform.yaml", CONFIG.replace("name: Newsletter", "name: Weekly newsletter"));
    const changed = await cli("apply", "plan.json");
    expect(changed.code).toBe(1);
    expect(changed.stderr).toContain("the config changed since the plan was made");
    const plan = JSON.parse(await workspace.read("plan.json"));
    plan.target.organization = "Globex";
    await workspace.write("other.json", JSON.stringify(plan));
    await workspace.write("notiform.yaml", CONFIG);
    const foreign = await cli("apply", "other.json");
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toContain('the plan was made for organization "Globex"');
  });

  it("refuses a truncated plan file with a clear error", async () => {
    const { cli, workspace } = await setup();
    expect((await cli("plan", "--out", "plan.json")).code).toBe(0);
    const text = await workspace.read("plan.json");
    await workspace.write("plan.json", text.slice(0, Math.floor(text.length / 2)));
    const result = await cli("apply", "plan.json");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("is not valid JSON");
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it("refuses a corrupted state file, names it, and leaves it untouched", async () => {
    const { cli, workspace } = await setup();
    expect((await cli("apply", "--auto-approve")).code).toBe(0);
    const state = await workspace.read("notiform.state.json");
    const corrupted = state.slice(0, Math.floor(state.length / 3));
    await workspace.write("notiform.state.json", corrupted);
    for (const command of [["plan"], ["apply", "--auto-approve"]]) {
      const result = await cli(...command);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain("notiform.state.json");
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
    expect(await workspace.read("notiform.state.json")).toBe(corrupted);
  });

  it("stops at the first failure, reports exact counts, exits 3, and a re-run converges", async () => {
    const broken = CONFIG.replace(`tenant: ${TENANT_2}`, "tenant: 65000000000000000000ffff");
    const { cli, workspace } = await setup({ config: broken });
    const result = await cli("apply", "--auto-approve", "--concurrency", "1", "--output", "json");
    const report = JSON.parse(result.stdout);
    expect(report.counts.failed).toBe(1);
    expect(report.counts.applied).toBeGreaterThan(0);
    expect(report.counts.applied + report.counts.failed + report.counts.skipped).toBe(report.results.length);
    const failure = report.results.find((r: { status: string }) => r.status === "failed");
    expect(failure.id).toBe("override/password-reset@65000000000000000000ffff");
    expect(failure.error.message).toContain("404");
    expect(result.code).toBe(3);
    await workspace.write("notiform.yaml", CONFIG);
    expect((await cli("apply", "--auto-approve")).code).toBe(0);
    expect((await cli("plan", "--detailed-exitcode")).code).toBe(0);
  });

  it("prints a --output json result that follows schemas/apply-result.schema.json", async () => {
    const broken = CONFIG.replace(`tenant: ${TENANT_2}`, "tenant: 65000000000000000000ffff");
    const { cli } = await setup({ config: broken });
    const result = await cli("apply", "--auto-approve", "--continue-on-error", "--output", "json");
    const report = JSON.parse(result.stdout);
    const validate = new Ajv2020({ allErrors: true }).compile(
      JSON.parse(
        readFileSync(join(import.meta.dirname, "..", "..", "schemas", "apply-result.schema.json"), "utf8"),
      ),
    );
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(report.counts).toMatchObject({ failed: 1 });
    expect(report.results.find((r: { status: string }) => r.status === "failed").error.code).toBe(
      "API_NOT_FOUND",
    );
  });

  it("exits 1 when the only action fails and nothing was applied", async () => {
    const config = `version: 1\norganization: Acme Inc\noverrides:\n  - workflow: ${WORKFLOW_SHIPPED}\n    tenant: 65000000000000000000ffff\n`;
    const { cli } = await setup({ config });
    const result = await cli("apply", "--auto-approve");
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("0 applied, 1 failed");
  });

  it("plans a Production key's Development-only changes as not applicable instead of failing at apply", async () => {
    // Production holds other ids: its workflows are named here by trigger identifier.
    const { run, emulator } = await setup({
      config: CONFIG.replace(`id: ${WORKFLOW_SHIPPED}`, "identifier: order-shipped").replace(
        `id: ${WORKFLOW_RESET}`,
        "identifier: password-reset",
      ),
    });
    const result = await run(["apply", "--auto-approve"], {
      env: { NOTIFORM_API_KEY: emulator.productionApiKey },
    });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain(
      "Development-only: overrides are written with a Development key and never promoted",
    );
    expect(writes(emulator).filter((r) => r.path.includes("status") || r.path.includes("overrides"))).toEqual(
      [],
    );
  });
});
