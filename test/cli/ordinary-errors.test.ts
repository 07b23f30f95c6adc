// Ordinary mistakes get plain errors naming what is wrong, exit 1, never "internal error".
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ACME_BASE, type CliResult, cliTests, createWorkspace, runCli } from "../support/cli.js";

const cliTest = cliTests();
let server: Server | undefined;
afterEach(async () => {
  await new Promise((done) => (server ? server.close(done) : done(undefined)));
  server = undefined;
});

function expectPlainError(result: CliResult, ...phrases: string[]) {
  expect(result.code).toBe(1);
  expect(result.stderr).not.toContain("internal error");
  expect(result.stderr).not.toContain("    at ");
  for (const phrase of phrases) expect(result.stderr).toContain(phrase);
}

describe("ordinary mistakes", () => {
  it("plan --out into a missing directory names the directory, before any API call", async () => {
    const session = await cliTest({ config: ACME_BASE });
    const result = await session.cli("plan", "--out", "no-such-dir/plan.json");
    expectPlainError(result, "cannot save the plan to no-such-dir/plan.json", "does not exist");
    expect(session.emulator.requests).toEqual([]);
  });

  it.each([
    ["a directory", ".", "it is a directory"],
    ["a device", "/dev/full", "it is not a regular file (a device or a pipe)"],
  ])("plan --out naming %s says so in words, before any API call", async (_, out, words) => {
    const session = await cliTest({ config: ACME_BASE });
    const result = await session.cli("plan", "--out", out);
    expectPlainError(result, `cannot save the plan to ${out}: ${words}`, "Nothing was planned");
    expect(session.emulator.requests).toEqual([]);
  });

  it("promote --out into a missing directory names the directory, before any API call", async () => {
    const session = await cliTest({ config: ACME_BASE });
    const result = await session.cli("promote", "--out", "no-such-dir/promotion.json");
    expectPlainError(result, "cannot save the promotion to no-such-dir/promotion.json", "does not exist");
    expect(result.stderr).toContain("Create the directory first");
    expect(session.emulator.requests).toEqual([]);
  });

  it("emulator --port on a busy port says the port is in use", async () => {
    const { emulator, workspace } = await cliTest();
    const result = await runCli(["emulator", "--port", String(emulator.port)], { cwd: workspace.dir });
    expectPlainError(result, `127.0.0.1:${emulator.port}`, "already in use", "--port");
  });

  it("a server answering an HTML page: the URL is named and the base URL hinted", async () => {
    server = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/html" });
      response.end("<!doctype html><html><body>Dashboard</body></html>");
    });
    await new Promise<void>((done) => server?.listen(0, "127.0.0.1", done));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const workspace = await createWorkspace({ "notiform.yaml": ACME_BASE });
    const result = await runCli(["whoami", "--api-url", url], {
      cwd: workspace.dir,
      env: { NOTIFORM_API_KEY: "nf-test-key-123456" },
    });
    expectPlainError(result, `${url} answered with an HTML page`, "base URL", "not a dashboard");
    expect(result.stderr).not.toContain("nf-test-key-123456");
  });

  it("an empty key variable is reported as empty, not unset", async () => {
    const workspace = await createWorkspace({ "notiform.yaml": ACME_BASE });
    const result = await runCli(["plan", "--api-url", "http://127.0.0.1:9"], {
      cwd: workspace.dir,
      env: { NOTIFORM_API_KEY: "" },
    });
    expectPlainError(result, "NOTIFORM_API_KEY is set but empty");
    expect(result.stderr).not.toContain("is not set");
  });
});
