// A key with whitespace or control characters (a trailing newline from a secrets file, a \r,
// inner spaces) is reported at once as malformed, naming the variable and never the value,
// without a single request: not retried and blamed on the network (issue 12 item 8).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACME_BASE, type CliTest, startCliTest } from "../support/cli.js";

let test: CliTest;
beforeAll(async () => {
  test = await startCliTest({ config: ACME_BASE });
});
afterAll(() => test.close());

describe("a malformed API key", () => {
  it.each([
    ["a trailing newline", (key: string) => `${key}\n`, "ends with a line break"],
    ["a trailing \\r\\n", (key: string) => `${key}\r\n`, "ends with a line break"],
    ["a leading space", (key: string) => ` ${key}`, "starts or ends with whitespace"],
    ["an inner space", (key: string) => `${key.slice(0, 4)} ${key.slice(4)}`, "contains whitespace"],
    ["a control character", (key: string) => `${key.slice(0, 4)}\u0007${key.slice(4)}`, "contains control"],
  ])("with %s is refused before any request, naming the variable", async (_name, spoil, reason) => {
    const { emulator } = test;
    emulator.clearRequests();
    const key = spoil(emulator.apiKey);
    const result = await test.run(["plan", "--verbose"], { env: { NOTIFORM_API_KEY: key } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("error: the API key in NOTIFORM_API_KEY is malformed");
    expect(result.stderr).toContain(reason);
    expect(result.stderr).not.toMatch(/attempts|network/i);
    expect(result.stderr + result.stdout).not.toContain(emulator.apiKey);
    expect(emulator.requests).toEqual([]);
  });

  it("names the environment's variable (apiKeyEnv), and a clean key still works", async () => {
    const { emulator, workspace, run } = test;
    await workspace.write(
      "envs/notiform.yaml",
      `${ACME_BASE}environments:\n  dev:\n    apiKeyEnv: NOTIFORM_DEV_KEY\n`,
    );
    const whoami = (key: string) =>
      run(["whoami", "--env", "dev"], { cwd: workspace.path("envs"), env: { NOTIFORM_DEV_KEY: key } });
    const spoilt = await whoami(`${emulator.apiKey}\n`);
    expect(spoilt.stderr).toContain("the API key in NOTIFORM_DEV_KEY is malformed");
    const clean = await whoami(emulator.apiKey);
    expect(clean.code).toBe(0);
  });
});
