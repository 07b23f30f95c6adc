// Pacing from a token bucket's RateLimit-* headers: when RateLimit-Policy names the refill rate,
// the burst is spent freely, then starts are spaced at the refill rate (a little slower while the
// budget is below what may be in flight), and a spent budget waits for one token, not for the
// whole bucket. Against the emulator's token bucket, a run of concurrent calls meets no 429.
import { afterEach, describe, expect, it } from "vitest";
import { parseRateLimitPolicy } from "../../src/api/limiter.js";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";
import { createClient } from "../../src/kinds/client.js";
import { fixture } from "./helpers/fake-server.js";
import { closeAll, harness } from "./helpers/harness.js";

const ME = fixture("organizations-me-200");
const bucket = (remaining: number) => ({
  ...ME,
  headers: {
    "ratelimit-limit": "22",
    "ratelimit-remaining": String(remaining),
    "ratelimit-reset": "1",
    "ratelimit-policy": '20;w=1;burst=22;comment="token bucket"',
  },
});

let emulator: EmulatorHandle | undefined;
afterEach(async () => {
  await closeAll();
  await emulator?.close();
  emulator = undefined;
});

describe("RateLimit-Policy", () => {
  it("reads the first policy's quota and window", () => {
    expect(parseRateLimitPolicy('100;w=5;burst=110;comment="token bucket";category="configuration"')).toEqual(
      {
        quota: 100,
        windowSeconds: 5,
      },
    );
    expect(parseRateLimitPolicy("20;w=1, 1000;w=3600")).toEqual({ quota: 20, windowSeconds: 1 });
    expect(parseRateLimitPolicy("20")).toBeUndefined();
    expect(parseRateLimitPolicy("abc;w=1")).toBeUndefined();
    expect(parseRateLimitPolicy(undefined)).toBeUndefined();
  });

  it("paces at the refill rate once little is left, and waits one token when spent", async () => {
    const { client, sleeps, events } = await harness([bucket(12), bucket(4), bucket(0), bucket(30)]);
    for (let i = 0; i < 4; i += 1) await client.getCurrentOrganization();
    // 12 left (<= 2 x 8 in flight): one start per token (50 ms); 4 left (<= 8): 25 % slower;
    // 0 left: hold one token (50 ms), which the pace already covers.
    expect(sleeps).toEqual([50, 62.5, 62.5]);
    expect(events).toContainEqual({ type: "hold", delayMs: 50, reason: "RateLimit-Remaining is 0" });
  });

  it("spends a large remaining budget without pacing", async () => {
    const { client, sleeps } = await harness([bucket(30)]);
    for (let i = 0; i < 5; i += 1) await client.getCurrentOrganization();
    expect(sleeps).toEqual([]);
  });

  it("meets no 429 from the emulator's token bucket with 8 calls in flight", async () => {
    emulator = await startEmulator({ port: 0 });
    emulator.setFaults({ rateLimit: { perSecond: 100, burst: 10 } });
    const client = createClient({
      baseUrl: emulator.url,
      apiKey: emulator.apiKey,
      apiKeyEnv: "K",
      concurrency: 8,
    });
    try {
      const calls = Array.from({ length: 120 }, () => client.getCurrentOrganization());
      expect((await Promise.all(calls)).length).toBe(120);
    } finally {
      await client.close();
    }
    expect(emulator.requests.filter((r) => r.status === 429)).toEqual([]);
    expect(emulator.requests.length).toBe(120);
  });
});
