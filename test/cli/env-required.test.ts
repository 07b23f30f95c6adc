// A config with `environments` has no default one (issue 26): every command that talks to the
// API refuses to run without --env, naming the choices, before it writes anything; validate is
// offline and checks every environment instead. As processes against the emulator over HTTP.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliTest, runCli, startCliTest } from "../support/cli.js";

const CONFIG = `version: 1
organization: Acme Inc
environments:
  development:
    apiKeyEnv: NOTIFORM_KEY_DEVELOPMENT
  production:
    apiKeyEnv: NOTIFORM_KEY_PRODUCTION
topics:
  - key: env-required
    name: Env required
`;

let test: CliTest;
beforeAll(async () => {
  test = await startCliTest({
    config: CONFIG,
    // The default variable is set too: a silent default would reach Development with it.
    env: (keys) => ({
      NOTIFORM_API_KEY: keys.development,
      NOTIFORM_KEY_DEVELOPMENT: keys.development,
      NOTIFORM_KEY_PRODUCTION: keys.production,
    }),
  });
});
afterAll(() => test.close());

const cli = (...args: string[]) => test.cli(...args);

describe("a config with environments, run without --env", () => {
  it.each([
    ["plan"],
    ["apply", "--auto-approve"],
    ["promote", "--auto-approve"],
    ["export", "--dir", "exported"],
    ["whoami"],
  ])("%s refuses, naming the environments, and writes nothing", async (...args) => {
    const { emulator } = test;
    emulator.clearRequests();
    const result = await cli(...args);
    expect(result.code, result.stdout + result.stderr).toBe(1);
    expect(result.stderr).toContain(
      "notiform.yaml defines environments (development, production): choose one with --env",
    );
    expect(result.stderr).toContain("--env development or --env production");
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(emulator.requests.filter((r) => r.method !== "GET")).toEqual([]);
    expect(emulator.store("development").topics.map((t) => t.key)).not.toContain("env-required");
  });

  it("says so as a usage error in --output json", async () => {
    const result = await cli("plan", "--output", "json");
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).error).toMatchObject({ code: "USAGE" });
  });

  it("runs with --env, and validate (offline) checks every environment without one", async () => {
    expect((await cli("plan", "--env", "development")).code).toBe(0);
    const validated = await runCli(["validate"], { cwd: test.workspace.dir });
    expect(validated.code, validated.stderr).toBe(0);
  });
});
