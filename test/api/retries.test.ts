// When the client retries, how long it waits, and when it must not: GET/PUT/PATCH on network
// errors, 429, 502, 503, 504, and a GET on 500 too (a PUT/PATCH not: it may have been applied); a POST only on 429 or when it could not connect, always with the
// same Idempotency-Key; Retry-After honoured; attempts and elapsed time bounded.
import { afterEach, describe, expect, it } from "vitest";
import { NetworkError } from "../../src/api/index.js";
import { createClient } from "../../src/kinds/client.js";
import { dataOf, fixture, type Reply, startFakeServer } from "./helpers/fake-server.js";
import { closeAll, failure, harness, KEY, W } from "./helpers/harness.js";

afterEach(closeAll);

const ME = fixture("organizations-me-200");
const limited = (retryAfter: string): Reply => ({
  status: 429,
  body: { statusCode: 429, message: "API rate limit exceeded" },
  headers: { "retry-after": retryAfter },
});

describe("reads and idempotent writes", () => {
  it.each([500, 502, 503, 504])("a GET answered %i is retried until it succeeds", async (status) => {
    const { client, server, sleeps } = await harness([{ status }, { status }, ME]);
    expect((await client.getCurrentOrganization()).name).toBe(dataOf("organizations-me-200").name);
    expect(server.requests).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
    expect(client.stats()).toMatchObject({ requests: 3, retries: 2, failures: 0, byMethod: { GET: 3 } });
  });

  it("a PUT and a PATCH are retried on 503 and on a reset connection", async () => {
    const { client, server } = await harness([
      { status: 503 },
      fixture("workflows-status-200"),
      "reset-after-body",
      fixture("topics-rename-200"),
    ]);
    await client.updateWorkflowStatus(W, false);
    await client.renameTopic("news", { name: "News 2" });
    expect(server.requests.map((r) => r.method)).toEqual(["PUT", "PUT", "PATCH", "PATCH"]);
    expect(server.requests[1]?.body).toEqual({ active: false });
  });

  it("a PUT and a PATCH answered 500 are not retried: the write may have been applied", async () => {
    const { client, server } = await harness([
      { status: 500 },
      { status: 500 },
      fixture("workflows-status-200"),
    ]);
    expect(await failure(client.updateWorkflowStatus(W, false))).toMatchObject({
      status: 500,
      mayHaveBeenApplied: true,
    });
    expect(await failure(client.renameTopic("news", { name: "News 2" }))).toMatchObject({
      status: 500,
      mayHaveBeenApplied: true,
    });
    expect(server.requests.map((r) => r.method)).toEqual(["PUT", "PATCH"]);
  });

  it("a retried PUT that may have been applied on one attempt is reported so, whatever a later attempt met", async () => {
    // A 503 (the server may have done it), then a refusal: the first may still have applied it.
    const { client, server } = await harness([
      { status: 503 },
      { status: 400, body: { message: "bad" } },
      "reset-after-body",
      { status: 400, body: { message: "bad" } },
    ]);
    expect(await failure(client.updateWorkflowStatus(W, false))).toMatchObject({
      status: 400,
      attempts: 2,
      mayHaveBeenApplied: true,
    });
    expect(await failure(client.renameTopic("news", { name: "News 2" }))).toMatchObject({
      status: 400,
      attempts: 2,
      mayHaveBeenApplied: true,
    });
    expect(server.requests.map((r) => r.method)).toEqual(["PUT", "PUT", "PATCH", "PATCH"]);
  });

  it("a GET whose connection is reset before or after its request is retried", async () => {
    const { client, server } = await harness(["reset-before-body", "reset-after-body", ME]);
    await client.getCurrentOrganization();
    expect(server.requests).toHaveLength(3);
  });

  it("logs each retry with its reason and delay, and each request with its attempt", async () => {
    const { client, events } = await harness([{ status: 503 }, "reset-after-body", ME]);
    await client.getCurrentOrganization();
    const retries = events.filter((e) => e.type === "retry");
    expect(retries).toEqual([
      expect.objectContaining({
        endpoint: "getCurrentOrganization",
        attempt: 1,
        reason: "status 503",
        delayMs: 125,
      }),
      expect.objectContaining({
        attempt: 2,
        reason: "the connection was closed before a response arrived",
        delayMs: 250,
      }),
    ]);
    const attempts = events.flatMap((e) => (e.type === "request" ? [e.attempt] : []));
    expect(attempts).toEqual([1, 2, 3]);
  });

  it("4xx answers other than 429 are not retried", async () => {
    const { client, server } = await harness([fixture("topics-get-unknown-404"), ME]);
    await failure(client.getTopic("x"));
    expect(server.requests).toHaveLength(1);
  });

  it("gives up after maxAttempts, saying how many attempts were made", async () => {
    const { client, server } = await harness(["reset-after-body"], { retry: { maxAttempts: 3 } });
    const error = await failure(client.listTopics());
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ code: "NETWORK", attempts: 3, retried: true, mayHaveBeenApplied: false });
    expect(error.message).toBe(
      `GET ${server.url}/v1/topics: the connection was closed before a response arrived (after 3 attempts)`,
    );
    expect(server.requests).toHaveLength(3);
    expect(client.stats()).toMatchObject({ requests: 3, retries: 2, failures: 1 });
  });

  it("gives up when the next wait would pass maxElapsedMs", async () => {
    const { client, server, sleeps } = await harness([{ status: 503 }], {
      random: () => 0.999,
      retry: { maxAttempts: 100, maxElapsedMs: 2_000, baseDelayMs: 250, maxDelayMs: 10_000 },
    });
    const error = await failure(client.getCurrentOrganization());
    // Waits of ~250, ~500 and ~1000 fit in 2 s; the next (~2000) would not.
    expect(sleeps.map((ms) => Math.round(ms / 10) * 10)).toEqual([250, 500, 1000]);
    expect(server.requests).toHaveLength(4);
    expect(error).toMatchObject({ status: 503, attempts: 4 });
    expect(error.message).toMatch(/: 503 .*\(after 4 attempts\)$/);
  });

  it("backs off exponentially with full jitter, capped at maxDelayMs", async () => {
    const draws = [0.999, 0.5, 0, 0.999, 0.999, 0.999];
    const { client, sleeps } = await harness([{ status: 502 }], {
      random: () => draws.shift() ?? 0,
      retry: { maxAttempts: 7, maxElapsedMs: 1e9, baseDelayMs: 100, maxDelayMs: 1_000 },
    });
    await failure(client.getCurrentOrganization());
    // Ceilings 100, 200, 400, 800, 1600->1000, 3200->1000; each wait is random() * ceiling.
    expect(sleeps).toEqual([99, 100, 0, 799, 999, 999]);
  });
});

describe("Retry-After", () => {
  it("is honoured in seconds and as an HTTP date on 429", async () => {
    const date = new Date(Date.now() + 30_000).toUTCString();
    const { client, sleeps } = await harness([limited("7"), limited(date), ME]);
    await client.getCurrentOrganization();
    expect(sleeps.filter((ms) => ms >= 7_000 && ms < 8_000)).not.toHaveLength(0);
    expect(sleeps.filter((ms) => ms > 25_000 && ms <= 30_000)).not.toHaveLength(0);
    expect(client.stats().rateLimited).toBe(2);
  });

  it("is honoured on 503 too", async () => {
    const { client, sleeps } = await harness([{ status: 503, headers: { "retry-after": "4" } }, ME]);
    await client.getCurrentOrganization();
    expect(sleeps).toEqual([4_000]);
  });

  it("longer than the time budget ends the call instead of waiting", async () => {
    const { client, server, sleeps } = await harness([limited("3600"), ME]);
    expect(await failure(client.getCurrentOrganization())).toMatchObject({ status: 429, attempts: 1 });
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });
});

describe("POST", () => {
  it("carries a fresh Idempotency-Key per call, the same across that call's retries on 429", async () => {
    const { client, server } = await harness([
      limited("1"),
      limited("1"),
      fixture("topics-create-201"),
      fixture("topics-create-201"),
    ]);
    await client.createTopic({ key: "a", name: "A" });
    await client.createTopic({ key: "b", name: "B" });
    const keys = server.requests.map((r) => r.headers["idempotency-key"]);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys.slice(0, 3)).toEqual([keys[0], keys[0], keys[0]]);
    expect(keys[3]).not.toBe(keys[0]);
  });

  it.each([502, 503, 504, 500])("is not retried on %i: the write may have happened", async (status) => {
    const { client, server } = await harness([{ status }, fixture("notification-groups-create-201")]);
    const error = await failure(client.createNotificationGroup({ name: "Billing" }));
    expect(error).toMatchObject({ status, mayHaveBeenApplied: true, retried: false });
    expect(server.requests).toHaveLength(1);
  });

  it.each(["reset-after-body", "reset-before-body"] as const)(
    "is not retried after %s: NetworkError with mayHaveBeenApplied",
    async (reply) => {
      const { client, server } = await harness([reply, fixture("notification-groups-create-201")]);
      const error = await failure(client.createNotificationGroup({ name: "Billing" }));
      expect(error).toBeInstanceOf(NetworkError);
      expect(error).toMatchObject({ code: "NETWORK", mayHaveBeenApplied: true, attempts: 1 });
      expect(server.requests).toHaveLength(1);
    },
  );

  it("is retried when it could not connect, with the same Idempotency-Key once it gets through", async () => {
    // Take a free port, close it, and listen on it again only during the first backoff sleep.
    const probe = await startFakeServer(() => ({ status: 500 }));
    const port = probe.port;
    await probe.close();
    let server: Awaited<ReturnType<typeof startFakeServer>> | undefined;
    const client = createClient({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: KEY,
      sleep: async () => {
        server ??= await startFakeServer(() => fixture("topics-create-201"), port);
      },
    });
    try {
      await client.createTopic({ key: "a", name: "A" });
      expect(client.stats()).toMatchObject({ requests: 2, retries: 1 });
      expect(server?.requests).toHaveLength(1);
      expect(server?.requests[0]?.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await client.close();
      await server?.close();
    }
  });

  it("that cannot connect at all fails with the URL and mayHaveBeenApplied false", async () => {
    const probe = await startFakeServer(() => ({ status: 500 }));
    await probe.close();
    const client = createClient({
      baseUrl: probe.url,
      apiKey: KEY,
      sleep: async () => {},
      retry: { maxAttempts: 2 },
    });
    const error = await failure(client.createTopic({ key: "a", name: "A" }));
    await client.close();
    expect(error).toMatchObject({ code: "NETWORK", attempts: 2, mayHaveBeenApplied: false });
    expect(error.message).toBe(`POST ${probe.url}/v1/topics: connection refused (after 2 attempts)`);
  });
});

describe("timeouts and cancellation", () => {
  it("a write that timed out waiting for its answer may have been applied", async () => {
    const { client, server } = await harness(["hang"], {
      timeouts: { headersMs: 50 },
      retry: { maxAttempts: 1 },
    });
    const error = await failure(client.updateWorkflowStatus(W, true));
    expect(error).toMatchObject({ code: "NETWORK", mayHaveBeenApplied: true, attempts: 1 });
    expect(error.message).toContain("timed out waiting for the response");
    expect(server.requests).toHaveLength(1);
  });

  it("an aborted call rejects with INTERRUPTED and is not retried", async () => {
    const { client, server } = await harness(["hang"]);
    const controller = new AbortController();
    const call = client.getCurrentOrganization({ signal: controller.signal });
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 2));
    controller.abort();
    expect(await failure(call)).toMatchObject({ code: "INTERRUPTED" });
    expect(server.requests).toHaveLength(1);
  });
});

describe("cancellation during a backoff", () => {
  it("an abort while waiting to retry ends the call at once, without another request", async () => {
    const controller = new AbortController();
    const { client, server } = await harness([{ status: 503, headers: { "retry-after": "30" } }, ME], {
      // A wait that only ends when the test aborts it.
      sleep: () => {
        controller.abort();
        return new Promise<void>(() => {});
      },
    });
    const error = await failure(client.getCurrentOrganization({ signal: controller.signal }));
    expect(error).toMatchObject({ code: "INTERRUPTED" });
    expect(server.requests).toHaveLength(1);
  });
});
