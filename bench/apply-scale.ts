// Apply at scale: 2,000 changes (1,000 topic creates, 500 topic renames, 500 override creates)
// at concurrency 8 against the emulator with 20 ms latency, then the same against its 429
// limiter at 100 requests/s. Wall time against the ideal, 429s received, failures.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmulator } from "../src/emulator/index.js";
import { mustSucceed, requestTimeline, runCliTimed } from "./cli.js";
import { seedFor, tenantId, workflowId } from "./fixtures.js";
import { CONCURRENCY, LATENCY_MS } from "./plan-scale.js";

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

export async function benchApplyScale(rateLimit?: { perSecond: number }): Promise<ApplyScaleResult> {
  const emulator = await startEmulator({ seed: seedFor({ workflows: 1, tenants: OVERRIDES }), port: 0 });
  try {
    const dir = await mkdtemp(join(tmpdir(), "notiform-bench-apply-"));
    const env = { NOTIFORM_API_KEY: emulator.apiKey };
    const args = (...rest: string[]) => [
      ...rest,
      "--api-url",
      emulator.url,
      "--concurrency",
      String(CONCURRENCY),
    ];
    await writeFile(join(dir, "notiform.yaml"), config(false));
    mustSucceed("set-up apply", await runCliTimed(args("apply", "--auto-approve"), dir, env));
    await writeFile(join(dir, "notiform.yaml"), config(true));

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
    };
  } finally {
    await emulator.close();
  }
}
