// How the client fails: typed errors from real error bodies, retries that never duplicate a
// POST, Retry-After honoured, capabilities remembered, bad responses named, the key never shown.
import { afterEach, describe, expect, it } from "vitest";
import {
  ApiError,
  type ClientLogEvent,
  createClient,
  isUnchangedStatusError,
  NetworkError,
} from "../../src/api/index.js";
import { type FakeServer, fixture, type Reply, type Script, startFakeServer } from "./fake-server.js";

const KEY = "nf_test_key_SECRET_42";
const W = "6b02c10ed413275d06fb3248";
let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(script: Script | Reply[], extra: Partial<Parameters<typeof createClient>[0]> = {}) {
  const fn: Script = Array.isArray(script)
    ? (_r, i) => script[Math.min(i, script.length - 1)] ?? { status: 500 }
    : script;
  server = await startFakeServer(fn);
  const sleeps: number[] = [];
  const events: ClientLogEvent[] = [];
  const client = createClient({
    baseUrl: server.url,
    apiKey: KEY,
    apiKeyEnv: "NOTIFORM_API_KEY",
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    log: (e) => events.push(e),
    ...extra,
  });
  return { client, sleeps, events, server };
}

async function failure(promise: Promise<unknown>): Promise<ApiError | NetworkError> {
  try {
    await promise;
  } catch (error) {
    return error as ApiError;
  }
  throw new Error("expected a failure");
}

describe("typed errors from real error bodies", () => {
  it("a bad key is API_AUTH naming the variable, never the key", async () => {
    const { client } = await setup([fixture("auth-bad-key-401")]);
    const error = await failure(client.getCurrentOrganization());
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      code: "API_AUTH",
      status: 401,
      method: "GET",
      path: "/v1/organizations/me",
    });
    expect(error.hint).toContain("NOTIFORM_API_KEY");
    expect(`${error.message} ${error.hint}`).not.toContain(KEY);
  });

  it("'only allowed in Development environment' is API_DEV_ONLY with the promotion hint", async () => {
    const body = {
      statusCode: 401,
      message: "This action is only allowed in Development environment",
      error: "Unauthorized",
    };
    const { client } = await setup([{ status: 401, body }]);
    const error = await failure(client.updateWorkflowStatus(W, true));
    expect(error.code).toBe("API_DEV_ONLY");
    expect(error.hint).toMatch(/promotion/);
  });

  it("a missing record is API_NOT_FOUND; a missing route of an extension is API_UNSUPPORTED, remembered", async () => {
    const { client, server } = await setup([
      fixture("topics-get-unknown-404"),
      {
        status: 404,
        body: { statusCode: 404, message: `Cannot GET /v1/workflows/${W}`, error: "Not Found" },
      },
    ]);
    expect(await failure(client.getTopic("no-such-topic"))).toMatchObject({
      code: "API_NOT_FOUND",
      status: 404,
    });
    expect(await failure(client.getWorkflow(W))).toMatchObject({ code: "API_UNSUPPORTED" });
    expect(client.capability("getWorkflow")).toBe("unsupported");
    expect(await failure(client.getWorkflow(W))).toMatchObject({ code: "API_UNSUPPORTED" });
    expect(server.requests).toHaveLength(2);
  });

  it("probes an extension without touching a real record", async () => {
    const { client, server } = await setup([
      fixture("workflow-overrides-get-unknown-404"),
      {
        status: 404,
        body: { statusCode: 404, message: "Cannot GET /v1/notification-groups", error: "Not Found" },
      },
    ]);
    expect(await client.probe("updateWorkflowOverride")).toBe(true);
    expect(await client.probe("listNotificationGroups")).toBe(false);
    expect(await client.probe("updateWorkflowOverride")).toBe(true);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "PUT /v1/workflow-overrides/000000000000000000000000",
      "GET /v1/notification-groups",
    ]);
  });

  it("tells an unchanged workflow status from a bad request", async () => {
    const { client } = await setup([
      fixture("workflows-status-unchanged-400"),
      fixture("workflows-status-bad-body-400"),
    ]);
    const unchanged = await failure(client.updateWorkflowStatus(W, true));
    const invalid = await failure(client.updateWorkflowStatus(W, true));
    expect(isUnchangedStatusError(unchanged)).toBe(true);
    expect(isUnchangedStatusError(invalid)).toBe(false);
    expect(invalid.message).toContain("active must be a boolean value");
  });

  it("joins a validation array into the message and keeps method, path and status", async () => {
    const { client } = await setup([fixture("topics-create-missing-key-400")]);
    const error = await failure(client.createTopic({ key: "k", name: "n" }));
    expect(error.message).toBe(
      "POST /v1/topics: 400 key should not be null or undefined; key must be a string",
    );
  });
});

describe("retries", () => {
  it("retries a GET on 503 and 502, then succeeds", async () => {
    const { client, server, sleeps } = await setup([
      { status: 503 },
      { status: 502 },
      fixture("organizations-me-200"),
    ]);
    expect((await client.getCurrentOrganization()).name).toBeTypeOf("string");
    expect(server.requests).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
    expect(client.stats()).toMatchObject({ requests: 3, retries: 2 });
  });

  it("honours Retry-After in seconds and as an HTTP date on 429", async () => {
    const date = new Date(Date.now() + 3_000).toUTCString();
    const limited = (retryAfter: string): Reply => ({
      status: 429,
      body: { message: "API rate limit exceeded" },
      headers: { "retry-after": retryAfter },
    });
    const { client, sleeps } = await setup([limited("2"), limited(date), fixture("organizations-me-200")]);
    await client.getCurrentOrganization();
    expect(sleeps[0]).toBeGreaterThanOrEqual(2_000);
    expect(sleeps[1]).toBeGreaterThanOrEqual(1_000);
    expect(client.stats().rateLimited).toBe(2);
  });

  it("retries a POST on 429 with the same Idempotency-Key", async () => {
    const { client, server } = await setup([
      { status: 429, headers: { "retry-after": "1" } },
      fixture("topics-create-201"),
    ]);
    await client.createTopic({ key: "a", name: "A" });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]?.headers["idempotency-key"]).toBe(
      server.requests[0]?.headers["idempotency-key"],
    );
  });

  it("never retries a POST the server may have processed, and says it may have been applied", async () => {
    const { client, server } = await setup([{ status: 503 }, "reset-before-answer"]);
    const error = await failure(client.createNotificationGroup({ name: "Billing" }));
    expect(error).toMatchObject({ status: 503, mayHaveBeenApplied: true });
    const lost = await failure(client.createNotificationGroup({ name: "Billing" }));
    expect(lost).toBeInstanceOf(NetworkError);
    expect(lost).toMatchObject({ code: "NETWORK", mayHaveBeenApplied: true, attempts: 1 });
    expect(server.requests).toHaveLength(2);
  });

  it("retries a GET whose connection was reset, and gives up after maxAttempts", async () => {
    const { client, server } = await setup(["reset-before-answer"], { retry: { maxAttempts: 3 } });
    const error = await failure(client.listTopics());
    expect(error).toMatchObject({ code: "NETWORK", attempts: 3 });
    expect(error.message).toContain("(after 3 attempts)");
    expect(server.requests).toHaveLength(3);
  });

  it("names the URL when nothing listens, and retries a POST that could not connect", async () => {
    const client = createClient({
      baseUrl: "http://127.0.0.1:9",
      apiKey: KEY,
      sleep: async () => {},
      retry: { maxAttempts: 2 },
    });
    const error = await failure(client.createTopic({ key: "a", name: "A" }));
    expect(error).toMatchObject({ code: "NETWORK", attempts: 2, mayHaveBeenApplied: false });
    expect(error.message).toContain("http://127.0.0.1:9/v1/topics: connection refused");
  });
});

describe("bad responses", () => {
  it.each([
    ["not JSON", { status: 200, raw: "<html>oops</html>" }, /not JSON/],
    ["no envelope", { status: 200, body: { name: "Acme" } }, /no `data` envelope/],
    ["wrong types", { status: 200, body: { data: { name: 42 } } }, /data\.name is a number, expected string/],
    ["an empty body", { status: 200, raw: "" }, /empty body/],
  ] as [string, Reply, RegExp][])(
    "%s is API_BAD_RESPONSE naming the endpoint",
    async (_label, reply, pattern) => {
      const { client } = await setup([reply]);
      const error = await failure(client.getCurrentOrganization());
      expect(error.code).toBe("API_BAD_RESPONSE");
      expect(error.message).toMatch(/^GET \/v1\/organizations\/me: 200 unexpected response: /);
      expect(error.message).toMatch(pattern);
    },
  );

  it("refuses a huge body instead of holding it", async () => {
    const { client } = await setup(
      [{ status: 200, raw: JSON.stringify({ data: { name: "x".repeat(200_000) } }) }],
      { maxBodyBytes: 100_000 },
    );
    expect((await failure(client.getCurrentOrganization())).message).toMatch(/body larger than 100000 bytes/);
  });
});

describe("lists and concurrency", () => {
  it("reads every topic exactly once, pages after the first concurrently, within the limit", async () => {
    const topics = Array.from({ length: 95 }, (_, i) => ({
      _id: `t${i}`,
      key: `k${i}`,
      name: `T${i}`,
      subscribers: [],
    }));
    const { client, server } = await setup(
      (req) => {
        const url = new URL(req.path, "http://x");
        const page = Number(url.searchParams.get("page"));
        const size = Number(url.searchParams.get("pageSize"));
        return {
          status: 200,
          body: {
            data: topics.slice(page * size, page * size + size),
            page,
            pageSize: size,
            totalCount: topics.length,
          },
        };
      },
      { concurrency: 3 },
    );
    const all = await client.listAllTopics();
    expect(all.map((t) => t._id).sort()).toEqual(topics.map((t) => t._id).sort());
    expect(server.requests).toHaveLength(10);
    expect(server.maxInFlight).toBeLessThanOrEqual(3);
    expect(server.maxInFlight).toBeGreaterThan(1);
  });

  it("follows hasMore through the override list", async () => {
    const overrides = Array.from({ length: 250 }, (_, i) => ({
      _id: `o${i}`,
      _workflowId: W,
      _tenantId: `t${i}`,
      active: false,
      preferenceSettings: {},
    }));
    const { client, server } = await setup((req) => {
      const url = new URL(req.path, "http://x");
      const page = Number(url.searchParams.get("page"));
      const limit = Number(url.searchParams.get("limit"));
      const data = overrides.slice(page * limit, page * limit + limit);
      return {
        status: 200,
        body: { data, page, pageSize: limit, hasMore: (page + 1) * limit < overrides.length },
      };
    });
    expect(await client.listAllWorkflowOverrides()).toHaveLength(250);
    expect(server.requests.map((r) => r.path)).toEqual([
      "/v1/workflow-overrides?page=0&limit=100",
      "/v1/workflow-overrides?page=1&limit=100",
      "/v1/workflow-overrides?page=2&limit=100",
    ]);
  });

  it("halves its concurrency on 429 and says so in the log", async () => {
    const { client, events } = await setup(
      (_req, i) =>
        i < 3 ? { status: 429, headers: { "retry-after": "0" } } : fixture("organizations-me-200"),
      { concurrency: 8 },
    );
    await Promise.all(Array.from({ length: 6 }, () => client.getCurrentOrganization()));
    const limits = events.filter((e) => e.type === "limit").map((e) => (e as { limit: number }).limit);
    expect(limits.slice(0, 3)).toEqual([4, 2, 1]);
  });

  it("never puts the key in a log event", async () => {
    const { client, events } = await setup([{ status: 503 }, fixture("auth-bad-key-401")]);
    await failure(client.getCurrentOrganization());
    expect(events.length).toBeGreaterThan(2);
    expect(JSON.stringify(events)).not.toContain(KEY);
  });
});
