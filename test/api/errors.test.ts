// Typed errors and bad responses: the code each failure gets, the message format others print,
// and answers that are not what the API promises (not JSON, no envelope, wrong types, too big)
// reported as API_BAD_RESPONSE naming the endpoint and the field.
import { afterEach, describe, expect, it } from "vitest";
import { ApiError } from "../../src/api/index.js";
import { fixture, type Reply } from "./helpers/fake-server.js";
import { closeAll, failure, harness, T, W } from "./helpers/harness.js";

afterEach(closeAll);

const DEV_ONLY: Reply = {
  status: 401,
  body: {
    statusCode: 401,
    message: "This action is only allowed in Development environment",
    error: "Unauthorized",
  },
};

describe("error codes", () => {
  it("'only allowed in Development environment' is API_DEV_ONLY with the promotion hint, not a bad key", async () => {
    const { client } = await harness([DEV_ONLY]);
    const error = await failure<ApiError>(client.updateWorkflowStatus(W, true));
    expect(error).toMatchObject({ code: "API_DEV_ONLY", status: 401, endpoint: "updateWorkflowStatus" });
    expect(error.hint).toMatch(/promotion from Development/);
    expect(error.message).toBe(
      `PUT /v1/workflows/${W}/status: 401 This action is only allowed in Development environment`,
    );
  });

  it("401 and 403 are API_AUTH with a hint naming the variable", async () => {
    const { client } = await harness([
      fixture("auth-bad-key-401"),
      { status: 403, body: { message: "Forbidden" } },
    ]);
    for (const _ of [1, 2]) {
      const error = await failure<ApiError>(client.getCurrentOrganization());
      expect(error.code).toBe("API_AUTH");
      expect(error.hint).toContain("NOTIFORM_API_KEY");
    }
  });

  it("a spec endpoint whose route is missing is API_UNSUPPORTED, not a missing record", async () => {
    const { client } = await harness([
      {
        status: 404,
        body: { statusCode: 404, message: "Cannot POST /v1/organizations", error: "Not Found" },
      },
    ]);
    const error = await failure<ApiError>(client.createOrganization({ name: "Org" }));
    expect(error.code).toBe("API_UNSUPPORTED");
    expect(error.hint).toMatch(/check the API URL/);
  });

  it("a record 404 keeps its code even when its text mentions another method", async () => {
    const { client } = await harness([
      { status: 404, body: { message: "Cannot POST /v1/x", error: "Not Found" } },
    ]);
    expect(await failure(client.getTopic("x"))).toMatchObject({ code: "API_NOT_FOUND" });
  });

  it("other statuses are API_ERROR with the server's text; a non-JSON error page shows its start", async () => {
    // One attempt: a read answered 500 would otherwise be retried (and answered 302).
    const { client } = await harness(
      [
        { status: 500, raw: "<html><body>Bad   gateway\nnginx</body></html>" },
        { status: 302, headers: { location: "https://elsewhere" }, body: {} },
      ],
      { retry: { maxAttempts: 1 } },
    );
    const error = await failure<ApiError>(client.getBlueprint("b1"));
    expect(error).toMatchObject({
      code: "API_ERROR",
      status: 500,
      serverMessage: "<html><body>Bad gateway nginx</body></html>",
    });
    // A redirect is not followed and not a success: the key must not travel elsewhere.
    expect(await failure(client.getBlueprint("b1"))).toMatchObject({ code: "API_ERROR", status: 302 });
  });

  it("a 5xx to a write may have been applied; a 4xx or a read never", async () => {
    const { client } = await harness([{ status: 500 }, { status: 400 }, { status: 500 }]);
    expect(await failure(client.renameTopic("k", { name: "n" }))).toMatchObject({ mayHaveBeenApplied: true });
    expect(await failure(client.renameTopic("k", { name: "n" }))).toMatchObject({
      mayHaveBeenApplied: false,
    });
    expect(await failure(client.getTopic("k"))).toMatchObject({ mayHaveBeenApplied: false });
  });
});

describe("requests refused before sending (a real server would answer 500 or a less useful 400)", () => {
  it("refuses bad keys, empty names, non-hex ids and empty updates without a request", async () => {
    const { client, server } = await harness([fixture("topics-create-201")]);
    const refusals = [
      client.createTopic({ key: "has space", name: "A" }),
      client.createTopic({ key: "", name: "A" }),
      client.createTopic({ key: "ok", name: " " }),
      client.renameTopic("ok", { name: "" }),
      client.createNotificationGroup({ name: "" }),
      client.updateWorkflow("abc", { name: "x" }),
      client.updateWorkflow(W, {}),
      client.updateWorkflowStatus("not-an-id", true),
      client.createWorkflowOverride({ workflowId: W, tenantId: "tenant-identifier" }),
      client.updateWorkflowOverrideByPair(W, "acme", { active: true }),
      client.getTopic(""),
    ];
    for (const refusal of refusals) expect(await failure(refusal)).toMatchObject({ code: "REQUEST_INVALID" });
    expect(server.requests).toHaveLength(0);
    expect(client.stats().requests).toBe(0);
  });

  it("accepts every character the real server allows in a topic key", async () => {
    const { client, server } = await harness([
      fixture("topics-create-201"),
      fixture("workflow-overrides-create-201"),
    ]);
    await client.createTopic({ key: "Order_updates-2.eu:v1", name: "N" });
    expect(server.requests[0]?.body).toEqual({ key: "Order_updates-2.eu:v1", name: "N" });
    await client.createWorkflowOverride({ workflowId: W, tenantId: T.toUpperCase() });
  });
});

describe("bad responses", () => {
  it.each([
    ["not JSON", { status: 200, raw: "oops, not json" }, 'not JSON (starts with "oops, not json")'],
    ["no envelope", { status: 200, body: { name: "Acme" } }, "no `data` envelope"],
    ["wrong types", { status: 200, body: { data: { name: 42 } } }, "data.name is a number, expected string"],
    ["a missing field", { status: 200, body: { data: {} } }, "data.name is missing, expected string"],
    ["an array for an object", { status: 200, body: { data: [] } }, "data is not an object"],
    ["an empty body", { status: 200, raw: "" }, "empty body"],
  ] as [string, Reply, string][])(
    "%s is API_BAD_RESPONSE naming the endpoint and field",
    async (_label, reply, problem) => {
      const { client } = await harness([reply]);
      const error = await failure<ApiError>(client.getCurrentOrganization());
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({
        code: "API_BAD_RESPONSE",
        endpoint: "getCurrentOrganization",
        mayHaveBeenApplied: false,
      });
      expect(error.message).toBe(`GET /v1/organizations/me: 200 unexpected response: ${problem}`);
      expect(client.stats().failures).toBe(1);
    },
  );

  it("an HTML page is a wrong URL: the message names the base URL and the hint says what it should be", async () => {
    const { client } = await harness([
      { status: 200, raw: "<!doctype html><html><body>Dashboard</body></html>" },
    ]);
    const error = await failure<ApiError>(client.getCurrentOrganization());
    expect(error.code).toBe("API_BAD_RESPONSE");
    expect(error.message).toMatch(
      /^GET \/v1\/organizations\/me: 200 http:\/\/127\.0\.0\.1:\d+ answered with an HTML page/,
    );
    expect(error.hint).toContain("the API's base URL");
  });

  it("checks list items and page fields, naming the index", async () => {
    const topic = { _id: "t1", key: "k", name: "n", subscribers: [] };
    const { client } = await harness([
      { status: 200, body: { data: [topic, { ...topic, key: null }], page: 0, pageSize: 10, totalCount: 2 } },
      { status: 200, body: { data: [topic], page: 0, pageSize: 10, totalCount: "2" } },
      { status: 200, body: { data: { data: [], page: 0 } } },
    ]);
    expect((await failure(client.listTopics())).message).toMatch(/data\[1\]\.key is null, expected string$/);
    expect((await failure(client.listTopics())).message).toMatch(
      /response\.totalCount is a string, expected number$/,
    );
    expect((await failure(client.listWorkflowOverrides())).message).toMatch(
      /data\.hasMore is missing, expected boolean$/,
    );
  });

  it("a write answered with a bad body may have been applied", async () => {
    const { client } = await harness([{ status: 201, raw: "created" }]);
    expect(await failure(client.createTopic({ key: "k", name: "n" }))).toMatchObject({
      code: "API_BAD_RESPONSE",
      mayHaveBeenApplied: true,
    });
  });

  it.each([false, true])(
    "refuses a body over the cap (chunked: %s) instead of holding it",
    async (chunked) => {
      const raw = JSON.stringify({ data: { name: "x".repeat(300_000) } });
      const { client } = await harness([{ status: 200, raw, chunked }, fixture("organizations-me-200")], {
        maxBodyBytes: 100_000,
      });
      const error = await failure(client.getCurrentOrganization());
      expect(error).toMatchObject({ code: "API_BAD_RESPONSE" });
      expect(error.message).toMatch(/body larger than 100000 bytes$/);
      // The connection it was on is not reused half-read: the next call works.
      expect((await client.getCurrentOrganization()).name).toBeTypeOf("string");
    },
  );

  it("refuses a body whose declared length is over the cap before any of it arrives", async () => {
    // The server declares 10 MB and sends 2 bytes: read on, the client would wait for the rest
    // until a timeout (here 5 s, a failure of another code); the declared length settles it now.
    const { client } = await harness(
      [
        { status: 200, raw: "{}", headers: { "content-length": "10000000" } },
        fixture("organizations-me-200"),
      ],
      { maxBodyBytes: 100_000, timeouts: { bodyMs: 5_000, totalMs: 5_000 } },
    );
    const started = performance.now();
    const error = await failure(client.getCurrentOrganization());
    expect(error).toMatchObject({ code: "API_BAD_RESPONSE" });
    expect(error.message).toMatch(/body larger than 100000 bytes$/);
    expect(performance.now() - started).toBeLessThan(4_000);
    expect((await client.getCurrentOrganization()).name).toBeTypeOf("string");
  });

  it("accepts a body just under the cap", async () => {
    const raw = JSON.stringify({ data: { name: "x".repeat(90_000) } });
    const { client } = await harness([{ status: 200, raw, chunked: true }], { maxBodyBytes: 100_000 });
    expect((await client.getCurrentOrganization()).name).toHaveLength(90_000);
  });
});
