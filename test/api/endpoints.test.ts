// Every endpoint method against real captured responses (test/fixtures/real-responses): the
// request it sends (method, path, headers, body) and what it returns from the real body.
import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "../../src/kinds/client.js";
import { type FakeServer, fixture, type Reply, startFakeServer } from "./helpers/fake-server.js";

const KEY = "nf_test_key_0123456789";
let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function clientAnswering(...replies: Reply[]) {
  server = await startFakeServer((_req, i) => replies[Math.min(i, replies.length - 1)] ?? { status: 500 });
  return createClient({ baseUrl: server.url, apiKey: KEY, sleep: async () => {} });
}

const W = "6b02c10ed413275d06fb3248";
const T = "6b02c579d413275d06fb4952";

describe("spec endpoints on real bodies", () => {
  it("1 listTopics: GET /v1/topics with page and pageSize", async () => {
    const client = await clientAnswering(fixture("topics-list-200"));
    const page = await client.listTopics({ page: 0, pageSize: 10 });
    expect(server?.requests[0]).toMatchObject({ method: "GET", path: "/v1/topics?page=0&pageSize=10" });
    expect(page.data.length).toBeGreaterThan(0);
    expect(typeof page.totalCount).toBe("number");
  });

  it("2 getTopic, 3 createTopic, 4 renameTopic", async () => {
    const client = await clientAnswering(
      fixture("topics-get-200"),
      fixture("topics-create-201"),
      fixture("topics-rename-200"),
    );
    const topic = await client.getTopic("order updates/x");
    expect(server?.requests[0]?.path).toBe("/v1/topics/order%20updates%2Fx");
    expect(topic.key).toBe((fixture("topics-get-200").body as { data: { key: string } }).data.key);
    const created = await client.createTopic({ key: "k1", name: "Name" });
    expect(created).toEqual((fixture("topics-create-201").body as { data: unknown }).data);
    expect(server?.requests[1]).toMatchObject({
      method: "POST",
      path: "/v1/topics",
      body: { key: "k1", name: "Name" },
    });
    const renamed = await client.renameTopic("k1", { name: "New" });
    expect(server?.requests[2]).toMatchObject({
      method: "PATCH",
      path: "/v1/topics/k1",
      body: { name: "New" },
    });
    expect(renamed.name).toBe((fixture("topics-rename-200").body as { data: { name: string } }).data.name);
  });

  it("5 createOrganization, 6 listOrganizations, 7 getCurrentOrganization", async () => {
    const me = fixture("organizations-me-200");
    const client = await clientAnswering(
      { status: 201, body: me.body },
      fixture("organizations-list-200"),
      me,
    );
    expect((await client.createOrganization({ name: "Org" })).name).toBeTypeOf("string");
    expect(server?.requests[0]).toMatchObject({ method: "POST", path: "/v1/organizations" });
    expect(Array.isArray(await client.listOrganizations())).toBe(true);
    expect((await client.getCurrentOrganization()).name).toBe(
      (me.body as { data: { name: string } }).data.name,
    );
    expect(server?.requests[2]?.path).toBe("/v1/organizations/me");
  });

  it("8 getBlueprint: bare as the spec says, or wrapped as real servers answer", async () => {
    const blueprint = { _id: "b1", name: "Welcome", isBlueprint: true };
    const client = await clientAnswering(
      { status: 200, body: blueprint },
      { status: 200, body: { data: blueprint } },
    );
    expect(await client.getBlueprint("b1")).toEqual(blueprint);
    expect(await client.getBlueprint("b1")).toEqual(blueprint);
    expect(server?.requests[0]?.path).toBe("/v1/blueprints/b1");
  });

  it("9 listWorkflowOverrides: the real flat envelope and the spec's nested one", async () => {
    const flat = fixture("workflow-overrides-list-200-flat-envelope");
    const flatBody = flat.body as { data: unknown[]; hasMore: boolean; page: number; pageSize: number };
    const nested = { status: 200, body: { data: flatBody } };
    const client = await clientAnswering(flat, nested);
    const a = await client.listWorkflowOverrides({ page: 0, limit: 2 });
    const b = await client.listWorkflowOverrides({ page: 0, limit: 2 });
    expect(server?.requests[0]?.path).toBe("/v1/workflow-overrides?page=0&limit=2");
    expect(a).toEqual(b);
    expect(a.data).toHaveLength(flatBody.data.length);
    expect(a.hasMore).toBe(flatBody.hasMore);
  });

  it("10 createWorkflowOverride (201 or 200), 11 getWorkflowOverride", async () => {
    const created = fixture("workflow-overrides-create-201");
    const client = await clientAnswering(
      created,
      { status: 200, body: created.body },
      fixture("workflow-overrides-get-200"),
    );
    const a = await client.createWorkflowOverride({ workflowId: W, tenantId: T, active: false });
    const b = await client.createWorkflowOverride({ workflowId: W, tenantId: T });
    expect(a).toEqual(b);
    expect(server?.requests[0]).toMatchObject({
      method: "POST",
      path: "/v1/workflow-overrides",
      body: { workflowId: W, tenantId: T, active: false },
    });
    const got = await client.getWorkflowOverride("6b02c579d413275d06fb495c");
    expect(got._id).toBeTypeOf("string");
  });

  it("12 updateWorkflow and 13 updateWorkflowStatus", async () => {
    const client = await clientAnswering(fixture("workflows-update-200"), fixture("workflows-status-200"));
    const updated = await client.updateWorkflow(W, { name: "Renamed", tags: ["a"] });
    expect(server?.requests[0]).toMatchObject({
      method: "PUT",
      path: `/v1/workflows/${W}`,
      body: { name: "Renamed", tags: ["a"] },
    });
    expect(updated._id).toBeTypeOf("string");
    const status = await client.updateWorkflowStatus(W, false);
    expect(server?.requests[1]).toMatchObject({
      method: "PUT",
      path: `/v1/workflows/${W}/status`,
      body: { active: false },
    });
    expect(status.active).toBeTypeOf("boolean");
  });

  it("14 createNotificationGroup and 15 renameNotificationGroup", async () => {
    const client = await clientAnswering(
      fixture("notification-groups-create-201"),
      fixture("notification-groups-rename-200"),
    );
    const group = await client.createNotificationGroup({ name: "Billing" });
    expect(server?.requests[0]).toMatchObject({
      method: "POST",
      path: "/v1/notification-groups",
      body: { name: "Billing" },
    });
    const renamed = await client.renameNotificationGroup(group._id, { name: "Billing 2" });
    expect(server?.requests[1]).toMatchObject({
      method: "PATCH",
      path: `/v1/notification-groups/${group._id}`,
    });
    expect(renamed._id).toBeTypeOf("string");
  });

  it("16 listExecutionDetails and 17 getSubscriberPreferences", async () => {
    const detail = { _id: "d1", channel: "in_app", status: "Success" };
    const preference = {
      template: { _id: W, name: "W", critical: false, triggers: ["w"] },
      preference: { enabled: true, channels: { email: true } },
    };
    const client = await clientAnswering(
      { status: 200, body: { data: [detail] } },
      { status: 200, body: { data: [preference] } },
    );
    expect(await client.listExecutionDetails({ notificationId: W, subscriberId: "s 1" })).toEqual([detail]);
    expect(server?.requests[0]?.path).toBe(`/v1/execution-details?notificationId=${W}&subscriberId=s+1`);
    expect(await client.getSubscriberPreferences("s1", "template")).toEqual([preference]);
    expect(server?.requests[1]?.path).toBe("/v1/subscribers/s1/preferences/template");
  });
});

describe("observed extensions on real bodies", () => {
  it("lists groups, reads a workflow, updates an override by id and by pair", async () => {
    const client = await clientAnswering(
      fixture("ext-notification-groups-list-200"),
      fixture("ext-workflows-get-200"),
      fixture("ext-workflow-overrides-update-200"),
      fixture("ext-workflow-overrides-update-200"),
      fixture("workflow-overrides-get-200"),
    );
    expect((await client.listNotificationGroups()).length).toBeGreaterThan(0);
    expect((await client.getWorkflow(W))._id).toBeTypeOf("string");
    await client.updateWorkflowOverride("6b02c579d413275d06fb495c", { active: true });
    await client.updateWorkflowOverrideByPair(W, T, { preferenceSettings: { sms: false } });
    await client.getWorkflowOverrideByPair(W, T);
    expect(server?.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /v1/notification-groups",
      `GET /v1/workflows/${W}`,
      "PUT /v1/workflow-overrides/6b02c579d413275d06fb495c",
      `PUT /v1/workflow-overrides/workflows/${W}/tenants/${T}`,
      `GET /v1/workflow-overrides/workflows/${W}/tenants/${T}`,
    ]);
    expect(client.capability("listNotificationGroups")).toBe("supported");
  });
});

describe("every request", () => {
  it("carries the key in the Authorization header, a User-Agent, JSON on bodies, and a fresh Idempotency-Key per POST", async () => {
    const client = await clientAnswering(fixture("topics-create-201"));
    await client.createTopic({ key: "a", name: "A" });
    await client.createTopic({ key: "b", name: "B" });
    await client.getCurrentOrganization().catch(() => undefined);
    const [first, second, get] = server?.requests ?? [];
    expect(first?.headers.authorization).toBe(`ApiKey ${KEY}`);
    expect(first?.headers["user-agent"]).toMatch(/^notiform\/\d+\.\d+\.\d+/);
    expect(first?.headers["content-type"]).toBe("application/json");
    expect(first?.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(second?.headers["idempotency-key"]).not.toBe(first?.headers["idempotency-key"]);
    expect(get?.headers["idempotency-key"]).toBeUndefined();
    expect(get?.headers["content-type"]).toBeUndefined();
  });

  it("refuses, before sending, what real servers answer with a 500", async () => {
    const client = await clientAnswering(fixture("topics-create-201"));
    await expect(client.createTopic({ key: "has space", name: "A" })).rejects.toMatchObject({
      code: "REQUEST_INVALID",
    });
    await expect(client.createTopic({ key: "ok", name: " " })).rejects.toMatchObject({
      code: "REQUEST_INVALID",
    });
    await expect(client.updateWorkflow("abc", { name: "x" })).rejects.toMatchObject({
      code: "REQUEST_INVALID",
    });
    await expect(client.updateWorkflow(W, {})).rejects.toMatchObject({ code: "REQUEST_INVALID" });
    expect(server?.requests).toHaveLength(0);
  });

  it("refuses plain http to a non-loopback host unless told otherwise", () => {
    expect(() => createClient({ baseUrl: "http://api.example.com", apiKey: KEY })).toThrow(
      /refusing to send the API key over plain http/,
    );
    expect(() =>
      createClient({ baseUrl: "http://api.example.com", apiKey: KEY, insecureHttp: true }),
    ).not.toThrow();
    expect(() => createClient({ baseUrl: "http://localhost:4010", apiKey: KEY })).not.toThrow();
    expect(() => createClient({ baseUrl: "https://eu.api.novu.co", apiKey: KEY })).not.toThrow();
  });
});
