// The emulator's own rules and tools: spec envelopes vs the real flavour, strict-spec mode,
// development-only routes, create-only overrides, seeded faults that repeat, the rate limiter's
// headers, lost responses, idempotency replay, and persistence with a data file.
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type EmulatorHandle, type EmulatorOptions, startEmulator } from "../../src/emulator/index.js";

const SEED = "examples/emulator-seed.yaml";
const W1 = "64f1c0ffee0000000000a001";
const W2 = "64f1c0ffee0000000000a002";
const T1 = "650000000000000000000001";

let emulator: EmulatorHandle | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function start(options: EmulatorOptions = {}) {
  emulator = await startEmulator({ seedFile: SEED, port: 0, ...options });
  const handle = emulator;
  const call = async (method: string, path: string, body?: unknown, key = handle.apiKey) => {
    const response = await fetch(`${handle.url}${path}`, {
      method,
      headers: {
        authorization: `ApiKey ${key}`,
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text === "" ? undefined : (JSON.parse(text) as Record<string, unknown>),
    };
  };
  return { handle, call };
}

describe("envelopes and status codes", () => {
  it("follows the spec by default: 200 creates, nested override list, bare blueprint", async () => {
    const { call } = await start();
    expect((await call("POST", "/v1/workflow-overrides", { workflowId: W1, tenantId: T1 })).status).toBe(200);
    expect((await call("POST", "/v1/notification-groups", { name: "G" })).status).toBe(200);
    const list = await call("GET", "/v1/workflow-overrides");
    expect(list.body?.data).toMatchObject({ hasMore: false, page: 0, pageSize: 10 });
    const blueprint = await call("GET", "/v1/blueprints/64f1b1e0000000000000b001");
    expect(blueprint.body).toMatchObject({ _id: "64f1b1e0000000000000b001", name: "Welcome e-mail" });
  });

  it("answers like a real server with flavor real", async () => {
    const { call } = await start({ flavor: "real" });
    expect((await call("POST", "/v1/workflow-overrides", { workflowId: W1, tenantId: T1 })).status).toBe(201);
    const list = await call("GET", "/v1/workflow-overrides");
    expect(Array.isArray(list.body?.data)).toBe(true);
    expect(list.body).toMatchObject({ hasMore: false, page: 0, pageSize: 10 });
    expect((await call("GET", "/v1/blueprints/64f1b1e0000000000000b001")).body?.data).toMatchObject({
      name: "Welcome e-mail",
    });
  });

  it("serves only the 17 spec endpoints in strict-spec mode", async () => {
    const { call } = await start({ strictSpec: true });
    const missing = await call("GET", "/v1/notification-groups");
    expect(missing).toMatchObject({
      status: 404,
      body: { message: "Cannot GET /v1/notification-groups", error: "Not Found" },
    });
    expect((await call("GET", `/v1/workflows/${W1}`)).status).toBe(404);
    expect((await call("GET", "/v1/topics")).status).toBe(200);
  });
});

describe("rules where the spec is silent", () => {
  it("keeps overrides create-only, defaults channels on and active off, merges updates", async () => {
    const { call } = await start();
    const created = await call("POST", "/v1/workflow-overrides", {
      workflowId: W1,
      tenantId: T1,
      preferenceSettings: { sms: false },
    });
    expect(created.body?.data).toMatchObject({
      active: false,
      preferenceSettings: { email: true, sms: false, in_app: true, chat: true, push: true },
    });
    expect((await call("POST", "/v1/workflow-overrides", { workflowId: W1, tenantId: T1 })).status).toBe(409);
    const id = (created.body?.data as { _id: string } | undefined)?._id;
    const updated = await call("PUT", `/v1/workflow-overrides/${id}`, {
      preferenceSettings: { email: false },
    });
    expect(updated.body?.data).toMatchObject({ preferenceSettings: { email: false, sms: false } });
    expect(
      (await call("POST", "/v1/workflow-overrides", { workflowId: W1, tenantId: "65000000000000000000ffff" }))
        .status,
    ).toBe(404);
  });

  it("refuses an unchanged workflow status, and Production keys on development-only routes", async () => {
    const { call, handle } = await start();
    expect((await call("PUT", `/v1/workflows/${W1}/status`, { active: true })).body?.message).toBe(
      "You must provide a different status from the current status",
    );
    const changed = await call("PUT", `/v1/workflows/${W1}/status`, { active: false });
    expect(changed.body?.data).toMatchObject({ active: false, draft: true });
    const production = await call(
      "PUT",
      `/v1/workflows/${W1}/status`,
      { active: true },
      handle.productionApiKey,
    );
    expect(production).toMatchObject({
      status: 401,
      body: { message: "This action is only allowed in Development environment" },
    });
    expect((await call("GET", "/v1/workflow-overrides", undefined, handle.productionApiKey)).status).toBe(
      401,
    );
    expect((await call("GET", "/v1/topics", undefined, handle.productionApiKey)).status).toBe(200);
  });

  it("replaces workflow lists and refuses an empty update or a taken identifier", async () => {
    const { call } = await start();
    await call("PUT", `/v1/workflows/${W1}`, { tags: ["a", "b"] });
    const replaced = await call("PUT", `/v1/workflows/${W1}`, { tags: ["c"], active: false });
    expect(replaced.body?.data).toMatchObject({ tags: ["c"], active: true });
    expect((await call("PUT", `/v1/workflows/${W1}`, {})).body?.message).toBe(
      "No properties found for update",
    );
    expect((await call("PUT", "/v1/workflows/abc", { name: "x" })).body?.message).toEqual([
      "id must be a mongodb id",
    ]);
    // UpdateWorkflow refuses another workflow's trigger identifier, and changes nothing.
    const identifierOf = async (id: string) => {
      const { body } = await call("GET", `/v1/workflows/${id}`);
      return (body as { data: { triggers: { identifier: string }[] } }).data.triggers[0]?.identifier;
    };
    const taken = await identifierOf(W2);
    const own = await identifierOf(W1);
    const refused = await call("PUT", `/v1/workflows/${W1}`, { identifier: taken, tags: ["d"] });
    expect(refused.status).toBe(400);
    expect(refused.body?.message).toBe(`Workflow with identifier ${taken} already exists`);
    expect((await call("GET", `/v1/workflows/${W1}`)).body?.data).toMatchObject({
      tags: ["c"],
      triggers: [{ identifier: own }],
    });
    expect((await call("PUT", `/v1/workflows/${W1}`, { identifier: own })).status).toBe(200);
  });

  it("answers unknown keys and schemes like a real server, and refuses big bodies", async () => {
    const { call, handle } = await start();
    expect((await call("GET", "/v1/topics", undefined, "nope")).body?.message).toBe("API Key not found");
    const scheme = await fetch(`${handle.url}/v1/topics`, { headers: { authorization: "Bearer x" } });
    expect(((await scheme.json()) as { message: string }).message).toBe(
      'Invalid authentication scheme: "Bearer"',
    );
    expect((await call("POST", "/v1/topics", { key: "k", name: "x".repeat(200_000) })).status).toBe(413);
  });
});

describe("faults", () => {
  it("repeats the same faults for the same seed", async () => {
    const run = async () => {
      const { call } = await start({ errorRate: 0.3, faultSeed: 7 });
      const statuses: number[] = [];
      for (let i = 0; i < 30; i += 1) statuses.push((await call("GET", "/v1/topics")).status);
      await emulator?.close();
      emulator = undefined;
      return statuses;
    };
    const first = await run();
    expect(first.filter((s) => s >= 500).length).toBeGreaterThan(3);
    expect(await run()).toEqual(first);
  });

  it("rate-limits with Retry-After and RateLimit headers on every answer", async () => {
    const { call, handle } = await start({ rateLimit: { perSecond: 5 } });
    const answers = [];
    for (let i = 0; i < 7; i += 1) answers.push(await call("GET", "/v1/topics"));
    expect(answers[0]?.headers.get("ratelimit-remaining")).toBe("4");
    expect(answers[0]?.headers.get("ratelimit-limit")).toBe("5");
    const limited = answers.filter((a) => a.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(1);
    expect(limited[0]?.body?.message).toBe("API rate limit exceeded");
    expect(Number(limited[0]?.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(handle.requests.filter((r) => r.status === 429).length).toBe(limited.length);
  });

  it("loses a response after carrying out the write", async () => {
    const { call, handle } = await start();
    handle.injectFault({ method: "POST", path: "/v1/topics", kind: "lost-response" });
    await expect(call("POST", "/v1/topics", { key: "lost", name: "Lost" })).rejects.toThrow();
    expect(handle.store().topics.some((t) => t.key === "lost")).toBe(true);
    expect(handle.requests.at(-1)).toMatchObject({ status: null, fault: "lost-response" });
    expect((await call("POST", "/v1/topics", { key: "lost", name: "Lost" })).status).toBe(409);
  });

  it("drops a connection before doing anything", async () => {
    const { call, handle } = await start();
    handle.injectFault({ path: "/v1/topics", kind: "drop" });
    await expect(call("POST", "/v1/topics", { key: "dropped", name: "D" })).rejects.toThrow();
    expect(handle.store().topics.some((t) => t.key === "dropped")).toBe(false);
  });

  it("answers a reused Idempotency-Key with 409 while the first runs and 422 for another body", async () => {
    const { handle } = await start({ latencyMs: 60, honourIdempotencyKey: true });
    const post = (name: string) =>
      fetch(`${handle.url}/v1/topics`, {
        method: "POST",
        headers: {
          authorization: `ApiKey ${handle.apiKey}`,
          "content-type": "application/json",
          "idempotency-key": "k-2",
        },
        body: JSON.stringify({ key: "idem", name }),
      });
    const [first, second] = await Promise.all([
      post("Idem"),
      new Promise((r) => setTimeout(r, 15)).then(() => post("Idem")),
    ]);
    expect(first.status).toBe(201);
    expect(second.status).toBe(409);
    expect(second.headers.get("retry-after")).toBe("1");
    expect((await post("Other")).status).toBe(422);
    expect((await post("Idem")).headers.get("idempotency-replay")).toBe("true");
  });

  it("replays a POST with the same Idempotency-Key when told to, as the hosted service does", async () => {
    const { handle } = await start({ honourIdempotencyKey: true });
    const post = () =>
      fetch(`${handle.url}/v1/notification-groups`, {
        method: "POST",
        headers: {
          authorization: `ApiKey ${handle.apiKey}`,
          "content-type": "application/json",
          "idempotency-key": "k-1",
        },
        body: JSON.stringify({ name: "Once" }),
      });
    const first = await post();
    const second = await post();
    expect(second.headers.get("idempotency-replay")).toBe("true");
    expect(await second.json()).toEqual(await first.json());
    expect(handle.store().notificationGroups.filter((g) => g.name === "Once")).toHaveLength(1);
  });
});

describe("seed and persistence", () => {
  it("keeps its state in a data file across restarts, with no credential in the file or the dump", async () => {
    const dir = await mkdtemp(join(tmpdir(), "notiform-emulator-"));
    const dataFile = join(dir, "state.json");
    const first = await start({ dataFile });
    await first.call("POST", "/v1/topics", { key: "persisted", name: "P" });
    await emulator?.close();
    emulator = undefined;
    const second = await start({ dataFile });
    expect((await second.call("GET", "/v1/topics/persisted")).status).toBe(200);
    const dump = await (await fetch(`${second.handle.url}/__emulator/state`)).text();
    expect(dump).not.toContain("nf_dev_demo_key");
    expect(dump).not.toContain("pat_demo_secret_do_not_print");
    const saved = await readFile(dataFile, "utf8");
    expect(saved).toContain("persisted");
    expect(saved).not.toContain("nf_dev_demo_key");
    expect(saved).not.toContain("pat_demo_secret_do_not_print");
  });

  it("refuses a seed that does not follow its schema, naming the file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "notiform-seed-"));
    const file = join(dir, "seed.json");
    await import("node:fs/promises").then((fs) =>
      fs.writeFile(file, JSON.stringify({ apiKeys: [{ key: "k", environment: "staging" }] })),
    );
    await expect(startEmulator({ seedFile: file, port: 0 })).rejects.toThrow(
      `the emulator seed ${file} is not valid`,
    );
  });
});
