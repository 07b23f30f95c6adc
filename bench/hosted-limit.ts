// Plan of 10,000 topics under the hosted service's published Free-plan limit for configuration
// (topics) requests: 20 per second, bursts +10 % (a token bucket of 22). The emulator's bucket
// answers RateLimit-* headers as the hosted service does; notiform should pace itself from them:
// wall time within 1.1x of requests / limit, and no 429 at all.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { startEmulator } from "../src/emulator/index.js";
import { generatedTopicKey, type Seed } from "../src/emulator/seed.js";
import { benchDir, mustSucceed, runCliTimed } from "./cli.js";
import { CONCURRENCY } from "./plan-scale.js";

export const FREE_PLAN = { perSecond: 20, burst: 22 };

export interface HostedLimitResult {
  topics: number;
  wallMs: number;
  requests: number;
  minimalRequests: number;
  rateLimited429: number;
  /** requests / limit: the fastest a client can go without a 429. */
  idealMs: number;
  ratioToIdeal: number;
}

export async function benchHostedLimit(topics = 10_000): Promise<HostedLimitResult> {
  const seed = {
    organization: { name: "Bench Inc" },
    apiKeys: [{ key: "nf_bench_key", environment: "development" }],
    environments: { development: { generate: { topics } } },
  } as Seed;
  const emulator = await startEmulator({ seed, port: 0 });
  try {
    const dir = await benchDir("hosted");
    const lines = ["version: 1", "organization: Bench Inc", "topics:"];
    for (let n = 1; n <= topics; n += 1)
      lines.push(`  - key: ${generatedTopicKey(n)}`, `    name: Topic ${n}`);
    await writeFile(join(dir, "notiform.yaml"), `${lines.join("\n")}\n`);
    emulator.setFaults({ rateLimit: FREE_PLAN });
    emulator.clearRequests();
    const args = [
      "plan",
      "--detailed-exitcode",
      "--api-url",
      emulator.url,
      "--concurrency",
      String(CONCURRENCY),
    ];
    const plan = mustSucceed(
      "hosted-limit plan",
      await runCliTimed(args, dir, { NOTIFORM_API_KEY: emulator.apiKey }),
    );
    const requests = emulator.requests.length;
    const rateLimited429 = emulator.requests.filter((r) => r.status === 429).length;
    // The organization, the environment the key reaches, and every page of the topic list.
    const minimalRequests = 2 + Math.ceil(topics / 10);
    // requests / limit, as the target is stated (the bucket's initial burst makes it a little easier).
    const idealMs = (minimalRequests / FREE_PLAN.perSecond) * 1000;
    return {
      topics,
      wallMs: plan.wallMs,
      requests,
      minimalRequests,
      rateLimited429,
      idealMs,
      ratioToIdeal: plan.wallMs / idealMs,
    };
  } finally {
    await emulator.close();
  }
}
