// `notiform plan` as a process, the way a CI runner behind a corporate proxy runs it against a
// self-hosted server with an internal certificate authority: HTTPS_PROXY set to a CONNECT proxy
// of the test's own, the emulator served over HTTPS with a certificate from a private CA made
// for the test, and that CA given in NODE_EXTRA_CA_CERTS (Node reads it when the process starts,
// hence a process). All on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";
import { ACME_BASE, createWorkspace, runCli, SEED, type Workspace } from "../support/cli.js";
import { type ConnectProxy, startConnectProxy } from "../support/connect-proxy.js";
import { type HttpsFront, makePrivateCa, type PrivateCa, startHttpsFront } from "../support/private-ca.js";

let emulator: EmulatorHandle;
let ca: PrivateCa;
let front: HttpsFront;
let proxy: ConnectProxy;
let workspace: Workspace;

beforeAll(async () => {
  emulator = await startEmulator({ seedFile: SEED, port: 0 });
  ca = await makePrivateCa();
  front = await startHttpsFront(ca, emulator.port);
  proxy = await startConnectProxy({ credentials: "ci-bot:s3cret-proxy-pw" });
  workspace = await createWorkspace({ "notiform.yaml": ACME_BASE });
});
afterAll(async () => {
  await proxy.close();
  await front.close();
  await emulator.close();
  await ca.remove();
});

function plan(env: Record<string, string>, flags = ["--verbose"]) {
  emulator.clearRequests();
  proxy.connects.length = 0;
  return runCli(["plan", ...flags, "--api-url", front.url], {
    cwd: workspace.dir,
    env: { NOTIFORM_API_KEY: emulator.apiKey, ...env },
  });
}

const proxyUrl = () => `http://ci-bot:s3cret-proxy-pw@127.0.0.1:${proxy.port}`;

describe("behind a proxy, with a private certificate authority", () => {
  it("plans through HTTPS_PROXY to an HTTPS server its CA in NODE_EXTRA_CA_CERTS vouches for", async () => {
    const result = await plan({ HTTPS_PROXY: proxyUrl(), NODE_EXTRA_CA_CERTS: ca.caFile });
    expect(result.stderr).not.toContain("Error");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Plan:");
    expect(new Set(proxy.connects)).toEqual(new Set([new URL(front.url).host]));
    expect(emulator.requests.length).toBeGreaterThan(0);
    // --verbose says which proxy, never its credentials.
    expect(result.stderr).toContain(
      `${front.url} through the proxy http://127.0.0.1:${proxy.port} (HTTPS_PROXY)`,
    );
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/s3cret|ci-bot/);
  });

  it("goes straight to a host NO_PROXY lists", async () => {
    const result = await plan({
      https_proxy: proxyUrl(),
      no_proxy: "127.0.0.1",
      NODE_EXTRA_CA_CERTS: ca.caFile,
    });
    expect(result.code).toBe(0);
    expect(proxy.connects).toEqual([]);
    expect(emulator.requests.length).toBeGreaterThan(0);
    expect(result.stderr).toContain(`${front.url} directly: no_proxy lists 127.0.0.1`);
  });

  it("without the CA, names the certificate error and the variable that fixes it", async () => {
    const result = await plan({ HTTPS_PROXY: proxyUrl() }, []);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/the server's certificate is not trusted \([A-Z_]+\)/);
    expect(result.stderr).toContain("NODE_EXTRA_CA_CERTS");
    expect(result.stderr).not.toMatch(/s3cret|ci-bot|\n\s+at /);
    expect(emulator.requests).toEqual([]);
  });
});
