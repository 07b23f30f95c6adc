// `npm run bench`: every figure of the benchmark in one run, as a table (default) or JSON
// (--json). Not part of `npm test`: speed goals live here, never in a timed test.
// Targets: plan and apply within 1.25x of ideal; under the limiter at most 5 % of requests
// answered 429 and no failure; 50,000 resources offline in under 2 s with peak RSS under 300 MB.
import { benchApplyScale } from "./apply-scale.js";
import { benchEmulatorThroughput } from "./emulator-throughput.js";
import { benchOffline } from "./offline-scale.js";
import { benchPlanScale } from "./plan-scale.js";

const json = process.argv.includes("--json");
const log = (text: string) => {
  if (!json) process.stderr.write(`${text}\n`);
};

log("bench: plan of 10,000 topics + 5,000 overrides + 500 workflows (20 ms latency) ...");
const plan = await benchPlanScale();
log("bench: apply of 2,000 changes at concurrency 8 ...");
const apply = await benchApplyScale();
log("bench: apply of 2,000 changes under a 100 requests/s limiter ...");
const limited = await benchApplyScale({ perSecond: 100 });
log("bench: offline validate + plan of 50,000 resources in 100 files ...");
const offline = await benchOffline();
log("bench: emulator throughput ...");
const throughput = await benchEmulatorThroughput();

const targets = {
  planWithin125xIdeal: plan.ratioToIdeal <= 1.25,
  applyWithin125xIdeal: apply.ratioToIdeal <= 1.25,
  limitedWithin125xIdeal: limited.ratioToIdeal <= 1.25,
  limited429AtMost5Percent: limited.share429 <= 0.05,
  limitedNoFailures: limited.failures === 0,
  offlineUnder2s: offline.totalMs < 2_000,
  offlineRssUnder300Mb: offline.peakRssMb < 300,
};
const results = { node: process.version, plan, apply, limited, offline, throughput, targets };

if (json) {
  process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
} else {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const x = (ratio: number) => `${ratio.toFixed(2)}x`;
  const ok = (pass: boolean) => (pass ? "ok" : "MISSED");
  const rows: [string, string, string][] = [
    [
      "plan 15,500 unchanged: wall",
      s(plan.wallMs),
      `ideal ${s(plan.idealMs)} -> ${x(plan.ratioToIdeal)} ${ok(targets.planWithin125xIdeal)}`,
    ],
    [
      "plan: live reads only",
      s(plan.phases.readsMs),
      `ideal ${s(plan.idealMs)} -> ${x(plan.readsRatioToIdeal)}`,
    ],
    [
      "plan: config load / planning",
      `${s(plan.phases.configMs)} / ${s(plan.phases.planningMs)}`,
      "config load includes GET /v1/organizations/me",
    ],
    ["plan: requests", String(plan.requests), `minimal ${plan.minimalRequests}`],
    [
      "naive baseline (sequential GET each)",
      s(plan.naive.extrapolatedMs),
      `${x(plan.naive.ratioToNotiform)} slower (measured on ${plan.naive.sampleResources}, extrapolated)`,
    ],
    [
      "apply 2,000 changes: wall",
      s(apply.wallMs),
      `ideal ${s(apply.idealMs)} -> ${x(apply.ratioToIdeal)} ${ok(targets.applyWithin125xIdeal)}`,
    ],
    ["apply: requests / failures", `${apply.requests} / ${apply.failures}`, `${apply.writes} writes`],
    [
      "apply at 100 req/s: wall",
      s(limited.wallMs),
      `ideal ${s(limited.idealMs)} -> ${x(limited.ratioToIdeal)} ${ok(targets.limitedWithin125xIdeal)}`,
    ],
    [
      "apply at 100 req/s: 429s / failures",
      `${limited.rateLimited429} / ${limited.failures}`,
      `${(limited.share429 * 100).toFixed(1)} % of ${limited.requests} ${ok(targets.limited429AtMost5Percent && targets.limitedNoFailures)}`,
    ],
    [
      "offline 50,000 resources in 100 files: wall",
      s(offline.totalMs),
      `load+validate ${s(offline.loadValidateMs)} ${ok(targets.offlineUnder2s)}`,
    ],
    [
      "offline: CPU / peak RSS",
      `${s(offline.cpuMs)} / ${offline.peakRssMb.toFixed(0)} MB`,
      ok(targets.offlineRssUnder300Mb),
    ],
    [
      "emulator: GET /v1/organizations/me",
      `${throughput.perSecond.toFixed(0)}/s`,
      `${throughput.requests} in ${throughput.seconds.toFixed(1)} s`,
    ],
  ];
  const width = Math.max(...rows.map((r) => r[0].length));
  const width2 = Math.max(...rows.map((r) => r[1].length));
  process.stdout.write(`notiform bench (${process.version})\n`);
  for (const [name, value, note] of rows)
    process.stdout.write(`${name.padEnd(width)}  ${value.padStart(width2)}  ${note}\n`);
}
