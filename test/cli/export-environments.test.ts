// `export` records where it read (issue 33 item 7): the next run without --api-url goes to the
// same server (the state file's URL is the default when the operator names none), and a config
// with two environments is built explicitly, one `export --env NAME` each, against the emulator's
// Development and Production: each environment's own topics and tenants in env/NAME/, the shared
// base written once, each with its state file; both then plan to zero creates, and a state file
// left from an export without --env is named, never silently ignored.
import { rename } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { DesiredState } from "../../src/config/model.js";
import { startEmulator } from "../../src/emulator/index.js";
import type { SessionArgs } from "../../src/pipeline/session.js";
import { resolveApiUrl } from "../../src/pipeline/session.js";
import { cliTests, SEED } from "../support/cli.js";

const cliTest = cliTests();

/**
 * In-process first: a run without --api-url that would not resolve to the emulator must fail
 * here, before any CLI is spawned, so no request ever leaves for the hosted default.
 */
function expectRecordedUrl(
  rootFile: string,
  environment: string | undefined,
  url: string,
  key: string,
): void {
  const args = { config: rootFile, concurrency: 1, "insecure-http": false } as SessionArgs;
  const desired = { rootFile, apiKeyEnv: "NOTIFORM_API_KEY", ...(environment ? { environment } : {}) };
  // The recorded URL is used only when its seal verifies under the run's key.
  expect(resolveApiUrl(args, desired as DesiredState, { NOTIFORM_API_KEY: key })).toBe(url);
}

/** The emulator and an empty folder; each run names its key and its URL (none: the recorded one). */
async function twoEnvironments() {
  const { emulator, workspace, run } = await cliTest({ env: () => ({}) });
  const development = { NOTIFORM_API_KEY: emulator.apiKey };
  const production = { NOTIFORM_API_KEY: emulator.productionApiKey ?? "" };
  const cli = (env: Record<string, string>, ...args: string[]) => run(args, { env, url: null });
  return { url: emulator.url, workspace, development, production, cli };
}

describe("export records the API URL it read", () => {
  it("the next plan without --api-url goes to the same server and plans to zero", async () => {
    const { url, workspace, development, cli } = await twoEnvironments();
    const exported = await cli(development, "export", "--dir", "cfg", "--api-url", url);
    expect(exported.code, exported.stderr).toBe(0);
    expectRecordedUrl(workspace.path("cfg/notiform.yaml"), undefined, url, development.NOTIFORM_API_KEY);
    const plan = await cli(development, "plan", "--config", "cfg/notiform.yaml");
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain(`Target: ${url} `);
    expect(plan.stdout).toContain("No changes.");
    // The operator's URL still wins over the recorded one.
    const other = await startEmulator({ seedFile: SEED, port: 0 });
    try {
      const elsewhere = await cli(
        { ...development, NOTIFORM_API_URL: other.url },
        "whoami",
        "--config",
        "cfg/notiform.yaml",
      );
      expect(elsewhere.code, elsewhere.stderr).toBe(0);
      expect(elsewhere.stdout).toContain(other.url);
      expect(other.requests.length).toBeGreaterThan(0);
    } finally {
      await other.close();
    }
    expect(JSON.parse(await workspace.read("cfg/notiform.state.json")).target.apiUrl).toBe(url);
  });
});

describe("export --env NAME", () => {
  it("builds a two-environment config that plans each environment without creating the other's", async () => {
    const { url, workspace, development, production, cli } = await twoEnvironments();
    const dev = await cli(development, "export", "--dir", "cfg", "--env", "development", "--api-url", url);
    expect(dev.code, dev.stderr).toBe(0);
    const prod = await cli(production, "export", "--dir", "cfg", "--env", "production", "--api-url", url);
    expect(prod.code, prod.stderr).toBe(0);
    expect(prod.stderr).toContain("production receives it by promotion");

    const root = parse(await workspace.read("cfg/notiform.yaml"));
    expect(root.environments).toEqual({
      development: { serverEnvironment: "Development", include: ["env/development/*.yaml"] },
      production: { serverEnvironment: "Production", include: ["env/production/*.yaml"] },
    });
    expect(root.serverEnvironment).toBeUndefined();
    expect(root.include).toEqual(["notification-groups.yaml", "layouts.yaml", "workflows.yaml"]);
    // Each environment's own entries in its own files, never in the base.
    expect(
      parse(await workspace.read("cfg/env/development/topics.yaml")).topics.map(
        (t: { key: string }) => t.key,
      ),
    ).toEqual(["existing-announcements", "legacy-alerts"]);
    expect(
      parse(await workspace.read("cfg/env/production/tenants.yaml")).tenants.map(
        (t: { identifier: string }) => t.identifier,
      ),
    ).toEqual(["production-tenant-one", "production-tenant-two"]);
    for (const name of ["development", "production"]) {
      const state = JSON.parse(await workspace.read(`cfg/notiform.${name}.state.json`));
      expect(state.target).toEqual({
        apiUrl: url,
        apiUrlSeal: expect.stringMatching(/^hmac-sha256:[0-9a-f]{64}$/),
        environment: name,
        organization: "Acme Inc",
      });
    }

    const validated = await cli({}, "validate", "--config", "cfg/notiform.yaml");
    expect(validated.code, validated.stderr).toBe(0);
    // No --api-url: each environment's state file says where it is.
    expectRecordedUrl(workspace.path("cfg/notiform.yaml"), "development", url, development.NOTIFORM_API_KEY);
    expectRecordedUrl(workspace.path("cfg/notiform.yaml"), "production", url, production.NOTIFORM_API_KEY);
    const planDev = await cli(development, "plan", "--config", "cfg/notiform.yaml", "--env", "development");
    expect(planDev.code, planDev.stderr).toBe(0);
    expect(planDev.stdout).toContain("No changes.");
    const planProd = await cli(
      production,
      "plan",
      "--config",
      "cfg/notiform.yaml",
      "--env",
      "production",
      "--output",
      "json",
    );
    expect(planProd.code, planProd.stderr).toBe(0);
    const summary = JSON.parse(planProd.stdout).summary;
    expect(summary.create).toBe(0);
    expect(summary.update).toBe(0);
  });

  it("refuses to add an environment to a config exported without environments", async () => {
    const { url, development, production, cli } = await twoEnvironments();
    expect((await cli(development, "export", "--dir", "cfg", "--api-url", url)).code).toBe(0);
    const second = await cli(production, "export", "--dir", "cfg", "--env", "production", "--api-url", url);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain("cfg/notiform.yaml has no environments");
  });

  it("names the exported state file a run with --env does not read", async () => {
    const { url, workspace, development, cli } = await twoEnvironments();
    expect(
      (await cli(development, "export", "--dir", "cfg", "--env", "development", "--api-url", url)).code,
    ).toBe(0);
    await rename(
      workspace.path("cfg/notiform.development.state.json"),
      workspace.path("cfg/notiform.state.json"),
    );
    const plan = await cli(
      development,
      "plan",
      "--config",
      "cfg/notiform.yaml",
      "--env",
      "development",
      "--api-url",
      url,
    );
    expect(plan.stderr).toContain(
      "warning: cfg/notiform.state.json is not read with --env development: this environment's state file is cfg/notiform.development.state.json",
    );
  });
});
