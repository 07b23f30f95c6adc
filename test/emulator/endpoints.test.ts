// Every endpoint of the spec and every observed extension over real HTTP, with its envelope, its
// status codes and the real server's rules where the spec is silent.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BLUEPRINT, NOTIFICATION, start, T1, T2, W1, W2, W3 } from "./harness.js";

const ERROR_KEYS = ["message", "path", "statusCode", "timestamp"];

describe("authentication and unknown routes", () => {
  it("answers 401 with the real server's messages for a missing header, another scheme and an unknown key", async () => {
    const { call, handle } = await start();
    const missing = await call("GET", "/v1/topics", undefined, null);
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({
      statusCode: 401,
      message: "Missing authorization header",
      path: "/v1/topics",
    });
    const bearer = await fetch(`${handle.url}/v1/topics`, { headers: { authorization: "Bearer abc" } });
    expect(await bearer.json()).toMatchObject({ message: 'Invalid authentication scheme: "Bearer"' });
    expect((await call("GET", "/v1/topics", undefined, "not-a-key")).body.message).toBe("API Key not found");
  });

  it("answers an unknown route 404 'Cannot METHOD path' before looking at the key", async () => {
    const { call } = await start();
    for (const key of [undefined, null]) {
      const answer = await call("GET", "/v1/nothing-here?x=1", undefined, key);
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ message: "Cannot GET /v1/nothing-here", error: "Not Found" });
      expect(Object.keys(answer.body)).toEqual(expect.arrayContaining(ERROR_KEYS));
    }
    expect((await call("DELETE", "/v1/topics/existing-announcements")).body.message).toBe(
      "Cannot DELETE /v1/topics/existing-announcements",
    );
  });

  it("answers a path that is no valid percent-escape 500 in a real server's 500 shape, errorId included", async () => {
    const { call, handle } = await start({ flavor: "real" });
    const real = JSON.parse(
      readFileSync(
        join(import.meta.dirname, "..", "fixtures", "real-responses", "blueprints-get-unknown-500.json"),
        "utf8",
      ),
    ).response.body;
    const answer = await call("GET", "/v1/topics/%E0%A4%A");
    expect(answer.status).toBe(500);
    expect(Object.keys(answer.body).sort()).toEqual(Object.keys(real).sort());
    expect(answer.body).toMatchObject({ message: real.message, path: "/v1/topics/%E0%A4%A" });
    expect(answer.body.errorId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    // The log holds the answer it sent (it said null, as for a dropped connection).
    expect(handle.requests.at(-1)).toMatchObject({ path: "/v1/topics/%E0%A4%A", status: 500 });
  });

  it("refuses a body over 100 kB, but takes up to 20 MB under /v1/workflows", async () => {
    const { call } = await start();
    expect((await call("POST", "/v1/topics", { key: "big", name: "x".repeat(110_000) })).status).toBe(413);
    const description = "d".repeat(200);
    const big = await call("PUT", `/v1/workflows/${W1}`, {
      description,
      data: { blob: "y".repeat(500_000) },
    });
    expect(big.status).toBe(200);
  });

  it("answers a body that is not JSON with 400", async () => {
    const { call } = await start();
    expect((await call("POST", "/v1/topics", "{not json")).status).toBe(400);
  });
});

describe("topics (1-4)", () => {
  it("lists with page, pageSize and totalCount, and filters by exact key", async () => {
    const { call } = await start();
    const all = await call("GET", "/v1/topics");
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ page: 0, pageSize: 10, totalCount: 2 });
    expect(all.body.data.map((t: { key: string }) => t.key)).toEqual([
      "existing-announcements",
      "legacy-alerts",
    ]);
    const second = await call("GET", "/v1/topics?page=1&pageSize=1");
    expect(second.body).toMatchObject({
      page: 1,
      pageSize: 1,
      totalCount: 2,
      data: [{ key: "legacy-alerts" }],
    });
    expect((await call("GET", "/v1/topics?key=legacy-alerts")).body).toMatchObject({ totalCount: 1 });
    expect((await call("GET", "/v1/topics?key=Legacy-alerts")).body).toMatchObject({
      totalCount: 0,
      data: [],
    });
  });

  it("refuses a page size above 10 and negative paging", async () => {
    const { call } = await start();
    const big = await call("GET", "/v1/topics?pageSize=11");
    expect(big).toMatchObject({ status: 400, body: { message: "Page size can not be larger then 10" } });
    expect((await call("GET", "/v1/topics?page=-1")).status).toBe(400);
  });

  it("creates a topic answering 201 with {_id, key} only, and refuses an existing key with 409", async () => {
    const { call } = await start();
    const created = await call("POST", "/v1/topics", { key: "order-updates", name: "Order updates" });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body.data).sort()).toEqual(["_id", "key"]);
    expect(created.body.data._id).toMatch(/^[0-9a-f]{24}$/);
    const again = await call("POST", "/v1/topics", { key: "order-updates", name: "Other" });
    expect(again.status).toBe(409);
    expect(again.body.message).toContain("Topic exists with key order-updates");
    const read = await call("GET", "/v1/topics/order-updates");
    expect(read.body.data).toMatchObject({ key: "order-updates", name: "Order updates", subscribers: [] });
  });

  it("refuses a missing key, a key with a space and an empty name with array messages", async () => {
    const { call } = await start();
    const missing = await call("POST", "/v1/topics", { name: "No key" });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toEqual(["key should not be null or undefined", "key must be a string"]);
    expect((await call("POST", "/v1/topics", { key: "a b", name: "x" })).status).toBe(400);
    expect((await call("POST", "/v1/topics", { key: "ab", name: "" })).status).toBe(400);
  });

  it("renames with PATCH and returns the full topic; unknown keys are 404", async () => {
    const { call } = await start();
    const renamed = await call("PATCH", "/v1/topics/legacy-alerts", { name: "Alerts" });
    expect(renamed.body.data).toMatchObject({
      key: "legacy-alerts",
      name: "Alerts",
      _id: expect.any(String),
    });
    const unknown = await call("PATCH", "/v1/topics/nope", { name: "x" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toContain("Topic not found for id nope");
    expect((await call("GET", "/v1/topics/nope")).status).toBe(404);
  });
});

describe("organizations (5-7)", () => {
  it("serves the organization of the key, lists it, and creates another with 201", async () => {
    const { call } = await start();
    const me = await call("GET", "/v1/organizations/me");
    expect(me.body.data).toMatchObject({ _id: "64f1000000000000000000aa", name: "Acme Inc" });
    const created = await call("POST", "/v1/organizations", { name: "Beta Ltd", logo: "https://x/logo.png" });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: "Beta Ltd", logo: "https://x/logo.png" });
    const list = await call("GET", "/v1/organizations");
    expect(list.body.data.map((o: { name: string }) => o.name)).toEqual(["Acme Inc", "Beta Ltd"]);
    expect((await call("POST", "/v1/organizations", {})).status).toBe(400);
  });
});

describe("blueprints (8)", () => {
  it("returns a blueprint bare by the spec, wrapped in the real flavor, and 404 for an unknown id", async () => {
    const spec = await start();
    const bare = await spec.call("GET", `/v1/blueprints/${BLUEPRINT}`);
    expect(bare.body).toMatchObject({ _id: BLUEPRINT, name: "Welcome e-mail", isBlueprint: true });
    expect(bare.body.data).toBeUndefined();
    expect((await spec.call("GET", "/v1/blueprints/64f1b1e0000000000000ffff")).status).toBe(404);
    const real = await start({ flavor: "real" });
    expect((await real.call("GET", `/v1/blueprints/${BLUEPRINT}`)).body.data).toMatchObject({
      _id: BLUEPRINT,
    });
  });
});

describe("workflow overrides (9-11) and their extensions", () => {
  it("creates (200 by the spec, 201 real) with defaults, and is create-only", async () => {
    const spec = await start();
    const created = await spec.call("POST", "/v1/workflow-overrides", { workflowId: W1, tenantId: T1 });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({
      _workflowId: W1,
      _tenantId: T1,
      active: false,
      deleted: false,
      preferenceSettings: { email: true, sms: true, in_app: true, chat: true, push: true },
    });
    const again = await spec.call("POST", "/v1/workflow-overrides", {
      workflowId: W1,
      tenantId: T1,
      active: true,
    });
    expect(again.status).toBe(409);
    const real = await start({ flavor: "real" });
    expect((await real.call("POST", "/v1/workflow-overrides", { workflowId: W1, tenantId: T1 })).status).toBe(
      201,
    );
  });

  it("refuses malformed ids with 400 and unknown workflows or tenants with 404", async () => {
    const { call } = await start();
    const bad = await call("POST", "/v1/workflow-overrides", { workflowId: W1, tenantId: "tenant-one" });
    expect(bad).toMatchObject({ status: 400, body: { message: ["_tenantId must be a mongodb id"] } });
    expect((await call("POST", "/v1/workflow-overrides", { tenantId: T1 })).status).toBe(400);
    const noWorkflow = { workflowId: "64f1c0ffee000000000000ff", tenantId: T1 };
    expect((await call("POST", "/v1/workflow-overrides", noWorkflow)).status).toBe(404);
    const noTenant = { workflowId: W1, tenantId: "65000000000000000000ffff" };
    expect((await call("POST", "/v1/workflow-overrides", noTenant)).status).toBe(404);
  });

  it("lists with page and limit: nested by the spec, flat in the real flavor", async () => {
    const spec = await start();
    for (const tenantId of [T1, T2])
      await spec.call("POST", "/v1/workflow-overrides", { workflowId: W1, tenantId });
    const nested = await spec.call("GET", "/v1/workflow-overrides?page=0&limit=1");
    expect(nested.body.data).toMatchObject({
      hasMore: true,
      page: 0,
      pageSize: 1,
      data: [{ _tenantId: T1 }],
    });
    const last = await spec.call("GET", "/v1/workflow-overrides?page=1&limit=1");
    expect(last.body.data).toMatchObject({ hasMore: false, data: [{ _tenantId: T2 }] });
    expect((await spec.call("GET", "/v1/workflow-overrides?limit=101")).status).toBe(400);
    expect((await spec.call("GET", "/v1/workflow-overrides?limit=0")).status).toBe(400);

    const real = await start({ flavor: "real" });
    await real.call("POST", "/v1/workflow-overrides", { workflowId: W1, tenantId: T1 });
    const flat = await real.call("GET", "/v1/workflow-overrides");
    expect(flat.body).toMatchObject({ hasMore: false, page: 0, pageSize: 10, data: [{ _tenantId: T1 }] });
  });

  it("reads one by id, 400 for a malformed id and 404 for an unknown one", async () => {
    const { call } = await start();
    const created = await call("POST", "/v1/workflow-overrides", { workflowId: W1, tenantId: T1 });
    const id = created.body.data._id as string;
    expect((await call("GET", `/v1/workflow-overrides/${id}`)).body.data).toEqual(created.body.data);
    expect((await call("GET", "/v1/workflow-overrides/abc")).status).toBe(400);
    const unknown = await call("GET", "/v1/workflow-overrides/64f1c0ffee000000000000ff");
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toContain("Workflow Override with id");
  });

  it("updates by id or by (workflow, tenant), merging channels", async () => {
    const { call } = await start();
    const created = await call("POST", "/v1/workflow-overrides", {
      workflowId: W1,
      tenantId: T1,
      preferenceSettings: { sms: false },
    });
    const id = created.body.data._id as string;
    const byId = await call("PUT", `/v1/workflow-overrides/${id}`, {
      active: true,
      preferenceSettings: { email: false },
    });
    expect(byId.body.data).toMatchObject({
      active: true,
      preferenceSettings: { email: false, sms: false, push: true },
    });
    const pair = `/v1/workflow-overrides/workflows/${W1}/tenants/${T1}`;
    expect((await call("GET", pair)).body.data._id).toBe(id);
    const byPair = await call("PUT", pair, { preferenceSettings: { push: false } });
    expect(byPair.body.data.preferenceSettings).toEqual({
      email: false,
      sms: false,
      in_app: true,
      chat: true,
      push: false,
    });
    expect((await call("GET", `/v1/workflow-overrides/workflows/${W1}/tenants/${T2}`)).status).toBe(404);
    expect((await call("PUT", `/v1/workflow-overrides/${id}`, { active: "yes" })).status).toBe(400);
  });

  it("answers a Production key 401 'only allowed in Development' on every override route", async () => {
    const { call, handle } = await start();
    const key = handle.productionApiKey;
    const routes: [string, string, unknown?][] = [
      ["GET", "/v1/workflow-overrides"],
      ["POST", "/v1/workflow-overrides", { workflowId: W1, tenantId: T1 }],
      ["GET", "/v1/workflow-overrides/64f1c0ffee000000000000ff"],
      ["PUT", "/v1/workflow-overrides/64f1c0ffee000000000000ff", { active: true }],
      ["GET", `/v1/workflow-overrides/workflows/${W1}/tenants/${T1}`],
    ];
    for (const [method, path, body] of routes) {
      const answer = await call(method, path, body, key);
      expect(answer.status, `${method} ${path}`).toBe(401);
      expect(answer.body.message).toBe("This action is only allowed in Development environment");
    }
  });
});

describe("workflows (12-13) and their read extensions", () => {
  it("updates only the fields sent; lists replace; active in the body is ignored", async () => {
    const { call } = await start();
    await call("PUT", `/v1/workflows/${W1}`, {
      tags: ["a", "b"],
      data: { x: 1 },
      preferenceSettings: { sms: false },
    });
    const updated = await call("PUT", `/v1/workflows/${W1}`, {
      name: "Order dispatched",
      tags: ["c"],
      data: { y: 2 },
      preferenceSettings: { email: false },
      active: false,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({
      _id: W1,
      name: "Order dispatched",
      tags: ["c"],
      data: { y: 2 },
      active: true,
      preferenceSettings: { email: false, sms: true },
      notificationGroup: { name: "General" },
    });
    const blank = await call("PUT", `/v1/workflows/${W1}`, { name: "" });
    expect(blank.body.data.name).toBe("Order dispatched");
  });

  it("refuses an empty body, a malformed id, an unknown id and a long description", async () => {
    const { call } = await start();
    expect((await call("PUT", `/v1/workflows/${W1}`, {})).body).toMatchObject({
      statusCode: 400,
      message: "No properties found for update",
    });
    expect((await call("PUT", "/v1/workflows/abc", { name: "x" })).body.message).toEqual([
      "id must be a mongodb id",
    ]);
    const unknown = await call("PUT", "/v1/workflows/64f1c0ffee000000000000ff", { name: "x" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe("Notification template with id 64f1c0ffee000000000000ff not found");
    expect((await call("PUT", `/v1/workflows/${W1}`, { description: "d".repeat(301) })).status).toBe(400);
    // Counted as class-validator counts: an emoji (two UTF-16 units) is one character.
    expect((await call("PUT", `/v1/workflows/${W1}`, { description: "😀".repeat(300) })).status).toBe(200);
    expect((await call("PUT", `/v1/workflows/${W1}`, { description: "😀".repeat(301) })).status).toBe(400);
  });

  it("moves a workflow to another group by id", async () => {
    const { call } = await start();
    const group = (await call("POST", "/v1/notification-groups", { name: "Billing" })).body.data;
    const moved = await call("PUT", `/v1/workflows/${W2}`, { notificationGroupId: group._id });
    expect(moved.body.data).toMatchObject({
      _notificationGroupId: group._id,
      notificationGroup: { name: "Billing" },
    });
    expect(
      (await call("PUT", `/v1/workflows/${W2}`, { notificationGroupId: "64f1c0ffee000000000000ff" })).status,
    ).toBe(404);
  });

  it("changes the status with draft = !active, and refuses the current status", async () => {
    const { call } = await start();
    const activated = await call("PUT", `/v1/workflows/${W3}/status`, { active: true });
    expect(activated.body.data).toMatchObject({ _id: W3, active: true, draft: false });
    const unchanged = await call("PUT", `/v1/workflows/${W3}/status`, { active: true });
    expect(unchanged).toMatchObject({
      status: 400,
      body: { message: "You must provide a different status from the current status" },
    });
    expect((await call("PUT", `/v1/workflows/${W3}/status`, {})).status).toBe(400);
  });

  it("reads a workflow by id or trigger identifier, and lists them paged with a name query", async () => {
    const { call } = await start();
    expect((await call("GET", `/v1/workflows/${W1}`)).body.data).toMatchObject({ name: "Order shipped" });
    expect((await call("GET", "/v1/workflows/password-reset")).body.data).toMatchObject({ _id: W2 });
    expect((await call("GET", "/v1/workflows/no-such-workflow")).status).toBe(404);
    const page = await call("GET", "/v1/workflows?page=0&limit=2");
    expect(page.body).toMatchObject({ totalCount: 3, page: 0, pageSize: 2 });
    expect(page.body.data).toHaveLength(2);
    const found = await call("GET", "/v1/workflows?query=digest");
    expect(found.body).toMatchObject({ totalCount: 1, data: [{ _id: W3 }] });
    expect((await call("GET", "/v1/workflows?limit=101")).status).toBe(400);
  });

  it("keeps each environment's workflows apart, and lets a Production key update but not change status", async () => {
    const { call, handle } = await start();
    const key = handle.productionApiKey;
    await call("PUT", `/v1/workflows/${W1}`, { name: "Renamed in production" }, key);
    expect((await call("GET", `/v1/workflows/${W1}`)).body.data.name).toBe("Order shipped");
    expect((await call("PUT", `/v1/workflows/${W1}/status`, { active: false }, key)).body.message).toBe(
      "This action is only allowed in Development environment",
    );
  });
});

describe("notification groups (14-15) and their read extensions", () => {
  it("creates (200 by the spec, 201 real), twice with the same name, and lists with General first", async () => {
    const { call } = await start();
    const first = await call("POST", "/v1/notification-groups", { name: "Billing" });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ name: "Billing", _id: expect.stringMatching(/^[0-9a-f]{24}$/) });
    expect((await call("POST", "/v1/notification-groups", { name: "Billing" })).status).toBe(200);
    const list = await call("GET", "/v1/notification-groups");
    expect(list.body.data.map((g: { name: string }) => g.name)).toEqual(["General", "Billing", "Billing"]);
    const one = await call("GET", `/v1/notification-groups/${first.body.data._id}`);
    expect(one.body.data).toEqual(list.body.data[1]);
    const real = await start({ flavor: "real" });
    expect((await real.call("POST", "/v1/notification-groups", { name: "Billing" })).status).toBe(201);
  });

  it("renames by id; an unknown id is 404 'Not Found' with no error field", async () => {
    const { call } = await start();
    const group = (await call("POST", "/v1/notification-groups", { name: "Billing" })).body.data;
    const renamed = await call("PATCH", `/v1/notification-groups/${group._id}`, { name: "Invoices" });
    expect(renamed.body.data).toMatchObject({ _id: group._id, name: "Invoices" });
    const unknown = await call("PATCH", "/v1/notification-groups/64f1c0ffee000000000000ff", { name: "x" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe("Not Found");
    expect(unknown.body).not.toHaveProperty("error");
    expect((await call("POST", "/v1/notification-groups", { name: "" })).status).toBe(400);
  });
});

describe("execution details (16) and subscriber preferences (17)", () => {
  it("needs notificationId and subscriberId; unknown subscriber 404, unknown notification empty", async () => {
    const { call } = await start();
    const found = await call(
      "GET",
      `/v1/execution-details?notificationId=${NOTIFICATION}&subscriberId=subscriber-1`,
    );
    expect(found.status).toBe(200);
    expect(found.body.data).toHaveLength(1);
    expect(found.body.data[0]).toMatchObject({
      _notificationId: NOTIFICATION,
      channel: "in_app",
      status: "Success",
    });
    expect((await call("GET", "/v1/execution-details")).status).toBe(400);
    expect((await call("GET", "/v1/execution-details?notificationId=abc&subscriberId=s")).status).toBe(400);
    const other = `/v1/execution-details?notificationId=64f1e0000000000000000fff&subscriberId=subscriber-1`;
    expect((await call("GET", other)).body).toEqual({ data: [] });
    const stranger = `/v1/execution-details?notificationId=${NOTIFICATION}&subscriberId=nobody`;
    expect((await call("GET", stranger)).status).toBe(404);
  });

  it("serves preferences at global and template level; other levels and unknown subscribers are 400", async () => {
    const { call } = await start();
    const template = await call("GET", "/v1/subscribers/subscriber-1/preferences/template");
    expect(template.body.data).toEqual([
      {
        template: { _id: W1, name: "Order shipped", critical: false, triggers: ["order-shipped"] },
        preference: {
          enabled: true,
          channels: { email: true, sms: false, in_app: true, chat: false, push: true },
        },
      },
    ]);
    expect((await call("GET", "/v1/subscribers/subscriber-1/preferences/global")).status).toBe(200);
    const level = await call("GET", "/v1/subscribers/subscriber-1/preferences/weekly");
    expect(level.body.message).toEqual(["parameter must be one of the following values: global, template"]);
    expect((await call("GET", "/v1/subscribers/nobody/preferences/global")).status).toBe(400);
  });
});

describe("strict spec mode", () => {
  it("answers every extension 'Cannot METHOD path' and still serves the 17 endpoints", async () => {
    const { call } = await start({ strictSpec: true });
    const extensions: [string, string, unknown?][] = [
      ["GET", "/v1/notification-groups"],
      ["GET", "/v1/notification-groups/64f1c0ffee000000000000ff"],
      ["GET", `/v1/workflows/${W1}`],
      ["GET", "/v1/workflows?page=0"],
      ["PUT", "/v1/workflow-overrides/64f1c0ffee000000000000ff", { active: true }],
      ["GET", `/v1/workflow-overrides/workflows/${W1}/tenants/${T1}`],
      ["PUT", `/v1/workflow-overrides/workflows/${W1}/tenants/${T1}`, { active: true }],
    ];
    for (const [method, path, body] of extensions) {
      const answer = await call(method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body).toMatchObject({
        message: `Cannot ${method} ${path.split("?")[0]}`,
        error: "Not Found",
      });
    }
    expect((await call("GET", "/v1/topics")).status).toBe(200);
    expect((await call("GET", "/v1/organizations/me")).status).toBe(200);
    expect((await call("POST", "/v1/workflow-overrides", { workflowId: W1, tenantId: T1 })).status).toBe(200);
  });
});
