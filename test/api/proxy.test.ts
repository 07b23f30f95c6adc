// The client through a proxy and over TLS, for real, on loopback: the emulator reached through
// a CONNECT proxy of the test's own (test/helpers/connect-proxy.ts) as HTTP_PROXY sets it,
// NO_PROXY's bypass, the proxy's own refusals (407, a failed CONNECT, the proxy down) named as
// the proxy's, and a server whose certificate no known authority signed, named as a
// certificate error with the NODE_EXTRA_CA_CERTS hint. (The private CA trusted through
// NODE_EXTRA_CA_CERTS, read at process start, is tested on the spawned CLI: test/cli/proxy-and-ca.test.ts.)
import { createServer, type Socket } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ClientLogEvent, ClientOptions } from "../../src/api/index.js";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";
import { type ApiClient, createClient } from "../../src/kinds/client.js";
import { type ConnectProxy, startConnectProxy } from "../support/connect-proxy.js";
import { makePrivateCa, type PrivateCa, startHttpsFront } from "../support/private-ca.js";
import { failure } from "./helpers/harness.js";

let emulator: EmulatorHandle;
const opened: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ seedFile: "examples/emulator-seed.yaml", port: 0 });
});
afterAll(() => emulator.close());
afterEach(async () => {
  await Promise.all(opened.splice(0).map((it) => it.close()));
  emulator.clearRequests();
});

async function proxy(options: { credentials?: string } = {}): Promise<ConnectProxy> {
  const started = await startConnectProxy(options);
  opened.push(started);
  return started;
}

function client(env: Record<string, string>, options: Partial<ClientOptions> = {}) {
  const events: ClientLogEvent[] = [];
  const made: ApiClient = createClient({
    baseUrl: emulator.url,
    apiKey: emulator.apiKey,
    env,
    retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1 },
    log: (event) => events.push(event),
    ...options,
  });
  opened.push(made);
  return { client: made, events };
}

const target = () => new URL(emulator.url).host;

describe("through a CONNECT proxy", () => {
  it("HTTP_PROXY sends every request through the proxy's tunnel, and the log names the proxy", async () => {
    const via = await proxy();
    const { client: api, events } = client({ HTTP_PROXY: via.url });
    const organization = await api.getCurrentOrganization();
    await api.listAllTopics();
    expect(organization.name).toBe("Acme Inc");
    expect(via.connects.length).toBeGreaterThan(0);
    expect(new Set(via.connects)).toEqual(new Set([target()]));
    expect(events[0]).toEqual({
      type: "route",
      origin: emulator.url,
      proxy: via.url,
      variable: "HTTP_PROXY",
    });
  });

  it("the proxy's credentials from its URL are sent to the proxy, and shown nowhere", async () => {
    const via = await proxy({ credentials: "ci-bot:p@ss word" });
    const url = `http://ci-bot:p%40ss%20word@127.0.0.1:${via.port}`;
    const { client: api, events } = client({ http_proxy: url });
    await api.getCurrentOrganization();
    expect(via.authorizations[0]).toBe(`Basic ${Buffer.from("ci-bot:p@ss word").toString("base64")}`);
    const logged = JSON.stringify(events);
    expect(logged).toContain(`http://127.0.0.1:${via.port}`);
    expect(logged).not.toContain("p%40ss");
    expect(logged).not.toContain("ci-bot");
    // Only the proxy sees them: the API's request carries no Proxy-Authorization.
    expect(emulator.requests.length).toBeGreaterThan(0);
  });

  it("NO_PROXY listing the API's host sends the requests directly, and the log says why", async () => {
    const via = await proxy();
    const { client: api, events } = client({ HTTP_PROXY: via.url, NO_PROXY: "localhost,127.0.0.1" });
    await api.getCurrentOrganization();
    expect(via.connects).toEqual([]);
    expect(emulator.requests).toHaveLength(1);
    expect(events[0]).toEqual({
      type: "route",
      origin: emulator.url,
      noProxy: "127.0.0.1",
      variable: "NO_PROXY",
    });
  });

  it("a proxy answering 407 is named as the proxy asking for credentials, without retrying", async () => {
    const via = await proxy({ credentials: "user:right" });
    const { client: api } = client({ HTTP_PROXY: `http://user:wrong@127.0.0.1:${via.port}` });
    const error = await failure(api.createTopic({ key: "t-407", name: "T" }));
    expect(error).toMatchObject({ code: "NETWORK", attempts: 1, mayHaveBeenApplied: false });
    expect(error.message).toContain(
      `the proxy http://127.0.0.1:${via.port} asked for credentials (407 Proxy Authentication Required) and refused the ones given`,
    );
    expect(error.message).not.toContain("wrong");
    expect(error.hint).toContain("HTTP_PROXY");
    expect(via.connects).toHaveLength(1);
    expect(emulator.requests).toEqual([]);
  });

  it("a CONNECT the proxy cannot open (nothing listens there) is the proxy's refusal, and nothing was sent", async () => {
    const via = await proxy();
    const closed = await startConnectProxy();
    await closed.close();
    const api = createClient({
      baseUrl: `http://127.0.0.1:${closed.port}`,
      apiKey: emulator.apiKey,
      env: { HTTP_PROXY: via.url },
      retry: { maxAttempts: 1 },
    });
    opened.push(api);
    const error = await failure(api.createTopic({ key: "t-502", name: "T" }));
    expect(error).toMatchObject({ code: "NETWORK", mayHaveBeenApplied: false });
    expect(error.message).toContain(
      `the proxy ${via.url} refused to open a connection to the API (CONNECT answered 502)`,
    );
  });

  it("a proxy that is down is named, not the API", async () => {
    const down = await startConnectProxy();
    await down.close();
    const { client: api } = client({ HTTP_PROXY: down.url }, { retry: { maxAttempts: 1 } });
    const error = await failure(api.getCurrentOrganization());
    expect(error).toMatchObject({ code: "NETWORK" });
    expect(error.message).toContain(`could not reach the proxy ${down.url}: connection refused`);
    expect(error.hint).toMatch(/HTTP_PROXY.*NO_PROXY/);
  });
});

/** A proxy of the test's own that takes connections and fails every CONNECT: closing, or silent. */
async function failingProxy(mode: "close" | "silent"): Promise<{ url: string; connections: () => number }> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on("error", () => undefined);
    if (mode === "close") socket.once("data", () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  opened.push({
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  });
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, connections: () => connections };
}

describe("a proxy that fails the CONNECT itself", () => {
  it("closing the connection: named as the proxy's, nothing sent, retried a bounded number of times", async () => {
    const via = await failingProxy("close");
    const { client: api } = client({ HTTP_PROXY: via.url });
    // undici took the proxy's close for a passing socket error and opened tunnel after tunnel,
    // thousands a second, without end.
    const error = await failure(api.createTopic({ key: "t-closing", name: "T" }));
    expect(error).toMatchObject({ code: "NETWORK", attempts: 3, mayHaveBeenApplied: false });
    expect(error.message).toContain(
      `the proxy ${via.url} did not open a connection to the API (it closed the connection)`,
    );
    expect(via.connections()).toBe(3);
    expect(emulator.requests).toEqual([]);
  });

  it("never answering: fails within the connect timeout, not undici's 300 s, and nothing was sent", async () => {
    const via = await failingProxy("silent");
    const { client: api } = client(
      { HTTP_PROXY: via.url },
      {
        retry: { maxAttempts: 1 },
        timeouts: { connectMs: 300, headersMs: 300, bodyMs: 300, totalMs: 60_000 },
      },
    );
    const error = await failure(api.createTopic({ key: "t-silent", name: "T" }));
    expect(error).toMatchObject({ code: "NETWORK", mayHaveBeenApplied: false });
    expect(error.message).toContain(
      `the proxy ${via.url} did not open a connection to the API (no answer to CONNECT in time)`,
    );
  });

  it("an interrupt while the tunnel is being opened ends the call at once, unsent", async () => {
    const via = await failingProxy("silent");
    const { client: api } = client({ HTTP_PROXY: via.url }, { retry: { maxAttempts: 1 } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const error = await failure(
      api.createTopic({ key: "t-abort", name: "T" }, { signal: controller.signal }),
    );
    expect(error).toMatchObject({ code: "INTERRUPTED" });
    // The default connect timeout is 10 s: ended by the interrupt, not by it.
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("a proxy URL with only a user name sends no credentials, and a 407 does not say they were refused", async () => {
    const via = await proxy({ credentials: "user:right" });
    const { client: api } = client({ HTTP_PROXY: `http://token@127.0.0.1:${via.port}` });
    const error = await failure(api.getCurrentOrganization());
    expect(error.message).toContain("(407 Proxy Authentication Required)");
    expect(error.message).not.toContain("refused the ones given");
  });

  it("a proxy URL undici cannot use is a usage error at once, naming the variable, never its value", () => {
    for (const value of ["http://bot:p%ZZss@127.0.0.1:3128", "http://127.0.0.1:3128/path?x=1"]) {
      let thrown: unknown;
      try {
        createClient({
          baseUrl: emulator.url,
          apiKey: emulator.apiKey,
          env: { HTTPS_PROXY: value, HTTP_PROXY: value },
        });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toMatchObject({ code: "USAGE" });
      expect(String((thrown as Error).message)).toContain("HTTP_PROXY");
      expect(String((thrown as Error).message)).not.toContain("p%ZZ");
    }
  });
});

describe("a server whose certificate no trusted authority signed", () => {
  let ca: PrivateCa;
  beforeAll(async () => {
    ca = await makePrivateCa();
  });
  afterAll(() => ca.remove());

  it("an https:// proxy's own certificate refused is named as the proxy's, not the API's", async () => {
    const via = await proxy();
    const front = await startHttpsFront(ca, via.port);
    opened.push(front);
    const { client: api } = client({ HTTP_PROXY: front.url });
    const error = await failure(api.createTopic({ key: "t-proxy-tls", name: "T" }));
    expect(error).toMatchObject({ code: "NETWORK", attempts: 1, mayHaveBeenApplied: false });
    expect(error.message).toMatch(new RegExp(`the proxy ${front.url}'s certificate was refused`));
    expect(error.message).not.toContain("the server's certificate");
    expect(error.hint).toContain("NODE_EXTRA_CA_CERTS");
    expect(via.connects).toEqual([]);
  });

  it("is a certificate error, with the NODE_EXTRA_CA_CERTS hint, not retried, nothing sent", async () => {
    const front = await startHttpsFront(ca, emulator.port);
    opened.push(front);
    const api = createClient({ baseUrl: front.url, apiKey: emulator.apiKey, retry: { maxAttempts: 3 } });
    opened.push(api);
    const error = await failure(api.createTopic({ key: "t-tls", name: "T" }));
    expect(error).toMatchObject({ code: "NETWORK", attempts: 1, mayHaveBeenApplied: false });
    expect(error.message).toMatch(/the server's certificate is not trusted \([A-Z_]+\)/);
    expect(error.hint).toContain("NODE_EXTRA_CA_CERTS");
    expect(emulator.requests).toEqual([]);
  });
});

describe("an https:// URL for a plain-HTTP server", () => {
  it("is a failed TLS handshake, said plainly, and a write that never left is not 'may have been applied'", async () => {
    const api = createClient({
      baseUrl: `https://127.0.0.1:${emulator.port}`,
      apiKey: emulator.apiKey,
      retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
    });
    opened.push(api);
    const error = await failure(api.createTopic({ key: "t-plain", name: "T" }));
    // undici starts a request only once its connection is up: the handshake failed before.
    expect(error).toMatchObject({ code: "NETWORK", mayHaveBeenApplied: false });
    expect(error.message).toContain("the TLS handshake failed: the server does not speak TLS there");
    expect(error.message).not.toContain("SSL routines");
  });
});
