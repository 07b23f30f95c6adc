// Nothing the server says can hold a run for long: a Retry-After, a RateLimit-Reset or a pace
// longer than maxWaitMs (--max-wait) fails the call with API_WAIT_TOO_LONG naming the endpoint
// and the wait; waits in the limiter's queue and pace end at once on abort; a trickling body
// meets the exchange's overall deadline; and endless, repeating or absurd lists end with
// API_PAGINATION. Waits use the harness's injected sleep and clock (or one that never returns).
import { createServer } from "node:http";
import { type AddressInfo, createServer as createNetServer, type Socket } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { timerSleep } from "../../src/api/abortable.js";
import { startEmulator } from "../../src/emulator/index.js";
import { createClient } from "../../src/kinds/client.js";
import { fixture, type Recorded } from "./helpers/fake-server.js";
import { closeAll, failure, harness, KEY, W } from "./helpers/harness.js";

afterEach(closeAll);

const ME = fixture("organizations-me-200");
const limited = (retryAfter: string) => ({ status: 429, headers: { "retry-after": retryAfter } });
const never = () => new Promise<void>(() => undefined);

describe("server-requested waits are capped", () => {
  it("a 429 asking for 999999 s fails at once, naming the endpoint and the wait", async () => {
    const { client, server, sleeps } = await harness([limited("999999"), ME]);
    const error = await failure(client.getCurrentOrganization());
    expect(error).toMatchObject({ code: "API_WAIT_TOO_LONG", status: 429, attempts: 1 });
    expect(error.message).toContain("GET /v1/organizations/me");
    expect(error.message).toContain("getCurrentOrganization");
    expect(error.message).toMatch(/wait 999999 s \(Retry-After\), longer than the 60 s allowed/);
    expect(error.hint).toMatch(/--max-wait/);
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it("a far-future HTTP date is refused the same way, not obeyed or ignored", async () => {
    const { client, sleeps } = await harness([limited("Fri, 01 Jan 2100 00:00:00 GMT"), ME]);
    expect(await failure(client.getCurrentOrganization())).toMatchObject({ code: "API_WAIT_TOO_LONG" });
    expect(sleeps).toEqual([]);
  });

  it("RateLimit-Remaining 0 with a reset of 3500 s fails the next call without sending it", async () => {
    const spent = { ...ME, headers: { "ratelimit-remaining": "0", "ratelimit-reset": "3500" } };
    const { client, server, sleeps } = await harness([spent, ME]);
    await client.getCurrentOrganization();
    const error = await failure(client.listTopics({ page: 0, pageSize: 10 }));
    expect(error).toMatchObject({ code: "API_WAIT_TOO_LONG" });
    expect(error.message).toMatch(/GET \/v1\/topics \(listTopics\): the server asked to wait 3500 s/);
    expect(error.message).toContain("RateLimit-Remaining is 0");
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it("waits as asked within a larger maxWaitMs", async () => {
    // The retry budget grows with maxWaitMs, or the longer wait could never be taken.
    const { client, sleeps } = await harness([limited("120"), ME], { maxWaitMs: 600_000 });
    await client.getCurrentOrganization();
    expect(sleeps).toEqual([120_000]);
  });
});

describe("waits end on abort", () => {
  it("a call held by RateLimit-Reset ends with INTERRUPTED when aborted mid-wait", async () => {
    const spent = { ...ME, headers: { "ratelimit-remaining": "0", "ratelimit-reset": "30" } };
    let slept = 0;
    const { client, server } = await harness([spent, ME], {
      sleep: () => {
        slept += 1;
        return never();
      },
    });
    await client.getCurrentOrganization();
    const controller = new AbortController();
    const pending = failure(client.getCurrentOrganization({ signal: controller.signal }));
    await until(() => slept === 1);
    controller.abort();
    expect(await pending).toMatchObject({ code: "INTERRUPTED" });
    expect(server.requests).toHaveLength(1);
  });

  it("a call queued behind the concurrency limit leaves the queue on abort, and frees no slot it did not take", async () => {
    const { client, server } = await harness((_request, index) => (index === 0 ? "hang" : ME), {
      concurrency: 1,
    });
    const first = new AbortController();
    const hanging = failure(client.getCurrentOrganization({ signal: first.signal }));
    await until(() => server.requests.length === 1);
    const queued = new AbortController();
    const waiting = failure(client.getCurrentOrganization({ signal: queued.signal }));
    queued.abort();
    expect(await waiting).toMatchObject({ code: "INTERRUPTED" });
    expect(server.requests).toHaveLength(1);
    first.abort();
    expect(await hanging).toMatchObject({ code: "INTERRUPTED" });
    // The one slot is free again, and still only one: three calls at once go one at a time
    // (the server still counts the hung request, hence 2 = it + one of ours).
    await Promise.all([1, 2, 3].map(() => client.getCurrentOrganization()));
    expect(server.requests).toHaveLength(4);
    expect(server.requests.slice(1).map((r) => r.inFlight)).toEqual([2, 2, 2]);
  });
});

describe("closing the client", () => {
  it("ends a request still in flight at once, without retrying it, rather than waiting for the server", async () => {
    const { client, server } = await harness(["hang"]);
    const pending = failure(client.getCurrentOrganization());
    await until(() => server.requests.length === 1);
    await client.close();
    const error = await pending;
    expect(error).toMatchObject({ code: "NETWORK", attempts: 1 });
    expect(error.message).toContain("the client was closed before a response arrived");
    expect(server.requests).toHaveLength(1);
  });
});

describe("the real sleep", () => {
  it("clears its timer on abort, so an interrupted run does not linger until the wait would end", async () => {
    vi.useFakeTimers();
    try {
      const controller = new AbortController();
      const sleeping = timerSleep(60_000, controller.signal);
      expect(vi.getTimerCount()).toBe(1);
      controller.abort();
      await sleeping;
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("an overall deadline per exchange", () => {
  it("ends a body that trickles in one byte at a time, which the per-chunk timeout never would", async () => {
    const timers: NodeJS.Timeout[] = [];
    const server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write("{");
      // Bounded: at most 100 more bytes, 20 ms apart; the deadline comes long before.
      let sent = 0;
      const timer = setInterval(() => {
        sent += 1;
        if (sent > 100) {
          clearInterval(timer);
          res.end("}");
        } else res.write(" ");
      }, 20);
      timers.push(timer);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const client = createClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      apiKey: KEY,
      retry: { maxAttempts: 1 },
      timeouts: { bodyMs: 30_000, totalMs: 300 },
    });
    try {
      const error = await failure(client.getCurrentOrganization());
      expect(error).toMatchObject({ code: "NETWORK" });
      expect(error.message).toMatch(/no complete response within 0\.3 s/);
    } finally {
      for (const timer of timers) clearInterval(timer);
      await client.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe("the connect timeout", () => {
  it("ends a TLS handshake that never completes, as a failure to connect: nothing was sent", async () => {
    // Takes the connection and never says a word: the client's TLS hello goes unanswered.
    const sockets = new Set<Socket>();
    const server = createNetServer((socket) => {
      sockets.add(socket);
      socket.on("error", () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const client = createClient({
      baseUrl: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
      apiKey: KEY,
      retry: { maxAttempts: 1 },
      timeouts: { connectMs: 100 },
    });
    try {
      const error = await failure(client.createTopic({ key: "never-sent", name: "N" }));
      expect(error).toMatchObject({ code: "NETWORK", mayHaveBeenApplied: false });
      expect(error.message).toContain("timed out connecting");
    } finally {
      await client.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe("the body timeout is a silence between chunks", () => {
  // The emulator sends each answer in two halves slowBodyMs apart.
  async function slowBodyCall(slowBodyMs: number, bodyMs: number) {
    const emulator = await startEmulator({ seedFile: "examples/emulator-seed.yaml", port: 0, slowBodyMs });
    const client = createClient({
      baseUrl: emulator.url,
      apiKey: emulator.apiKey,
      retry: { maxAttempts: 1 },
      timeouts: { bodyMs },
    });
    try {
      return await client.getCurrentOrganization().then(
        (organization) => ({ organization, error: undefined }),
        (error: unknown) => ({ organization: undefined, error }),
      );
    } finally {
      await client.close();
      await emulator.close();
    }
  }

  it("a pause in the body longer than bodyMs ends the call, naming the wait", async () => {
    // undici checks body timeouts on a coarse clock (about every half second): the pause is
    // long enough for the check to come round first.
    const { error } = await slowBodyCall(1_500, 50);
    expect(error).toMatchObject({ code: "NETWORK" });
    expect((error as Error).message).toContain("timed out reading the response");
  });

  it("a pause shorter than bodyMs is waited out", async () => {
    const { organization, error } = await slowBodyCall(30, 2_000);
    expect(error).toBeUndefined();
    expect(organization?.name).toBeTypeOf("string");
  });
});

describe("the connection pool", () => {
  // Counts the connections a client opens while it makes two calls `pauseMs` apart.
  // `serverIdleMs`: the server's own keep-alive timeout, which Node announces in a Keep-Alive header.
  async function connectionsFor(idleMs: number, pauseMs: number, serverIdleMs = 30_000): Promise<number> {
    let connections = 0;
    const server = createServer((_req, res) => {
      res.writeHead(ME.status, { "content-type": "application/json" });
      res.end(JSON.stringify(ME.body));
    });
    server.keepAliveTimeout = serverIdleMs;
    server.on("connection", () => {
      connections += 1;
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const client = createClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      apiKey: KEY,
      timeouts: { idleMs },
    });
    try {
      await client.getCurrentOrganization();
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
      await client.getCurrentOrganization();
      return connections;
    } finally {
      await client.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }

  it("reuses a connection between calls", async () => {
    expect(await connectionsFor(5_000, 200)).toBe(1);
  });

  it("closes a connection left unused longer than idleMs, before a server's own keep-alive limit could race a write", async () => {
    expect(await connectionsFor(50, 300)).toBe(2);
  });

  it("closes it sooner when the server's Keep-Alive header says the server will close it sooner", async () => {
    // "Keep-Alive: timeout=2": less undici's 2 s margin for a request's way there, nothing is left.
    expect(await connectionsFor(5_000, 100, 2_500)).toBe(2);
  });
});

describe("pagination is bounded", () => {
  const page = (request: Recorded) => Number(new URL(request.path, "http://x").searchParams.get("page"));
  const override = (n: number) => ({
    _id: `o${n}`,
    _workflowId: W,
    _tenantId: `t${n}`,
    active: false,
    preferenceSettings: { email: true, sms: true, in_app: true, chat: true, push: true },
  });

  it("a list whose every page says hasMore ends after maxPages with API_PAGINATION", async () => {
    const { client, server } = await harness(
      (request) => ({
        status: 200,
        body: { data: [override(page(request))], page: page(request), pageSize: 100, hasMore: true },
      }),
      { maxPages: 50 },
    );
    const error = await failure(client.listAllWorkflowOverrides());
    expect(error).toMatchObject({ code: "API_PAGINATION" });
    expect(error.message).toMatch(/listWorkflowOverrides: the list did not end within 50 pages/);
    expect(server.requests).toHaveLength(50);
  });

  it("pages that repeat the same ids end with API_PAGINATION at the first repeat", async () => {
    const { client, server } = await harness((request) => ({
      status: 200,
      body: { data: [override(0), override(1)], page: page(request), pageSize: 100, hasMore: true },
    }));
    const error = await failure(client.listAllWorkflowOverrides());
    expect(error).toMatchObject({ code: "API_PAGINATION" });
    expect(error.message).toMatch(/page 1 holds only items already read/);
    expect(server.requests).toHaveLength(2);
  });

  it("a paged list that ignores the page number ends with API_PAGINATION", async () => {
    const ten = Array.from({ length: 10 }, (_, i) => ({ _id: `t${i}`, key: `k${i}`, name: `T${i}` }));
    const { client } = await harness([
      { status: 200, body: { data: ten, page: 0, pageSize: 10, totalCount: 30 } },
    ]);
    const error = await failure(client.listAllTopics());
    expect(error).toMatchObject({ code: "API_PAGINATION" });
    expect(error.message).toMatch(/listTopics: page 1 holds only items already read/);
  });

  it("an absurd totalCount is refused from the first page, before any fan-out", async () => {
    const ten = Array.from({ length: 10 }, (_, i) => ({ _id: `t${i}`, key: `k${i}`, name: `T${i}` }));
    const { client, server } = await harness([
      { status: 200, body: { data: ten, page: 0, pageSize: 10, totalCount: 100_000_000 } },
    ]);
    const error = await failure(client.listAllTopics());
    expect(error).toMatchObject({ code: "API_PAGINATION" });
    expect(error.message).toMatch(/reports 100000000 items \(totalCount\).*more than the 10000 pages/);
    expect(server.requests).toHaveLength(1);
  });
});

/** Let the event loop run until `done()` holds (bounded: at most 1,000 turns). */
async function until(done: () => boolean): Promise<void> {
  for (let turn = 0; turn < 1_000 && !done(); turn += 1) {
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  if (!done()) throw new Error("the condition never held");
}
