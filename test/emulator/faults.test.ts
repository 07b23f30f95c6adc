// Fault injection and the tools around it: seeded faults that repeat, dropped connections and lost
// responses, scripted faults, the token-bucket rate limiter's headers, Idempotency-Key (ignored by
// default), the admin routes, and the data file.
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startEmulator } from "../../src/emulator/index.js";
import { start, stop } from "./harness.js";

/** Send requests one after another; a dropped connection is recorded as null. */
async function statusesOf(call: (i: number) => Promise<{ status: number }>, count: number) {
  const statuses: (number | null)[] = [];
  for (let i = 0; i < count; i += 1)
    statuses.push(
      await call(i).then(
        (a) => a.status,
        () => null,
      ),
    );
  return statuses;
}

describe("seeded random faults", () => {
  it("drops and fails the same requests for the same fault seed, and others for another seed", async () => {
    const run = async (faultSeed: number) => {
      const { handle, call } = await start({ faultSeed, dropRate: 0.2, errorRate: 0.2 });
      const statuses = await statusesOf(() => call("GET", "/v1/topics"), 40);
      const logged = handle.requests.map((r) => r.status);
      await stop(handle);
      return { statuses, logged };
    };
    const first = await run(11);
    expect(first.statuses).toContain(null);
    expect(first.statuses.filter((s) => s !== null && s >= 500).length).toBeGreaterThan(0);
    expect(first.statuses.every((s) => s === null || [200, 500, 502, 503, 504].includes(s))).toBe(true);
    expect(first.logged).toEqual(first.statuses);
    expect((await run(11)).statuses).toEqual(first.statuses);
    expect((await run(12)).statuses).not.toEqual(first.statuses);
  });

  it("answers errors before doing anything, and loses answers only after the write is done", async () => {
    const failing = await start({ errorRate: 1 });
    expect(
      (await failing.call("POST", "/v1/topics", { key: "never", name: "N" })).status,
    ).toBeGreaterThanOrEqual(500);
    expect(failing.handle.store().topics.some((t) => t.key === "never")).toBe(false);

    const { handle, call } = await start({ lostResponseRate: 1 });
    const statuses = await statusesOf((i) => call("POST", "/v1/topics", { key: `lost-${i}`, name: "L" }), 3);
    expect(statuses).toEqual([null, null, null]);
    expect(handle.store().topics.filter((t) => t.key.startsWith("lost-"))).toHaveLength(3);
    expect(handle.requests.map((r) => r.fault)).toEqual(["lost-response", "lost-response", "lost-response"]);
    // Reads are never "lost": only writes are.
    expect((await call("GET", "/v1/topics/lost-0")).status).toBe(200);
  });

  it("changes fault settings while running", async () => {
    const { handle, call } = await start({ errorRate: 1 });
    expect((await call("GET", "/v1/topics")).status).toBeGreaterThanOrEqual(500);
    handle.setFaults({ errorRate: 0 });
    expect((await call("GET", "/v1/topics")).status).toBe(200);
  });
});

describe("scripted faults", () => {
  it("fire for the matching method and path prefix, as many times as asked", async () => {
    const { handle, call } = await start();
    handle.injectFault({
      method: "GET",
      path: "/v1/topics*",
      times: 2,
      kind: { status: 503, retryAfter: 2 },
    });
    const first = await call("GET", "/v1/topics/existing-announcements");
    expect(first.status).toBe(503);
    expect(first.headers.get("retry-after")).toBe("2");
    expect(first.body).toMatchObject({ statusCode: 503, path: "/v1/topics/existing-announcements" });
    expect((await call("POST", "/v1/topics", { key: "k1", name: "K" })).status).toBe(201);
    expect((await call("GET", "/v1/topics")).status).toBe(503);
    expect((await call("GET", "/v1/topics")).status).toBe(200);
    expect(handle.requests.map((r) => r.fault ?? "-")).toEqual(["status 503", "-", "status 503", "-"]);
  });

  it("drop a connection before the request is handled", async () => {
    const { handle, call } = await start();
    handle.injectFault({ path: "/v1/topics", kind: "drop" });
    await expect(call("POST", "/v1/topics", { key: "dropped", name: "D" })).rejects.toThrow();
    expect(handle.store().topics.some((t) => t.key === "dropped")).toBe(false);
    expect(handle.requests.at(-1)).toMatchObject({ method: "POST", status: null, fault: "drop" });
  });
});

describe("rate limiter", () => {
  it("lets a burst through, then answers 429 with Retry-After; every answer carries the RateLimit headers", async () => {
    const { handle, call } = await start({ rateLimit: { perSecond: 1, burst: 3 } });
    const answers = [];
    for (let i = 0; i < 4; i += 1) answers.push(await call("GET", i === 1 ? "/v1/nothing" : "/v1/topics"));
    expect(answers.map((a) => a.status)).toEqual([200, 404, 200, 429]);
    expect(answers.map((a) => a.headers.get("ratelimit-remaining"))).toEqual(["2", "1", "0", "0"]);
    for (const answer of answers) {
      expect(answer.headers.get("ratelimit-limit")).toBe("3");
      expect(answer.headers.get("ratelimit-policy")).toBe('1;w=1;burst=3;comment="token bucket"');
      expect(Number(answer.headers.get("ratelimit-reset"))).toBeGreaterThan(0);
    }
    expect(answers[3]?.body.message).toBe("API rate limit exceeded");
    expect(Number(answers[3]?.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(handle.requests.at(-1)).toMatchObject({ status: 429, fault: "rate-limit" });
    handle.setFaults({ rateLimit: undefined });
    const free = await call("GET", "/v1/topics");
    expect(free.status).toBe(200);
    expect(free.headers.get("ratelimit-limit")).toBeNull();
  });
});

describe("Idempotency-Key", () => {
  const post = (url: string, key: string, name: string) =>
    fetch(`${url}/v1/notification-groups`, {
      method: "POST",
      headers: {
        authorization: `ApiKey ${key}`,
        "content-type": "application/json",
        "idempotency-key": "same",
      },
      body: JSON.stringify({ name }),
    });

  it("is ignored by default, like a self-hosted server: two POSTs make two groups", async () => {
    const { handle } = await start();
    await post(handle.url, handle.apiKey, "Twice");
    const second = await post(handle.url, handle.apiKey, "Twice");
    expect(second.headers.get("idempotency-replay")).toBeNull();
    expect(handle.store().notificationGroups.filter((g) => g.name === "Twice")).toHaveLength(2);
    expect(handle.requests.map((r) => r.idempotencyKey)).toEqual(["same", "same"]);
  });

  it("replays the stored answer when honoured, even after a lost response", async () => {
    const { handle } = await start({ honourIdempotencyKey: true });
    handle.injectFault({ kind: "lost-response" });
    await expect(post(handle.url, handle.apiKey, "Once")).rejects.toThrow();
    const retry = await post(handle.url, handle.apiKey, "Once");
    expect(retry.headers.get("idempotency-replay")).toBe("true");
    expect((await retry.json()) as unknown).toMatchObject({ data: { name: "Once" } });
    expect(handle.store().notificationGroups.filter((g) => g.name === "Once")).toHaveLength(1);
  });
});

describe("admin routes", () => {
  it("serve the request log, fault settings, a reset and a state without credentials; none is logged", async () => {
    const { handle, call } = await start();
    await call("POST", "/v1/topics", { key: "admin-test", name: "A" });
    const admin = (method: string, path: string, body?: unknown) =>
      fetch(`${handle.url}/__emulator/${path}`, {
        method,
        ...(method !== "GET" ? { headers: { "content-type": "application/json" } } : {}),
        ...(body !== undefined ? { body: typeof body === "string" ? body : JSON.stringify(body) } : {}),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as unknown }));

    expect((await admin("GET", "requests")).body).toMatchObject([
      { method: "POST", path: "/v1/topics", status: 201 },
    ]);
    const state = JSON.stringify((await admin("GET", "state")).body);
    expect(state).toContain("admin-test");
    expect(state).not.toContain("nf_dev_demo_key");
    expect(state).not.toContain("pat_demo_secret_do_not_print");

    const settings = await admin("POST", "faults", { latencyMs: 1, inject: { kind: { status: 502 } } });
    expect(settings.body).toMatchObject({ latencyMs: 1, errorRate: 0 });
    expect((await call("GET", "/v1/topics")).status).toBe(502);
    expect((await admin("POST", "faults", "{oops")).status).toBe(400);

    expect((await admin("POST", "reset")).status).toBe(200);
    expect(handle.store().topics.some((t) => t.key === "admin-test")).toBe(false);
    expect((await admin("DELETE", "requests")).status).toBe(200);
    expect((await admin("GET", "requests")).body).toEqual([]);
    expect((await admin("GET", "nothing")).status).toBe(404);
    expect(handle.requests).toEqual([]);
  });
});

describe("data file", () => {
  it("refuses a data file that is not an emulator state, naming it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "notiform-data-"));
    const dataFile = join(dir, "state.json");
    await writeFile(dataFile, "{}");
    await expect(startEmulator({ dataFile })).rejects.toThrow(
      `the emulator data file ${dataFile} is not an emulator state`,
    );
  });

  it("keeps writes across a restart and takes the keys and organization from the seed", async () => {
    const dir = await mkdtemp(join(tmpdir(), "notiform-data-"));
    const dataFile = join(dir, "state.json");
    const first = await start({ dataFile });
    await first.call("PATCH", "/v1/topics/legacy-alerts", { name: "Renamed" });
    await first.call("PUT", "/v1/workflows/64f1c0ffee0000000000a003/status", { active: true });
    await stop(first.handle);
    expect(await readFile(dataFile, "utf8")).not.toContain("nf_dev_demo_key");
    const second = await start({ dataFile });
    expect((await second.call("GET", "/v1/topics/legacy-alerts")).body.data.name).toBe("Renamed");
    expect((await second.call("GET", "/v1/workflows/weekly-digest")).body.data.active).toBe(true);
    expect((await second.call("GET", "/v1/organizations/me")).body.data.name).toBe("Acme Inc");
  });
});
