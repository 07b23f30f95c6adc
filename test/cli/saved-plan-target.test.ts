// A saved plan carries its target (issue 26): the API URL, the organization (name and id), the
// --env name and the server environment. `apply plan.json` against any other is refused with
// PLAN_TARGET_MISMATCH before any write; what the flags, config and key decide (another URL,
// another --env) before any request at all. Older plans (format 2, without the organization id)
// are refused. As processes against the emulator over HTTP.
import { readFile, rename } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";
import { PLAN_FORMAT_VERSION } from "../../src/plan/model.js";
import { validatorOf } from "../../src/schemas.js";
import { cliTests, SEED } from "../support/cli.js";

const CONFIG = `version: 1
organization: Acme Inc
environments:
  development:
    apiKeyEnv: NOTIFORM_KEY_DEVELOPMENT
  production:
    apiKeyEnv: NOTIFORM_KEY_PRODUCTION
topics:
  - key: carried-target
    name: Carried target
`;

const cliTest = cliTests();

/** The config against a fresh emulator; `cli` may aim at another URL. */
async function start() {
  const test = await cliTest({
    config: CONFIG,
    env: (keys) => ({ NOTIFORM_KEY_DEVELOPMENT: keys.development, NOTIFORM_KEY_PRODUCTION: keys.production }),
  });
  const cli = (args: string[], url?: string) => test.run(args, url === undefined ? {} : { url });
  return { ...test, cli };
}

/** A server replacing another at its port (the caller closes it). */
const replacements: EmulatorHandle[] = [];
afterEach(async () => {
  await Promise.all(replacements.splice(0).map((e) => e.close()));
});

const writes = (emulator: EmulatorHandle) => emulator.requests.filter((r) => r.method !== "GET");
const errorOf = (stdout: string) =>
  (JSON.parse(stdout) as { error: { code: string; message: string } }).error;

describe("a saved plan's target", () => {
  it("is recorded whole: API URL, organization name and id, --env, server environment", async () => {
    const { emulator, workspace, cli } = await start();
    const saved = await cli(["plan", "--env", "development", "--out", "plan.json"]);
    expect(saved.code, saved.stderr).toBe(0);
    const plan = JSON.parse(await readFile(workspace.path("plan.json"), "utf8"));
    expect(plan.formatVersion).toBe(4);
    expect(plan.target).toEqual({
      apiUrl: emulator.url.replace(/\/+$/, ""),
      organization: "Acme Inc",
      organizationId: "64f1000000000000000000aa",
      environment: "development",
      serverEnvironment: { id: emulator.store("development").environmentId, name: "Development" },
    });
    const validate = validatorOf("plan");
    expect(validate(plan), JSON.stringify(validate.errors)).toBe(true);
  });

  it("is applied beside the config it was made from: without its --config, the hint says so", async () => {
    const { emulator, cli, workspace } = await start();
    await workspace.write("cfg/.keep", "");
    await rename(workspace.path("notiform.yaml"), workspace.path("cfg/notiform.yaml"));
    const planned = await cli([
      "plan",
      "--config",
      "cfg/notiform.yaml",
      "--env",
      "development",
      "--out",
      "plan.json",
    ]);
    expect(planned.code, planned.stderr).toBe(0);
    emulator.clearRequests();
    const bare = await cli(["apply", "plan.json", "--env", "development", "--output", "json"]);
    expect(bare.code).toBe(1);
    expect(JSON.parse(bare.stdout).error).toMatchObject({
      code: "CONFIG_NOT_FOUND",
      message: "config file notiform.yaml not found",
      hint: expect.stringContaining("pass the same --config (and --env) as the plan"),
    });
    expect(emulator.requests).toEqual([]);
    const applied = await cli([
      "apply",
      "plan.json",
      "--config",
      "cfg/notiform.yaml",
      "--env",
      "development",
    ]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(emulator.store().topics.map((t) => t.key)).toContain("carried-target");
  });

  it("refuses another --env before any request", async () => {
    const { emulator, cli } = await start();
    expect((await cli(["plan", "--env", "development", "--out", "plan.json"])).code).toBe(0);
    emulator.clearRequests();
    const other = await cli(["apply", "plan.json", "--env", "production", "--output", "json"]);
    expect(other.code).toBe(1);
    expect(errorOf(other.stdout)).toMatchObject({
      code: "PLAN_TARGET_MISMATCH",
      message: "the plan was made for environment development, not production; nothing was applied",
    });
    expect(emulator.requests).toEqual([]);
  });

  it("refuses another API URL (the same organization and key served elsewhere) before any request", async () => {
    const { emulator: first, cli } = await start();
    const { emulator: second } = await start();
    expect((await cli(["plan", "--env", "development", "--out", "plan.json"])).code).toBe(0);
    first.clearRequests();
    const other = await cli(["apply", "plan.json", "--env", "development", "--output", "json"], second.url);
    expect(other.code).toBe(1);
    expect(errorOf(other.stdout).code).toBe("PLAN_TARGET_MISMATCH");
    expect(errorOf(other.stdout).message).toContain(`API URL ${first.url.replace(/\/+$/, "")}, not`);
    expect(first.requests).toEqual([]);
    expect(second.requests).toEqual([]);
  });

  it("refuses another organization of the same name at the same URL, before any write", async () => {
    const { emulator: first, cli } = await start();
    expect((await cli(["plan", "--env", "development", "--out", "plan.json"])).code).toBe(0);
    // The server at that address is replaced by another organization called Acme Inc.
    const port = first.port;
    await first.close();
    const other = await startEmulator({
      seedFile: SEED,
      port,
      seed: { organization: { _id: "64f1000000000000000000bb", name: "Acme Inc" } },
    });
    replacements.push(other);
    const refused = await cli(["apply", "plan.json", "--env", "development", "--output", "json"]);
    expect(refused.code).toBe(1);
    expect(errorOf(refused.stdout)).toMatchObject({ code: "PLAN_TARGET_MISMATCH" });
    expect(errorOf(refused.stdout).message).toContain(
      "organization id 64f1000000000000000000aa, not 64f1000000000000000000bb (another organization of the same name)",
    );
    expect(writes(other)).toEqual([]);
    expect(other.store("development").topics.map((t) => t.key)).not.toContain("carried-target");
  });

  it("refuses a plan of the previous format (no organization id), saying which version", async () => {
    const { emulator, workspace, cli } = await start();
    expect((await cli(["plan", "--env", "development", "--out", "plan.json"])).code).toBe(0);
    const plan = JSON.parse(await readFile(workspace.path("plan.json"), "utf8"));
    const { organizationId: _id, serverEnvironment: _env, ...older } = plan.target;
    await workspace.write("old.json", JSON.stringify({ ...plan, formatVersion: 2, target: older }));
    emulator.clearRequests();
    const refused = await cli(["apply", "old.json", "--env", "development"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `has format version 2; this notiform applies version ${PLAN_FORMAT_VERSION}`,
    );
    expect(emulator.requests).toEqual([]);
    // The plan as made applies.
    const applied = await cli(["apply", "plan.json", "--env", "development"]);
    expect(applied.code, applied.stderr).toBe(0);
  });
});
