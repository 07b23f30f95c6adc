// Hostile input, round 4 (issue 35), item 1, the state file's part: where neither the operator
// (--api-url, NOTIFORM_API_URL) nor the config names a URL, the run goes where the state file
// says (target.apiUrl, written by export). The file is committed, so a pull request can edit it:
// the recorded URL is used only when its seal (a keyed digest under the API key) verifies under
// the key this run holds. An edited URL, a seal made with another key, or no seal at all (a file
// from before the seal) is refused before any request: the emulator and the URL the "pull
// request" names (a loopback listener of this test's own) receive nothing.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DesiredState } from "../../src/config/model.js";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";
import { NotiformError } from "../../src/errors.js";
import { DEFAULT_API_URL, resolveApiUrl, type SessionArgs } from "../../src/pipeline/session.js";
import { createWorkspace, runCli, SEED, type Workspace } from "../support/cli.js";

let api: EmulatorHandle;
let attacker: { url: string; contacts: number; server: Server };
beforeAll(async () => {
  api = await startEmulator({ port: 0, seedFile: SEED });
  const server = createServer((request, response) => {
    attacker.contacts += 1;
    request.resume();
    response.writeHead(401).end();
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  attacker = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, contacts: 0, server };
});
afterAll(async () => {
  await api.close();
  await new Promise((done) => attacker.server.close(done));
});

/** A repository bootstrapped by `export` against the emulator: cfg/notiform.yaml and its state file. */
async function exported(): Promise<Workspace> {
  const workspace = await createWorkspace();
  const result = await runCli(["export", "--dir", "cfg", "--api-url", api.url], {
    cwd: workspace.dir,
    env: { NOTIFORM_API_KEY: api.apiKey },
  });
  expect(result.code, result.stderr).toBe(0);
  return workspace;
}

async function editTarget(workspace: Workspace, edit: (target: Record<string, unknown>) => void) {
  const state = JSON.parse(await workspace.read("cfg/notiform.state.json"));
  edit(state.target);
  await workspace.write("cfg/notiform.state.json", `${JSON.stringify(state, null, 2)}\n`);
}

/** The URL decision in-process: it throws before any client exists, so nothing can be sent. */
function decide(workspace: Workspace, key: string): string {
  const rootFile = workspace.path("cfg/notiform.yaml");
  const args = { config: rootFile, concurrency: 1, "insecure-http": false } as SessionArgs;
  const desired = { rootFile, apiKeyEnv: "NOTIFORM_API_KEY" } as DesiredState;
  return resolveApiUrl(args, desired, { NOTIFORM_API_KEY: key });
}

function refusal(workspace: Workspace, key: string): NotiformError {
  try {
    decide(workspace, key);
  } catch (error) {
    if (error instanceof NotiformError) return error;
    throw error;
  }
  throw new Error("the recorded URL was used");
}

/** plan, apply and whoami, each refused with exit 1 before any request reaches either server. */
async function expectRefusedEverywhere(workspace: Workspace, key: string) {
  const before = { api: api.requests.length, attacker: attacker.contacts };
  for (const command of [["plan"], ["apply", "--auto-approve"], ["whoami"]]) {
    const result = await runCli([...command, "--config", "cfg/notiform.yaml", "--output", "json"], {
      cwd: workspace.dir,
      env: { NOTIFORM_API_KEY: key },
    });
    expect(result.code, `${command[0]}: ${result.stderr}`).toBe(1);
    const error = JSON.parse(result.stdout).error;
    expect(error.code).toBe("API_URL_UNSEALED");
    expect(error.message).toContain("notiform.state.json");
    expect(error.hint).toMatch(/NOTIFORM_API_URL.*--api-url/);
    expect(result.stdout + result.stderr).not.toContain(key);
  }
  expect(api.requests.length).toBe(before.api);
  expect(attacker.contacts).toBe(before.attacker);
}

describe("the state file's API URL is sealed under the key (item 1)", () => {
  it("export seals the URL it records; a run without an operator URL uses it", async () => {
    const workspace = await exported();
    const text = await workspace.read("cfg/notiform.state.json");
    const target = JSON.parse(text).target;
    expect(target.apiUrl).toBe(api.url);
    expect(target.apiUrlSeal).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
    // A keyed digest: neither the key nor any unkeyed digest of it is in the file.
    expect(text).not.toContain(api.apiKey);
    expect(decide(workspace, api.apiKey)).toBe(api.url);
    const plan = await runCli(["plan", "--config", "cfg/notiform.yaml"], {
      cwd: workspace.dir,
      env: { NOTIFORM_API_KEY: api.apiKey },
    });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain(`Target: ${api.url} `);
  });

  it("a pull request that points the state file at its own URL is refused, nothing sent", async () => {
    const workspace = await exported();
    await editTarget(workspace, (target) => {
      target.apiUrl = attacker.url;
    });
    expect(refusal(workspace, api.apiKey).code).toBe("API_URL_UNSEALED");
    await expectRefusedEverywhere(workspace, api.apiKey);
  });

  it("a seal made with another key does not verify", async () => {
    const workspace = await exported();
    expect(refusal(workspace, api.productionApiKey ?? "other-key").code).toBe("API_URL_UNSEALED");
    await expectRefusedEverywhere(workspace, api.productionApiKey ?? "other-key");
  });

  it("a state file from before the seal is refused until the URL is set, then sealed again", async () => {
    const workspace = await exported();
    await editTarget(workspace, (target) => {
      delete target.apiUrlSeal;
    });
    const error = refusal(workspace, api.apiKey);
    expect(error.code).toBe("API_URL_UNSEALED");
    expect(error.message).toContain("without a seal");
    await expectRefusedEverywhere(workspace, api.apiKey);
    // The operator's URL is used; re-running export records the seal again.
    const withUrl = await runCli(["plan", "--config", "cfg/notiform.yaml"], {
      cwd: workspace.dir,
      env: { NOTIFORM_API_KEY: api.apiKey, NOTIFORM_API_URL: api.url },
    });
    expect(withUrl.code, withUrl.stderr).toBe(0);
    const again = await runCli(["export", "--dir", "cfg", "--force", "--api-url", api.url], {
      cwd: workspace.dir,
      env: { NOTIFORM_API_KEY: api.apiKey },
    });
    expect(again.code, again.stderr).toBe(0);
    expect(decide(workspace, api.apiKey)).toBe(api.url);
  });

  it("an apply through the operator's URL seals a file that has no seal", async () => {
    const workspace = await exported();
    await editTarget(workspace, (target) => {
      delete target.apiUrlSeal;
    });
    // A change to apply: the state file is written only when something is.
    const workflows = await workspace.read("cfg/workflows.yaml");
    await workspace.write(
      "cfg/workflows.yaml",
      workflows.replace("name: Order shipped", "name: Order shipped!"),
    );
    const apply = await runCli(["apply", "--auto-approve", "--config", "cfg/notiform.yaml"], {
      cwd: workspace.dir,
      env: { NOTIFORM_API_KEY: api.apiKey, NOTIFORM_API_URL: api.url },
    });
    expect(apply.code, apply.stderr).toBe(0);
    expect(decide(workspace, api.apiKey)).toBe(api.url);
  });

  it("a file recording the hosted default needs no seal: the key goes there without one", async () => {
    const workspace = await exported();
    await editTarget(workspace, (target) => {
      target.apiUrl = `${DEFAULT_API_URL}/`;
      delete target.apiUrlSeal;
    });
    // In-process only: no request is ever sent to a non-loopback address.
    expect(decide(workspace, api.apiKey)).toBe(DEFAULT_API_URL);
  });
});
