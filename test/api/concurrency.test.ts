// The shared, adaptive concurrency limit and rate-limit pacing: never more requests in flight
// than allowed, halved on each 429 and grown back after successes, and starts held back when
// the server says the budget is spent (RateLimit-Remaining 0 -> wait RateLimit-Reset).
import { afterEach, describe, expect, it } from "vitest";
import type { ClientLogEvent } from "../../src/api/index.js";
import { fixture } from "./helpers/fake-server.js";
import { closeAll, harness } from "./helpers/harness.js";

afterEach(closeAll);

const ME = fixture("organizations-me-200");
const limits = (events: ClientLogEvent[]) =>
  events.flatMap((event) => (event.type === "limit" ? [event.limit] : []));

describe("concurrency", () => {
  it("never has more requests in flight than the limit, shared by every call", async () => {
    const { client, server } = await harness([ME], { concurrency: 3 });
    await Promise.all([
      ...Array.from({ length: 20 }, () => client.getCurrentOrganization()),
      ...Array.from({ length: 20 }, () => client.getTopic("k").catch(() => undefined)),
    ]);
    expect(server.requests).toHaveLength(40);
    expect(server.maxInFlight).toBe(3);
  });

  it("defaults to 8", async () => {
    const { client, server } = await harness([ME]);
    await Promise.all(Array.from({ length: 30 }, () => client.getCurrentOrganization()));
    expect(server.maxInFlight).toBe(8);
  });

  it("halves on each 429 (never below 1), then grows back one at a time after successes", async () => {
    const { client, server, events } = await harness(
      (_request, index) => (index < 4 ? { status: 429, headers: { "retry-after": "0" } } : ME),
      { concurrency: 4 },
    );
    await Promise.all(Array.from({ length: 40 }, () => client.getCurrentOrganization()));
    const seen = limits(events);
    expect(seen.slice(0, 2)).toEqual([2, 1]);
    expect(seen.slice(2)).toEqual([2, 3, 4]);
    // After the four 429s, requests ran one at a time until the limit grew again.
    const after = server.requests.slice(4);
    expect(after.slice(0, 4).every((r) => r.inFlight === 1)).toBe(true);
    expect(Math.max(...after.map((r) => r.inFlight))).toBeLessThanOrEqual(4);
    expect(client.stats()).toMatchObject({ rateLimited: 4, requests: 44, retries: 4, failures: 0 });
  });

  it("holds new starts for RateLimit-Reset seconds when RateLimit-Remaining is 0", async () => {
    const spent = {
      ...ME,
      headers: { "ratelimit-remaining": "0", "ratelimit-reset": "3", "ratelimit-limit": "20" },
    };
    const { client, sleeps, events } = await harness([spent, ME]);
    await client.getCurrentOrganization();
    expect(sleeps).toEqual([]);
    await client.getCurrentOrganization();
    expect(sleeps).toEqual([3_000]);
    expect(events).toContainEqual({ type: "hold", delayMs: 3_000, reason: "RateLimit-Remaining is 0" });
  });

  it("spreads a small remaining budget over the time left until the reset", async () => {
    const low = { ...ME, headers: { "ratelimit-remaining": "4", "ratelimit-reset": "2" } };
    const { client, sleeps } = await harness([low]);
    await client.getCurrentOrganization();
    for (let i = 0; i < 3; i += 1) await client.getCurrentOrganization();
    // 4 requests left in 2 s: one start every 500 ms.
    expect(sleeps).toEqual([500, 500, 500]);
  });

  it("a 429 holds every start until its Retry-After has passed", async () => {
    const { client, sleeps, events } = await harness([{ status: 429, headers: { "retry-after": "2" } }, ME]);
    await client.getCurrentOrganization();
    expect(sleeps[0]).toBeGreaterThanOrEqual(2_000);
    expect(events).toContainEqual({ type: "hold", delayMs: 2_000, reason: "429 from the server" });
  });
});

describe("RateLimit-Reset", () => {
  it("as a Unix time is read as the time left; an absurd value is ignored, not obeyed", async () => {
    const epoch = String(Math.floor(Date.now() / 1000) + 5);
    const { client, sleeps } = await harness([
      { ...ME, headers: { "ratelimit-remaining": "0", "ratelimit-reset": epoch } },
      { ...ME, headers: { "ratelimit-remaining": "0", "ratelimit-reset": "999999" } },
      ME,
    ]);
    await client.getCurrentOrganization();
    await client.getCurrentOrganization();
    await client.getCurrentOrganization();
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThan(3_000);
    expect(sleeps[0]).toBeLessThanOrEqual(5_000);
  });
});
