// The observed extensions: a missing route ("Cannot <METHOD> ...", 405, 501) is remembered as
// unsupported and later calls fail fast without a request; any answer from the route is
// remembered as supported; probe() finds out with reads that cannot touch a real record, and
// never sends a write.
import { afterEach, describe, expect, it } from "vitest";
import { ApiError } from "../../src/api/index.js";
import type { Extension } from "../../src/kinds/notification-api.js";
import { fixture, type Reply } from "./helpers/fake-server.js";
import { closeAll, failure, harness, T, W } from "./helpers/harness.js";

afterEach(closeAll);

const ZERO = "000000000000000000000000";
const cannot = (method: string, path: string): Reply => ({
  status: 404,
  body: { statusCode: 404, message: `Cannot ${method} ${path}`, error: "Not Found" },
});

describe("remembered capabilities", () => {
  it.each([
    ["a 'Cannot GET' 404", cannot("GET", `/v1/workflows/${W}`)],
    ["a 405", { status: 405, body: { message: "Method Not Allowed" } }],
    ["a 501", { status: 501, body: { message: "Not Implemented" } }],
  ] as [string, Reply][])(
    "%s makes the extension unsupported; the next call sends nothing",
    async (_label, reply) => {
      const { client, server } = await harness([reply, fixture("ext-workflows-get-200")]);
      expect(client.capability("getWorkflow")).toBe("unknown");
      const first = await failure<ApiError>(client.getWorkflow(W));
      expect(first).toMatchObject({ code: "API_UNSUPPORTED", attempts: 1 });
      expect(client.capability("getWorkflow")).toBe("unsupported");
      const second = await failure<ApiError>(client.getWorkflow("another"));
      expect(second).toBeInstanceOf(ApiError);
      expect(second).toMatchObject({ code: "API_UNSUPPORTED", attempts: 0, path: "/v1/workflows/another" });
      expect(second.message).toContain("not sent");
      expect(server.requests).toHaveLength(1);
      expect(client.stats().requests).toBe(1);
    },
  );

  it("each extension is remembered on its own", async () => {
    const { client, server } = await harness([
      cannot("PUT", `/v1/workflow-overrides/${ZERO}`),
      fixture("ext-workflow-overrides-update-200"),
    ]);
    await failure(client.updateWorkflowOverride(ZERO, { active: true }));
    await client.updateWorkflowOverrideByPair(W, T, { active: true });
    expect(client.capability("updateWorkflowOverride")).toBe("unsupported");
    expect(client.capability("updateWorkflowOverrideByPair")).toBe("supported");
    expect(server.requests).toHaveLength(2);
  });

  it("a record 404 or a 400 from the route means the route exists", async () => {
    const { client } = await harness([
      fixture("workflow-overrides-get-unknown-404"),
      fixture("workflows-update-bad-id-400"),
    ]);
    expect(await failure(client.getWorkflowOverrideByPair(W, T))).toMatchObject({ code: "API_NOT_FOUND" });
    expect(client.capability("getWorkflowOverrideByPair")).toBe("supported");
    await failure(client.getNotificationGroup("x"));
    expect(client.capability("getNotificationGroup")).toBe("supported");
  });

  it("a network failure or a bad key teaches nothing", async () => {
    const { client } = await harness(["reset-after-body", fixture("auth-bad-key-401")], {
      retry: { maxAttempts: 1 },
    });
    await failure(client.listNotificationGroups());
    await failure(client.listNotificationGroups());
    expect(client.capability("listNotificationGroups")).toBe("unknown");
  });
});

describe("probe", () => {
  const PROBES: [Extension, string, unknown][] = [
    ["listNotificationGroups", "GET /v1/notification-groups", undefined],
    ["getNotificationGroup", `GET /v1/notification-groups/${ZERO}`, undefined],
    ["getWorkflow", `GET /v1/workflows/${ZERO}`, undefined],
    ["listWorkflows", "GET /v1/workflows?page=0&limit=1", undefined],
    ["getWorkflowOverrideByPair", `GET /v1/workflow-overrides/workflows/${ZERO}/tenants/${ZERO}`, undefined],
  ];

  it.each(PROBES)("%s: %s names no real record and changes nothing", async (extension, request, body) => {
    const [method = "", path = ""] = request.split(" ");
    const { client, server } = await harness([
      { status: 404, body: { statusCode: 404, message: "Not found", error: "Not Found" } },
      cannot(method, path),
    ]);
    expect(await client.probe(extension)).toBe(true);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([request]);
    expect(server.requests[0]?.body).toEqual(body);
    // Known now: no second request.
    expect(await client.probe(extension)).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it.each(["updateWorkflowOverride", "updateWorkflowOverrideByPair"] as Extension[])(
    "%s (a write) is never probed: assumed served until a first use says otherwise",
    async (extension) => {
      const { client, server } = await harness([
        cannot("PUT", `/v1/workflow-overrides/${W}`),
        cannot("PUT", `/v1/workflow-overrides/workflows/${W}/tenants/${T}`),
      ]);
      expect(await client.probe(extension)).toBe(true);
      expect(server.requests).toHaveLength(0);
      expect(client.capability(extension)).toBe("unknown");
      // The first real use teaches it; probe() then answers from that.
      const use =
        extension === "updateWorkflowOverride"
          ? client.updateWorkflowOverride(W, { active: true })
          : client.updateWorkflowOverrideByPair(W, T, { active: true });
      expect(await failure(use)).toMatchObject({ code: "API_UNSUPPORTED" });
      expect(await client.probe(extension)).toBe(false);
      expect(server.requests).toHaveLength(1);
    },
  );

  it("a missing route probes false and is remembered", async () => {
    const { client, server } = await harness([cannot("GET", "/v1/notification-groups")]);
    expect(await client.probe("listNotificationGroups")).toBe(false);
    expect(await client.probe("listNotificationGroups")).toBe(false);
    await expect(client.listNotificationGroups()).rejects.toMatchObject({ code: "API_UNSUPPORTED" });
    expect(server.requests).toHaveLength(1);
  });

  it("a list probe that succeeds is supported", async () => {
    const { client } = await harness([fixture("ext-notification-groups-list-200")]);
    expect(await client.probe("listNotificationGroups")).toBe(true);
    expect(client.capability("listNotificationGroups")).toBe("supported");
  });

  it("rethrows what says nothing about the route (a bad key, the network)", async () => {
    const { client } = await harness([fixture("auth-bad-key-401")]);
    await expect(client.probe("getWorkflow")).rejects.toMatchObject({ code: "API_AUTH" });
    expect(client.capability("getWorkflow")).toBe("unknown");
  });
});
