// Secrets: the API key is only ever in the Authorization header, never in an error (message,
// hint, stack, fields, cause) or a log event, whatever fails; partner access tokens are redacted
// in logged bodies; plain http is refused to anything but loopback.
import { afterEach, describe, expect, it } from "vitest";
import { type ClientLogEvent, formatClientEvent, isInsecureUrl, REDACTED } from "../../src/api/index.js";
import { createClient } from "../../src/kinds/client.js";
import { VERSION } from "../../src/version.js";
import { fixture, type Reply } from "./helpers/fake-server.js";
import { closeAll, failure, harness, KEY, W } from "./helpers/harness.js";

afterEach(closeAll);

/** Everything an error exposes, as text: message, hint, stack, own fields, causes. */
function everythingIn(error: unknown, depth = 0): string {
  if (!(error instanceof Error) || depth > 3) return String(error);
  const fields = Object.entries(error).map(
    ([name, value]) => `${name}=${typeof value === "object" ? safeJson(value) : String(value)}`,
  );
  return [error.message, error.stack ?? "", ...fields, everythingIn(error.cause, depth + 1)].join("\n");
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return String(value);
  }
}

describe("the API key", () => {
  it("is sent in the Authorization header as 'ApiKey <key>' with the tool's User-Agent", async () => {
    const { client, server } = await harness([fixture("organizations-me-200")]);
    await client.getCurrentOrganization();
    expect(server.requests[0]?.headers.authorization).toBe(`ApiKey ${KEY}`);
    expect(server.requests[0]?.headers["user-agent"]).toBe(`notiform/${VERSION}`);
    expect(server.requests[0]?.headers.accept).toBe("application/json");
  });

  it("appears in no error and no log event, whatever fails", async () => {
    const echo = { statusCode: 401, message: `API Key not found: ${KEY}`, error: "Unauthorized" };
    const replies: Reply[] = [
      fixture("auth-bad-key-401"),
      { status: 401, body: echo },
      { status: 500, raw: `<html>key=${KEY}</html>` },
      { status: 200, raw: `not json ${KEY}` },
      { status: 200, body: { data: { name: 1, token: KEY } } },
      { status: 503 },
      "reset-after-body",
      { status: 429, headers: { "retry-after": "1" } },
      { status: 200, body: { data: { name: "Acme", echo: KEY } } },
    ];
    const { client, events } = await harness((_request, index) => replies[index] ?? { status: 502 }, {
      retry: { maxAttempts: 2 },
    });
    const errors: unknown[] = [];
    const calls = [
      () => client.getCurrentOrganization(),
      () => client.getCurrentOrganization(),
      () => client.getBlueprint("b"),
      () => client.getCurrentOrganization(),
      () => client.getCurrentOrganization(),
      () => client.createTopic({ key: "k", name: "n" }),
      () => client.createNotificationGroup({ name: "n" }),
      () => client.getCurrentOrganization(),
      () => client.updateWorkflowStatus(W, true),
    ];
    for (const call of calls) {
      try {
        await call();
      } catch (error) {
        errors.push(error);
      }
    }
    expect(errors.length).toBeGreaterThanOrEqual(7);
    expect(events.length).toBeGreaterThan(20);
    for (const error of errors) expect(everythingIn(error)).not.toContain(KEY);
    expect(safeJson(events)).not.toContain(KEY);
    expect(events.map(formatClientEvent).join("\n")).not.toContain(KEY);
    // The echoed key was masked, not dropped: the rest of the message survives.
    expect(errors.map((e) => (e as Error).message)).toContain(
      "GET /v1/organizations/me: 401 API Key not found: ********",
    );
  });
});

describe("partner access tokens", () => {
  it("are redacted in logged bodies and returned intact to the caller", async () => {
    const organization = {
      _id: "o1",
      name: "Acme",
      partnerConfigurations: [
        {
          projectIds: ["p"],
          accessToken: "vercel_TOKEN_abc123",
          configurationId: "c",
          partnerType: "vercel",
        },
      ],
    };
    const { client, events } = await harness([
      { status: 200, body: { data: organization } },
      { status: 201, body: { data: organization } },
    ]);
    const me = await client.getCurrentOrganization();
    await client.createOrganization({ name: "Acme" });
    expect(me.partnerConfigurations?.[0]?.accessToken).toBe("vercel_TOKEN_abc123");
    expect(safeJson(events)).not.toContain("vercel_TOKEN_abc123");
    const response = events.find(
      (e): e is Extract<ClientLogEvent, { type: "response" }> => e.type === "response",
    );
    expect(response?.body).toEqual({
      data: {
        ...organization,
        partnerConfigurations: [{ ...organization.partnerConfigurations[0], accessToken: REDACTED }],
      },
    });
    const request = events.find(
      (e): e is Extract<ClientLogEvent, { type: "request" }> => e.type === "request" && e.method === "POST",
    );
    expect(request?.body).toEqual({ name: "Acme" });
  });
});

describe("plain http", () => {
  it("is refused to a non-loopback host unless insecureHttp, before any request", () => {
    expect(() => createClient({ baseUrl: "http://api.example.com", apiKey: KEY })).toThrow(
      expect.objectContaining({ code: "INSECURE_URL" }),
    );
    expect(() => createClient({ baseUrl: "http://10.0.0.8:3000/", apiKey: KEY })).toThrow(
      /plain http to 10\.0\.0\.8:3000/,
    );
    expect(() =>
      createClient({ baseUrl: "http://api.example.com", apiKey: KEY, insecureHttp: true }),
    ).not.toThrow();
    expect(() => createClient({ baseUrl: "ftp://x", apiKey: KEY })).toThrow(
      expect.objectContaining({ code: "USAGE" }),
    );
    expect(() => createClient({ baseUrl: "https://u:p@api.novu.co", apiKey: KEY })).toThrow(/credentials/);
  });

  it.each([
    ["http://localhost:4010", false],
    ["http://127.0.0.1:3000", false],
    ["http://127.254.0.1", false],
    ["http://[::1]:3000", false],
    ["https://eu.api.novu.co", false],
    ["http://api.novu.co", true],
    ["http://127.0.0.1.nip.io", true],
    ["http://128.0.0.1", true],
    ["http://[::2]", true],
  ])("%s insecure: %s", (url, insecure) => {
    expect(isInsecureUrl(new URL(url))).toBe(insecure);
  });

  it("keeps a base path and drops a trailing slash", async () => {
    const client = createClient({ baseUrl: "https://eu.api.novu.co/prefix/", apiKey: KEY });
    expect(client.baseUrl).toBe("https://eu.api.novu.co/prefix");
    await client.close();
  });
});

describe("stats", () => {
  it("counts requests per method, retries, 429s and failures", async () => {
    const { client } = await harness([
      { status: 429, headers: { "retry-after": "0" } },
      fixture("topics-create-201"),
      fixture("topics-get-unknown-404"),
    ]);
    await client.createTopic({ key: "a", name: "A" });
    await failure(client.getTopic("x"));
    expect(client.stats()).toEqual({
      requests: 3,
      retries: 1,
      rateLimited: 1,
      failures: 1,
      byMethod: { POST: 2, GET: 1 },
    });
  });
});
