// A key with whitespace or control characters (a trailing newline from a secrets file, a \r,
// inner spaces) is reported at once as malformed, naming the variable and never the value,
// without a single request: not retried and blamed on the network (issue 12 item 8).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";
import { ACME_BASE, createWorkspace, runCli, SEED, type Workspace } from "../support/cli.js";

let emulator: EmulatorHandle;
let workspace: Workspace;

beforeAll(async () => {
  emulator = await startEmulator({ seedFile: SEED, port: 0 });
  workspace = await createWorkspace({ "notiform.yaml": ACME_BASE });
});

afterAll(async () => {
  await emulator?.close();
});

describe("a malformed API key", () => {
  it.each([
    ["a trailing newline", (key: string) => `${key}\n`, "ends with a line break"],
    ["a trailing \\r\\n", (key: string) => `${key}\r\n`, "ends with a line break"],
    ["a leading space", (key: string) => ` ${key}`, "starts or ends with whitespace"],
    ["an inner space", (key: string) => `${key.slice(0, 4)} ${key.slice(4)}`, "contains whitespace"],
    ["a control character", (key: string) => `${key.slice(0, 4)}\u0007${key.slice(4)}`, "contains control"],
  ])("with %s is refused before any request, naming the variable", async (_name, spoil, reason) => {
    emulator.clearRequests();
    const key = spoil(emulator.apiKey);
    const result = await runCli(["plan", "--api-url", emulator.url, "--verbose"], {
      cwd: workspace.dir,
      env: { NOTIFORM_API_KEY: key },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("error: the API key in NOTIFORM_API_KEY is malformed");
    expect(result.stderr).toContain(reason);
    expect(result.stderr).not.toMatch(/attempts|network/i);
    expect(result.stderr + result.stdout).not.toContain(emulator.apiKey);
    expect(emulator.requests).toEqual([]);
  });

  it("names the environment's variable (apiKeyEnv), and a clean key still works", async () => {
    const ws = await createWorkspace({
      "notiform.yaml": `${ACME_BASE}environments:\n  dev:\n    apiKeyEnv: DEV_KEY\n`,
    });
    const spoilt = await runCli(["whoami", "--env", "dev", "--api-url", emulator.url], {
      cwd: ws.dir,
      env: { DEV_KEY: `${emulator.apiKey}\n` },
    });
    expect(spoilt.stderr).toContain("the API key in DEV_KEY is malformed");
    const clean = await runCli(["whoami", "--env", "dev", "--api-url", emulator.url], {
      cwd: ws.dir,
      env: { DEV_KEY: emulator.apiKey },
    });
    expect(clean.code).toBe(0);
  });
});
