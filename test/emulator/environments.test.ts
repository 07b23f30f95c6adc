// The emulator's two environments over HTTP: which environment a key reaches, per-environment
// records (a Production workflow is its own record pointing at its Development parent), tenants
// by identifier and paged, creating workflows (Development only), the Production key's 401s,
// organization branding, seeds per environment, and every new route gone with --strict-spec.
import { describe, expect, it } from "vitest";
import { start, W1 } from "./harness.js";

const DEV_ONLY = "This action is only allowed in Development environment";
const BRANDING = {
  color: "#123456",
  fontColor: "#ffffff",
  contentBackground: "#fafafa",
  fontFamily: "Inter",
  logo: "https://example.com/logo.png",
};

describe("environments", () => {
  it("names the environment of each key; Production's _parentId is Development's _id", async () => {
    const { call, handle } = await start();
    const development = (await call("GET", "/v1/environments/me")).body.data;
    const production = (await call("GET", "/v1/environments/me", undefined, handle.productionApiKey)).body
      .data;
    expect(development).toMatchObject({ name: "Development", _organizationId: "64f1000000000000000000aa" });
    expect(development._parentId).toBeUndefined();
    expect(production).toMatchObject({ name: "Production", _parentId: development._id });
    expect(production._id).not.toBe(development._id);
    expect(production.identifier).not.toBe(development.identifier);
    expect(handle.store("production").environmentId).toBe(production._id);
  });

  it("keeps a seed's single key in Development", async () => {
    const { call } = await start({
      bare: true,
      seed: { apiKeys: [{ key: "only-key", environment: "development" }] },
    });
    expect((await call("GET", "/v1/environments/me", undefined, "only-key")).body.data.name).toBe(
      "Development",
    );
    const bare = await start({ bare: true });
    expect((await bare.call("GET", "/v1/environments/me")).body.data.name).toBe("Development");
  });

  it("reads a workflow by trigger identifier in each environment: the Production one is its own record", async () => {
    const seed = {
      apiKeys: [
        { key: "dev-key", environment: "development" as const },
        { key: "prod-key", environment: "production" as const },
      ],
      environments: {
        development: {
          workflows: [{ _id: "64f1c0ffee00000000000d01", name: "Signup", identifier: "signup" }],
        },
        production: {
          workflows: [{ _id: "64f1c0ffee00000000000e01", name: "Signup", identifier: "signup" }],
        },
      },
    };
    const { call, handle } = await start({ bare: true, seed, flavor: "real" });
    const dev = (await call("GET", "/v1/workflows/signup")).body.data;
    const prod = (await call("GET", "/v1/workflows/signup", undefined, handle.productionApiKey)).body.data;
    expect(dev._id).toBe("64f1c0ffee00000000000d01");
    expect(prod).toMatchObject({ _id: "64f1c0ffee00000000000e01", _parentId: dev._id });
    expect(prod.triggers[0].identifier).toBe("signup");
    // A seeded Production group stands for the Development one of the same name.
    const devGroup = (await call("GET", "/v1/notification-groups")).body.data[0];
    expect(prod.notificationGroup).toMatchObject({ name: "General", _parentId: devGroup._id });
    expect(await call("GET", "/v1/workflows/no-such-flow")).toMatchObject({
      status: 404,
      body: { message: "Template with id no-such-flow not found", error: "Not Found" },
    });
  });

  it("lists each environment's workflows apart", async () => {
    const { call, handle } = await start({
      seed: {
        environments: { production: { workflows: [{ _id: "64f1c0ffee00000000000e01", name: "Only here" }] } },
      },
    });
    const dev = (await call("GET", "/v1/workflows?page=0&limit=100")).body;
    const prod = (await call("GET", "/v1/workflows?page=0&limit=100", undefined, handle.productionApiKey))
      .body;
    expect(dev.totalCount).toBe(3);
    expect(prod).toMatchObject({ totalCount: 1, page: 0, pageSize: 100 });
    expect(prod.data[0]).toMatchObject({
      name: "Only here",
      workflowIntegrationStatus: { hasActiveIntegrations: false },
    });
  });
});

describe("tenants", () => {
  it("reads a tenant by identifier; another environment's tenant is 404", async () => {
    const { call, handle } = await start();
    const tenant = await call("GET", "/v1/tenants/tenant-one");
    expect(tenant.status).toBe(200);
    expect(tenant.body.data).toMatchObject({
      _id: "650000000000000000000001",
      identifier: "tenant-one",
      name: "Tenant One",
      _environmentId: handle.store().environmentId,
    });
    const production = await call("GET", "/v1/tenants/tenant-one", undefined, handle.productionApiKey);
    expect(production).toMatchObject({
      status: 404,
      body: {
        message: `Tenant with identifier: tenant-one does not exist under environment ${handle.store("production").environmentId}`,
      },
    });
  });

  it("lists tenants newest first in flat pages whose hasMore is a full page (r3-q4-07, -08)", async () => {
    const { call } = await start({
      bare: true,
      seed: { environments: { development: { generate: { tenants: 5 } } } },
    });
    const first = (await call("GET", "/v1/tenants?page=0&limit=2")).body;
    expect(first).toMatchObject({ page: 0, pageSize: 2, hasMore: true });
    expect(first.data.map((t: { identifier: string }) => t.identifier)).toEqual(["tenant-5", "tenant-4"]);
    const last = (await call("GET", "/v1/tenants?page=2&limit=2")).body;
    expect(last).toMatchObject({ hasMore: false, data: [{ identifier: "tenant-1" }] });
    expect((await call("GET", "/v1/tenants?limit=101")).status).toBe(400);
  });
});

describe("creating workflows (Development only)", () => {
  it("creates with 201: identifier from the name, a message template per step, group joined", async () => {
    const { call, handle } = await start();
    const general = handle.store().notificationGroups[0]?._id;
    const body = {
      name: "Order shipped",
      notificationGroupId: general,
      active: true,
      tags: ["orders"],
      steps: [
        { name: "In-app", template: { type: "in_app", content: "Hi" } },
        { name: "Email", template: { type: "email", subject: "S", content: "Hi" } },
      ],
    };
    const created = await call("POST", "/v1/workflows", body);
    expect(created.status).toBe(201);
    const workflow = created.body.data;
    // "order-shipped" is the seed's: the new one gets a suffix.
    expect(workflow).toMatchObject({ name: "Order shipped", active: true, draft: false, tags: ["orders"] });
    expect(workflow.triggers[0].identifier).toBe("order-shipped-2");
    expect(workflow.notificationGroup._id).toBe(general);
    const [first, second] = workflow.steps;
    expect(first).toMatchObject({
      _id: first.template._id,
      _templateId: first.template._id,
      _parentId: null,
    });
    expect(second._parentId).toBe(first._id);
    expect(second.template).toMatchObject({
      type: "email",
      subject: "S",
      _environmentId: handle.store().environmentId,
    });
    expect((await call("GET", "/v1/workflows/order-shipped-2")).body.data._id).toBe(workflow._id);
  });

  it("refuses a missing name or group with 400 and an unknown group with 404", async () => {
    const { call } = await start();
    const invalid = await call("POST", "/v1/workflows", { steps: [] });
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toEqual([
      "name should not be empty",
      "notificationGroupId must be a mongodb id",
    ]);
    const unknown = await call("POST", "/v1/workflows", {
      name: "X",
      notificationGroupId: "ffffffffffffffffffffffff",
      steps: [],
    });
    expect(unknown.status).toBe(404);
  });

  it("answers a Production key 401 on create, status and every override route, reads included", async () => {
    const { call, handle } = await start();
    const key = handle.productionApiKey;
    const group = handle.store("production").notificationGroups[0]?._id;
    // Production's copy of W1: another id (ids differ per environment).
    const P1 = handle.store("production").workflows.find((w) => w._parentId === W1)?._id;
    expect(P1).toBeDefined();
    expect(P1).not.toBe(W1);
    const refused = [
      await call("POST", "/v1/workflows", { name: "P", notificationGroupId: group, steps: [] }, key),
      await call("PUT", `/v1/workflows/${P1}/status`, { active: false }, key),
      await call("GET", "/v1/workflow-overrides?page=0&limit=10", undefined, key),
      await call("GET", "/v1/workflow-overrides/ffffffffffffffffffffffff", undefined, key),
    ];
    for (const answer of refused) expect(answer).toMatchObject({ status: 401, body: { message: DEV_ONLY } });
    expect(handle.store("production").workflows).toHaveLength(3);
    // What a Production key may do.
    expect((await call("PUT", `/v1/workflows/${P1}`, { tags: ["prod-edit"] }, key)).status).toBe(200);
    // Development's id is unknown to a Production key.
    expect((await call("PUT", `/v1/workflows/${W1}`, { tags: ["prod-edit"] }, key)).status).toBe(404);
    expect((await call("POST", "/v1/topics", { key: "prod-topic", name: "P" }, key)).status).toBe(201);
  });
});

describe("organization branding", () => {
  it("updates the branding (200) and shows it on organizations/me", async () => {
    const { call } = await start();
    const updated = await call("PUT", "/v1/organizations/branding", { ...BRANDING, direction: "rtl" });
    expect(updated).toMatchObject({ status: 200, body: { data: { ...BRANDING, direction: "rtl" } } });
    expect((await call("GET", "/v1/organizations/me")).body.data).toMatchObject({
      name: "Acme Inc",
      branding: { ...BRANDING, direction: "rtl" },
    });
  });

  it("refuses a logo that is not an image URL with the real server's messages", async () => {
    const { call } = await start();
    const IMAGE =
      "Logo must be a valid image URL with one of the following extensions: jpg, jpeg, png, gif, svg";
    // Not a URL at all: both messages (a captured ""); a URL that is not an image: one (r3-q5-12).
    for (const [logo, messages] of [
      ["", [IMAGE, "logo must be a URL address"]],
      ["not a url.png", [IMAGE, "logo must be a URL address"]],
      ["https://example.com/logo.txt", [IMAGE]],
      // IsImageUrl: the text after the last dot, exactly (image.validator.ts in Novu's source).
      ["https://example.com/logo.png?v=2", [IMAGE]],
      ["https://example.com/logo.PNG", [IMAGE]],
    ] as const) {
      const refused = await call("PUT", "/v1/organizations/branding", { ...BRANDING, logo });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toEqual(messages);
    }
    expect((await call("GET", "/v1/organizations/me")).body.data.branding).toBeUndefined();
  });
});

describe("strict spec mode", () => {
  it("answers every environment, tenant, create, promotion and branding route 'Cannot METHOD path'", async () => {
    const { call } = await start({ strictSpec: true });
    const routes: [string, string][] = [
      ["GET", "/v1/environments/me"],
      ["GET", "/v1/tenants"],
      ["GET", "/v1/tenants/tenant-one"],
      ["POST", "/v1/workflows"],
      ["GET", "/v1/changes"],
      ["GET", "/v1/changes/count"],
      ["POST", "/v1/changes/ffffffffffffffffffffffff/apply"],
      ["POST", "/v1/changes/bulk/apply"],
      ["PUT", "/v1/organizations/branding"],
    ];
    for (const [method, path] of routes) {
      const answer = await call(method, path, method === "GET" ? undefined : {});
      expect(answer, `${method} ${path}`).toMatchObject({
        status: 404,
        body: { message: `Cannot ${method} ${path}`, error: "Not Found" },
      });
    }
  });
});
