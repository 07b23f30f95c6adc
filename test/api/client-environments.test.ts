// The environment, tenant, promotion and branding methods of the client against the emulator
// over real HTTP: answers unwrapped, every page read, a Production key's refusal classified as
// API_DEV_ONLY, a spec-only server's missing routes as API_UNSUPPORTED (remembered, and found by
// a probe that changes nothing), and an apply whose answer was lost retried to one copy.
import { afterEach, describe, expect, it } from "vitest";
import { type EmulatorHandle, type EmulatorOptions, startEmulator } from "../../src/emulator/index.js";
import { type ApiClient, createClient } from "../../src/kinds/client.js";

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((close) => close()));
});

async function setup(options: EmulatorOptions = {}) {
  const emulator = await startEmulator({ seedFile: "examples/emulator-seed.yaml", port: 0, ...options });
  const clientFor = (apiKey: string): ApiClient => {
    const client = createClient({
      baseUrl: emulator.url,
      apiKey,
      sleep: async () => {},
      retry: { maxAttempts: 3 },
    });
    open.push(() => client.close());
    return client;
  };
  open.push(() => emulator.close());
  return { emulator, dev: clientFor(emulator.apiKey), prod: clientFor(emulator.productionApiKey ?? "") };
}

async function failureOf(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  return (await promise.then(
    () => new Error("expected a failure"),
    (e: unknown) => e,
  )) as Error & Record<string, unknown>;
}

const BRANDING = {
  color: "#123456",
  fontColor: "#ffffff",
  contentBackground: "#fafafa",
  fontFamily: "Inter",
  logo: "https://example.com/logo.png",
};

function groupOf(emulator: EmulatorHandle): string {
  return emulator.store().notificationGroups[0]?._id ?? "";
}

describe("environments and tenants", () => {
  it("tells the key's environment apart", async () => {
    const { dev, prod } = await setup();
    const development = await dev.getCurrentEnvironment();
    expect(development.name).toBe("Development");
    expect(await prod.getCurrentEnvironment()).toMatchObject({
      name: "Production",
      _parentId: development._id,
    });
  });

  it("reads a tenant by identifier, and not another environment's", async () => {
    const { dev, prod } = await setup();
    expect(await dev.getTenant("tenant-two")).toMatchObject({
      _id: "650000000000000000000002",
      identifier: "tenant-two",
    });
    expect(await failureOf(prod.getTenant("tenant-two"))).toMatchObject({
      code: "API_NOT_FOUND",
      status: 404,
    });
  });

  it("reads every tenant across pages, each once", async () => {
    const { dev, emulator } = await setup({
      seedFile: "examples/emulator-seed.yaml",
      seed: { environments: { development: { generate: { tenants: 230 } } } },
    });
    const tenants = await dev.listAllTenants(); // 230 generated and the 3 of the seed file
    expect(tenants).toHaveLength(233);
    expect(new Set(tenants.map((t) => t._id)).size).toBe(233);
    expect(emulator.requests.filter((r) => r.path.startsWith("/v1/tenants"))).toHaveLength(3);
  });
});

describe("workflows by identifier and creation", () => {
  it("creates a workflow in Development and reads it back by its identifier", async () => {
    const { dev, emulator } = await setup();
    const created = await dev.createWorkflow({
      name: "Welcome mail",
      notificationGroupId: groupOf(emulator),
      active: true,
      steps: [],
    });
    expect(created.triggers[0]?.identifier).toBe("welcome-mail");
    expect((await dev.getWorkflow("welcome-mail"))._id).toBe(created._id);
    expect(await failureOf(dev.getWorkflow("no-such-flow"))).toMatchObject({ code: "API_NOT_FOUND" });
  });

  it("classifies a Production key's create as API_DEV_ONLY, not a bad key, and sends it once", async () => {
    const { prod, emulator } = await setup();
    const error = await failureOf(
      prod.createWorkflow({ name: "P", notificationGroupId: groupOf(emulator), steps: [] }),
    );
    expect(error).toMatchObject({ code: "API_DEV_ONLY", status: 401, attempts: 1 });
    expect(emulator.requests.filter((r) => r.method === "POST")).toHaveLength(1);
  });

  it("never sends a create again when its answer was lost: the caller reads the identifier back", async () => {
    const { dev, emulator } = await setup();
    emulator.injectFault({ method: "POST", path: "/v1/workflows", kind: "lost-response" });
    const error = await failureOf(
      dev.createWorkflow({ name: "Once", notificationGroupId: groupOf(emulator), steps: [] }),
    );
    expect(error).toMatchObject({ code: "NETWORK", mayHaveBeenApplied: true });
    expect(emulator.requests.filter((r) => r.method === "POST")).toHaveLength(1);
    expect((await dev.getWorkflow("once")).name).toBe("Once");
  });
});

describe("promotion", () => {
  it("lists and counts pending changes, applies one and the rest in bulk, then lists them promoted", async () => {
    const { dev, prod, emulator } = await setup();
    const workflow = await dev.createWorkflow({
      name: "Invoice",
      notificationGroupId: groupOf(emulator),
      steps: [],
    });
    for (const name of ["A", "B"]) await dev.createNotificationGroup({ name });
    // With the fresh organization's DefaultLayout change (r3-q1-01b).
    expect(await dev.countChanges()).toBe(4);
    const changes = await dev.listAllChanges();
    expect(changes.map((c) => c.type)).toEqual([
      "NotificationGroup",
      "NotificationGroup",
      "NotificationTemplate",
      "DefaultLayout",
    ]);
    const workflowChange = changes.find((c) => c._entityId === workflow._id);
    const applied = await dev.applyChange(workflowChange?._id ?? "");
    expect(applied.map((c) => c._id)).toEqual([workflowChange?._id]);
    expect((await prod.getWorkflow("invoice"))._parentId).toBe(workflow._id);
    const rest = changes.filter((c) => c !== workflowChange).map((c) => c._id);
    // Answered in the order the changes were made (the list is newest first), not the order sent.
    expect((await dev.bulkApplyChanges(rest)).map((c) => c._id)).toEqual([...rest].reverse());
    expect(await dev.countChanges()).toBe(0);
    expect(await dev.listAllChanges({ promoted: true })).toHaveLength(4);
    expect(await failureOf(dev.applyChange("ffffffffffffffffffffffff"))).toMatchObject({
      code: "API_NOT_FOUND",
    });
  });

  it("retries an apply whose answer was lost: applied twice, one Production copy", async () => {
    const { dev, emulator } = await setup();
    const workflow = await dev.createWorkflow({
      name: "Lost",
      notificationGroupId: groupOf(emulator),
      steps: [],
    });
    const [change] = await dev.listAllChanges();
    emulator.injectFault({ method: "POST", path: "/v1/changes/*", kind: "lost-response" });
    const applied = await dev.applyChange(change?._id ?? "");
    expect(applied[0]?._entityId).toBe(workflow._id);
    const attempts = emulator.requests.filter((r) => r.path.endsWith("/apply"));
    expect(attempts.map((r) => r.fault ?? r.status)).toEqual(["lost-response", 201]);
    expect(emulator.store("production").workflows.filter((w) => w._parentId === workflow._id)).toHaveLength(
      1,
    );
  });
});

describe("branding", () => {
  it("updates the branding and reads it back; a bad logo is the server's 400", async () => {
    const { dev } = await setup();
    expect(await dev.updateOrganizationBranding(BRANDING)).toEqual(BRANDING);
    expect((await dev.getCurrentOrganization()).branding).toEqual(BRANDING);
    const error = await failureOf(dev.updateOrganizationBranding({ ...BRANDING, logo: "logo.txt" }));
    expect(error).toMatchObject({ code: "API_ERROR", status: 400, validation: true });
  });
});

describe("a spec-only server (strict spec)", () => {
  it("answers every new method API_UNSUPPORTED, remembered, and probes find them missing without writing", async () => {
    const { dev, emulator } = await setup({ strictSpec: true });
    const calls: [string, () => Promise<unknown>][] = [
      ["getCurrentEnvironment", () => dev.getCurrentEnvironment()],
      ["getTenant", () => dev.getTenant("tenant-one")],
      ["listTenants", () => dev.listAllTenants()],
      [
        "createWorkflow",
        () => dev.createWorkflow({ name: "X", notificationGroupId: groupOf(emulator), steps: [] }),
      ],
      ["listChanges", () => dev.listAllChanges()],
      ["countChanges", () => dev.countChanges()],
      ["applyChange", () => dev.applyChange("ffffffffffffffffffffffff")],
      ["bulkApplyChanges", () => dev.bulkApplyChanges(["ffffffffffffffffffffffff"])],
      ["updateOrganizationBranding", () => dev.updateOrganizationBranding(BRANDING)],
    ];
    for (const [name, call] of calls) {
      expect(await failureOf(call()), name).toMatchObject({ code: "API_UNSUPPORTED" });
      expect(dev.capability(name as Parameters<ApiClient["capability"]>[0])).toBe("unsupported");
    }
    const sent = emulator.requests.length;
    expect(await failureOf(dev.countChanges())).toMatchObject({ code: "API_UNSUPPORTED", attempts: 0 });
    expect(emulator.requests).toHaveLength(sent);
  });

  it("probes each new extension on a full server without changing anything", async () => {
    const { dev, emulator } = await setup();
    const before = JSON.stringify([emulator.store(), emulator.store("production")]);
    for (const extension of [
      "getCurrentEnvironment",
      "getTenant",
      "listTenants",
      "createWorkflow",
      "listChanges",
      "countChanges",
      "applyChange",
      "bulkApplyChanges",
      "updateOrganizationBranding",
    ] as const) {
      expect(await dev.probe(extension), extension).toBe(true);
    }
    expect(JSON.stringify([emulator.store(), emulator.store("production")])).toBe(before);
    expect((await dev.getCurrentOrganization()).branding).toBeUndefined();
    // Only the fresh organization's DefaultLayout change: the probes made none.
    expect(await dev.countChanges()).toBe(1);
  });
});
