// Hostile input, round 4 (issue 35), item 1: a pull request that edits the config must not be able
// to send the API key somewhere else. The operator's URL (--api-url, NOTIFORM_API_URL) wins, a
// config apiUrl that differs is refused before any request, and apiKeyEnv may name only NOTIFORM_*
// variables. Two emulators: the real API, and the "attacker" the pull request points at.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";
import { ACME_BASE, createWorkspace, runCli } from "../support/cli.js";

let api: EmulatorHandle;
let attacker: EmulatorHandle;
beforeAll(async () => {
  api = await startEmulator({ port: 0, seedFile: "examples/emulator-seed.yaml" });
  attacker = await startEmulator({ port: 0, seedFile: "examples/emulator-seed.yaml" });
});
afterAll(async () => {
  await api.close();
  await attacker.close();
});

const configPointingAt = (url: string, keyVariable = "NOTIFORM_API_KEY") =>
  `${ACME_BASE}environments:\n  ci:\n    apiUrl: ${url}\n    apiKeyEnv: ${keyVariable}\n`;

describe("the operator's API URL wins over the config's (item 1)", () => {
  it.each([
    ["NOTIFORM_API_URL", (url: string) => ({ args: [], env: { NOTIFORM_API_URL: url } })],
    ["--api-url", (url: string) => ({ args: ["--api-url", url], env: {} })],
  ])("a config apiUrl that differs from %s is refused before any request", async (_name, operator) => {
    const workspace = await createWorkspace({ "notiform.yaml": configPointingAt(attacker.url) });
    const before = attacker.requests.length;
    const { args, env } = operator(api.url);
    for (const command of [["plan"], ["apply", "--auto-approve"], ["whoami"], ["export", "--dir", "out"]]) {
      const result = await runCli([...command, "--env", "ci", ...args], {
        cwd: workspace.dir,
        env: { NOTIFORM_API_KEY: api.apiKey, ...env },
      });
      expect(result.code, `${command[0]}: ${result.stderr}`).toBe(1);
      expect(result.stderr).toContain("environments.ci.apiUrl");
      expect(result.stderr).toMatch(/differs from (--api-url|NOTIFORM_API_URL)/);
      expect(result.stderr).not.toMatch(/internal error/);
    }
    expect(attacker.requests.length).toBe(before);
  });

  it("a config apiUrl equal to the operator's (up to a trailing slash) is used", async () => {
    const workspace = await createWorkspace({ "notiform.yaml": configPointingAt(`${api.url}/`) });
    const result = await runCli(["plan", "--env", "ci"], {
      cwd: workspace.dir,
      env: { NOTIFORM_API_KEY: api.apiKey, NOTIFORM_API_URL: api.url },
    });
    expect(result.code, result.stderr).toBe(0);
  });

  it("where the operator sets none, the environment's apiUrl is how environments work", async () => {
    const workspace = await createWorkspace({ "notiform.yaml": configPointingAt(api.url) });
    const result = await runCli(["whoami", "--env", "ci"], {
      cwd: workspace.dir,
      env: { NOTIFORM_API_KEY: api.apiKey },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(api.url);
  });
});

describe("apiKeyEnv names only NOTIFORM_* variables (item 1)", () => {
  it.each(["GITHUB_TOKEN", "ACTIONS_RUNTIME_TOKEN", "AWS_SECRET_ACCESS_KEY", "notiform_key", "NOTIFORM_"])(
    "apiKeyEnv: %s is refused at validate, and plan reads no key from it",
    async (name) => {
      const workspace = await createWorkspace({ "notiform.yaml": configPointingAt(attacker.url, name) });
      const before = attacker.requests.length;
      const validate = await runCli(["validate", "--env", "ci"], { cwd: workspace.dir });
      expect(validate.code).toBe(1);
      expect(validate.stderr).toMatch(
        /notiform\.yaml:\d+:\d+ +error +environments\.ci\.apiKeyEnv: must be a variable named NOTIFORM_/,
      );
      const plan = await runCli(["plan", "--env", "ci"], {
        cwd: workspace.dir,
        env: { [name]: "ghs_secretjobtoken000000000000000000" },
      });
      expect(plan.code).toBe(1);
      expect(plan.stderr).not.toContain("ghs_secret");
      expect(attacker.requests.length).toBe(before);
    },
  );
});
