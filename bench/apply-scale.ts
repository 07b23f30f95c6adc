// Apply at scale: 2,000 changes (1,000 topic creates, 500 topic renames, 500 override creates)
// at concurrency 8 against the emulator with 20 ms latency, then the same against its 429
// limiter at 100 requests/s. Wall time against the ideal, 429s received, failures; without the
// limiter, also against the floor: the same requests from a bare undici script.
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startEmulator } from "../src/emulator/index.js";
import { benchDir, mustSucceed, requestTimeline, runCliTimed } from "./cli.js";
import { seedFor, tenantId, workflowId } from "./fixtures.js";
import { CONCURRENCY, LATENCY_MS, medianRound, ROUNDS } from "./plan-scale.js";

interface FloorResult {
  wallMs: number;
  ratioToIdeal: number;
  firstRequestMs: number;
  meanInFlight: number;
}

export interface ApplyScaleResult {
  changes: number;
  wallMs: number;
  requests: number;
  writes: number;
  /** The organization, every topic page, one override page, one workflow page, and the writes. */
  minimalRequests: number;
  /** Minimal requests x latency / concurrency, or minimal requests / limit. */
  idealMs: number;
  ratioToIdeal: number;
  concurrency: number;
  firstRequestMs: number;
  lastAnswerMs: number;
  meanInFlight: number;
  meanAnswerMs: number;
  rateLimited429: number;
  share429: number;
  failures: number;
  /**
   * The same minimal requests from a bare undici script (bench/apply-floor-child.ts), against an
   * emulator set up the same way: what this machine allows. Measured without a rate limit only.
   */
  floor?: FloorResult;
  /**
   * The same script on node:http's keep-alive Agent instead of undici (measured without a rate
   * limit only): what this machine allows on Node's own client, for reading the apply's ratio
   * to ideal, whose target was set when notiform's transport was node:http.
   */
  nodeHttpFloor?: FloorResult;
  ratioToFloor?: number;
  /** Every round's apply/floor ratio, in order (the figures above are the median round's). */
  ratiosToFloor?: number[];
}

const RENAMED = 500;
const CREATED = 1_000;
const OVERRIDES = 500;

function config(renamed: boolean): string {
  const out = ["version: 1", "organization: Bench Inc", "topics:"];
  for (let i = 0; i < RENAMED; i += 1)
    out.push(`  - key: topic-${i}`, `    name: Topic ${i}${renamed ? " (renamed)" : ""}`);
  if (renamed)
    for (let i = RENAMED; i < RENAMED + CREATED; i += 1)
      out.push(`  - key: topic-${i}`, `    name: Topic ${i}`);
  out.push("workflows:", "  - key: workflow-0", `    id: ${workflowId(0)}`);
  if (renamed) {
    out.push("overrides:");
    for (let i = 0; i < OVERRIDES; i += 1)
      out.push("  - workflow: workflow-0", `    tenant: ${tenantId(i)}`, "    active: true");
  }
  return `${out.join("\n")}\n`;
}

type Emulator = Awaited<ReturnType<typeof startEmulator>>;

/** An emulator holding the organization before the measured apply (set up by notiform, no latency). */
async function setUp(): Promise<{ emulator: Emulator; dir: string; args: (...rest: string[]) => string[] }> {
  const emulator = await startEmulator({ seed: seedFor({ workflows: 1, tenants: OVERRIDES }), port: 0 });
  try {
    const dir = await benchDir("apply");
    const args = (...rest: string[]) => [
      ...rest,
      "--api-url",
      emulator.url,
      "--concurrency",
      String(CONCURRENCY),
    ];
    await writeFile(join(dir, "notiform.yaml"), config(false));
    const env = { NOTIFORM_API_KEY: emulator.apiKey };
    mustSucceed("set-up apply", await runCliTimed(args("apply", "--auto-approve"), dir, env));
    await writeFile(join(dir, "notiform.yaml"), config(true));
    return { emulator, dir, args };
  } catch (error) {
    await emulator.close();
    throw error;
  }
}

/**
 * Without a limiter: ROUNDS rounds of (apply, floor), each on a fresh organization, and the
 * median round by the apply/floor ratio counts (as the plan's), since one pair varies by about
 * as much as the target's margin on a shared machine. Under the limiter: one apply, which the
 * limiter's pace decides.
 */
export async function benchApplyScale(rateLimit?: { perSecond: number }): Promise<ApplyScaleResult> {
  if (rateLimit !== undefined) return applyRound(rateLimit);
  const rounds: ApplyScaleResult[] = [];
  for (let round = 0; round < ROUNDS; round += 1) rounds.push(await applyRound());
  const { round, ratios } = medianRound(rounds, (r) => r.ratioToFloor ?? r.ratioToIdeal);
  return { ...round, ratiosToFloor: ratios };
}

async function applyRound(rateLimit?: { perSecond: number }): Promise<ApplyScaleResult> {
  const { emulator, dir, args } = await setUp();
  try {
    const env = { NOTIFORM_API_KEY: emulator.apiKey };

    emulator.setFaults({
      latencyMs: LATENCY_MS,
      ...(rateLimit ? { rateLimit: { perSecond: rateLimit.perSecond } } : {}),
    });
    emulator.clearRequests();
    const applied = await runCliTimed(args("apply", "--auto-approve", "--output", "json"), dir, env);
    mustSucceed("apply", applied, [0, 1, 3]);
    const report = JSON.parse(applied.stdout) as {
      counts: { applied: number; failed: number; skipped: number };
    };
    const changes = RENAMED + CREATED + OVERRIDES;
    const requests = emulator.requests.length;
    const rateLimited429 = emulator.requests.filter((r) => r.status === 429).length;
    const writes = emulator.requests.filter((r) => r.method !== "GET" && r.status !== 429).length;
    // + 1: the environment the key reaches (GET /v1/environments/me), asked once per run.
    const minimalRequests = 1 + 1 + Math.ceil(RENAMED / 10) + 1 + 1 + changes;
    const idealMs = rateLimit
      ? (minimalRequests / rateLimit.perSecond) * 1000
      : (minimalRequests * LATENCY_MS) / CONCURRENCY;
    const floor = rateLimit ? undefined : await floorRun(minimalRequests, idealMs, "undici");
    const nodeHttpFloor = rateLimit ? undefined : await floorRun(minimalRequests, idealMs, "node-http");
    return {
      changes,
      wallMs: applied.wallMs,
      requests,
      writes,
      minimalRequests,
      idealMs,
      ratioToIdeal: applied.wallMs / idealMs,
      concurrency: CONCURRENCY,
      ...requestTimeline(emulator.requests, applied.startedAt),
      rateLimited429,
      share429: rateLimited429 / requests,
      failures: report.counts.failed + report.counts.skipped,
      ...(floor ? { floor, ratioToFloor: applied.wallMs / floor.wallMs } : {}),
      ...(nodeHttpFloor ? { nodeHttpFloor } : {}),
    };
  } finally {
    await emulator.close();
  }
}

/** The floor script against an emulator of its own, set up as the CLI's was. */
async function floorRun(
  minimalRequests: number,
  idealMs: number,
  client: "undici" | "node-http",
): Promise<FloorResult> {
  const { emulator } = await setUp();
  try {
    emulator.setFaults({ latencyMs: LATENCY_MS });
    emulator.clearRequests();
    const script = fileURLToPath(new URL("./apply-floor-child.js", import.meta.url));
    const started = performance.now();
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [script, emulator.url, String(CONCURRENCY), String(RENAMED), String(CREATED), String(OVERRIDES)],
        {
          stdio: ["ignore", "ignore", "inherit"],
          env: {
            PATH: process.env.PATH ?? "",
            NOTIFORM_API_KEY: emulator.apiKey,
            BENCH_FLOOR_CLIENT: client,
          },
        },
      );
      child.on("error", reject);
      child.on("close", resolve);
    });
    const wallMs = performance.now() - started;
    if (code !== 0) throw new Error(`the apply floor script (${client}) exited ${code}`);
    if (emulator.requests.length !== minimalRequests)
      throw new Error(
        `the apply floor script sent ${emulator.requests.length} requests, not the minimal ${minimalRequests}`,
      );
    const timeline = requestTimeline(emulator.requests, started);
    return {
      wallMs,
      ratioToIdeal: wallMs / idealMs,
      firstRequestMs: timeline.firstRequestMs,
      meanInFlight: timeline.meanInFlight,
    };
  } finally {
    await emulator.close();
  }
}
