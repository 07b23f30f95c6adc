// The client against the emulator over real HTTP: every method, each answer checked against
// the spec's field tables (schemas/resources/), and every error path the client must survive
// or report (401, 400, 404, 409, 429 with Retry-After, 5xx then success, a dropped connection
// then success, retries exhausted). The key never appears in any error text.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";
import { type ApiClient, createClient } from "../../src/kinds/client.js";

const SCHEMAS = join(import.meta.dirname, "..", "..", "schemas", "resources");
const ajv = new Ajv2020({ allErrors: true });
for (const file of readdirSync(SCHEMAS)) ajv.addSchema(JSON.parse(readFileSync(join(SCHEMAS, file), "utf8")));

function conforms(resource: string, value: unknown): void {
  const validate = ajv.getSchema(`https://notiform.dev/schemas/resources/${resource}.schema.json`);
  if (!validate) throw new Error(`no schema for ${resource}`);
  expect(validate(value), `${resource}: ${JSON.stringify(validate.errors)}`).toBe(true);
}

async function failureOf(promise: Promise<unknown>): Promise<Error> {
  return (await promise.then(
    () => new Error("expected a failure"),
    (e: unknown) => e,
  )) as Error;
}

const W1 = "64f1c0ffee0000000000a001";
const T1 = "650000000000000000000001";

let emulator: EmulatorHandle;
let client: ApiClient;
const sleeps: number[] = [];

beforeAll(async () => {
  emulator = await startEmulator({ seedFile: "examples/emulator-seed.yaml", port: 0 });
  client = createClient({
    baseUrl: emulator.url,
    apiKey: emulator.apiKey,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    retry: { maxAttempts: 3 },
  });
});
afterAll(async () => {
  await client.close();
  await emulator.close();
});

describe("every method against the emulator, answers per the spec's field tables", () => {
  it("topics (1-4)", async () => {
    const created = await client.createTopic({ key: "contract", name: "Contract" });
    expect(created.key).toBe("contract");
    conforms("topic", await client.getTopic("contract"));
    conforms("topic", await client.renameTopic("contract", { name: "Renamed" }));
    const page = await client.listTopics({ page: 0, pageSize: 10, key: "contract" });
    expect(page).toMatchObject({ totalCount: 1, page: 0, pageSize: 10 });
    for (const topic of page.data) conforms("topic", topic);
    expect((await client.listAllTopics()).map((t) => t.key)).toContain("contract");
  });

  it("organizations (5-7)", async () => {
    conforms("organization", await client.createOrganization({ name: "Second Org" }));
    for (const org of await client.listOrganizations()) conforms("organization", org);
    conforms("organization", await client.getCurrentOrganization());
  });

  it("blueprints (8), execution details (16), subscriber preferences (17)", async () => {
    conforms("blueprint", await client.getBlueprint("64f1b1e0000000000000b001"));
    const details = await client.listExecutionDetails({
      notificationId: "64f1e0000000000000000e01",
      subscriberId: "subscriber-1",
    });
    expect(details).toHaveLength(1);
    for (const detail of details) conforms("execution-detail", detail);
    const preferences = await client.getSubscriberPreferences("subscriber-1", "global");
    expect(preferences.length).toBeGreaterThan(0);
    for (const preference of preferences) conforms("subscriber-preference", preference);
  });

  it("workflow overrides (9-11) and their extensions", async () => {
    const created = await client.createWorkflowOverride({
      workflowId: W1,
      tenantId: T1,
      preferenceSettings: { sms: false },
    });
    conforms("workflow-override", created);
    expect(created).toMatchObject({ _workflowId: W1, _tenantId: T1, active: false });
    conforms("workflow-override", await client.getWorkflowOverride(created._id));
    const page = await client.listWorkflowOverrides({ page: 0, limit: 10 });
    for (const override of page.data) conforms("workflow-override", override);
    conforms("workflow-override", await client.updateWorkflowOverride(created._id, { active: true }));
    conforms("workflow-override", await client.getWorkflowOverrideByPair(W1, T1));
    const byPair = await client.updateWorkflowOverrideByPair(W1, T1, {
      preferenceSettings: { email: false },
    });
    expect(byPair).toMatchObject({ active: true, preferenceSettings: { email: false, sms: false } });
    expect(await client.listAllWorkflowOverrides()).toHaveLength(1);
  });

  it("workflows (12-13) and notification groups (14-15), with their read extensions", async () => {
    const group = await client.createNotificationGroup({ name: "Contract group" });
    conforms("notification-group", group);
    conforms(
      "notification-group",
      await client.renameNotificationGroup(group._id, { name: "Contract group 2" }),
    );
    conforms("notification-group", await client.getNotificationGroup(group._id));
    for (const g of await client.listNotificationGroups()) conforms("notification-group", g);
    const updated = await client.updateWorkflow(W1, {
      name: "Order shipped!",
      notificationGroupId: group._id,
      tags: ["x"],
    });
    conforms("workflow", updated);
    expect(updated).toMatchObject({ name: "Order shipped!", _notificationGroupId: group._id, tags: ["x"] });
    conforms("workflow", await client.updateWorkflowStatus(W1, false));
    conforms("workflow", await client.getWorkflow("order-shipped"));
    const page = await client.listWorkflows({ page: 0, limit: 2 });
    expect(page.totalCount).toBe(3);
    for (const workflow of await client.listAllWorkflows()) conforms("workflow", workflow);
  });
});

describe("error paths over HTTP", () => {
  it("401 for a bad key names the variable and never the key", async () => {
    const bad = createClient({
      baseUrl: emulator.url,
      apiKey: "nf_wrong_SECRET_key",
      apiKeyEnv: "MY_KEY_VAR",
      sleep: async () => {},
    });
    const error = (await bad.getCurrentOrganization().then(
      () => undefined,
      (e: unknown) => e,
    )) as Error & { code: string; hint: string };
    expect(error.code).toBe("API_AUTH");
    expect(error.hint).toContain("MY_KEY_VAR");
    expect(`${error.message}${error.hint}${String(error.stack)}`).not.toContain("nf_wrong_SECRET_key");
    await bad.close();
  });

  it("400, 404 and 409 arrive as typed errors with the server's message", async () => {
    await expect(client.updateWorkflowStatus(W1, false)).rejects.toMatchObject({
      status: 400,
      code: "API_ERROR",
    });
    await expect(client.getTopic("nope")).rejects.toMatchObject({ status: 404, code: "API_NOT_FOUND" });
    await client.createTopic({ key: "twice", name: "Twice" });
    const conflict = await failureOf(client.createTopic({ key: "twice", name: "Twice" }));
    expect(conflict).toMatchObject({ status: 409 });
    expect(conflict.message).toContain("Topic exists with key twice");
    await expect(
      client.createWorkflowOverride({ workflowId: W1, tenantId: "65000000000000000000ffff" }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it("429 with Retry-After, 503 and a dropped connection are retried, then succeed", async () => {
    sleeps.length = 0;
    emulator.injectFault({
      method: "GET",
      path: "/v1/organizations/me",
      kind: { status: 429, retryAfter: 2 },
    });
    emulator.injectFault({ method: "GET", path: "/v1/organizations/me", kind: { status: 503 } });
    expect((await client.getCurrentOrganization()).name).toBe("Acme Inc");
    expect(sleeps[0]).toBeGreaterThanOrEqual(2_000);
    emulator.injectFault({ method: "GET", path: "/v1/topics/existing-announcements", kind: "drop" });
    expect((await client.getTopic("existing-announcements")).name).toBeTypeOf("string");
    // A POST whose 503 came before any work is not retried: the caller decides (it reads back).
    emulator.injectFault({ method: "POST", path: "/v1/topics", kind: { status: 503 } });
    await expect(client.createTopic({ key: "after-503", name: "A" })).rejects.toMatchObject({
      status: 503,
      mayHaveBeenApplied: true,
    });
  });

  it("gives up after the bounded attempts with a clear error", async () => {
    emulator.injectFault({ method: "GET", path: "/v1/topics*", times: 5, kind: { status: 502 } });
    const error = await failureOf(client.listTopics());
    expect(error.message).toMatch(/^GET \/v1\/topics: 502 .*\(after 3 attempts\)$/);
    expect(error.message).not.toContain(emulator.apiKey);
  });
});
