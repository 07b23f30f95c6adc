// `npm run bench`: every figure of the benchmark in one run, as a table (default) or JSON
// (--json). Not part of `npm test`: speed goals live here, never in a timed test. Every figure is
// given as a ratio to its ideal, request counts against the minimum, and each target as pass/fail.
// Targets: plan within 1.2x of ideal (minimal requests x latency / concurrency), and apply within
// 1.05x of its floor script (the same requests from bare undici, bench/apply-floor-child.ts; the
// median of three rounds of the apply and its floor, each on a fresh organization). The apply's
// ratio to ideal is shown for reading beside the floor's on undici and on node:http: on this
// 2-core machine the bare undici script itself takes 1.11-1.14x of ideal, and the same script on
// node:http 1.08-1.10x, so "apply within 1.1x of ideal" (set when notiform's transport was
// node:http) is restated as the apply within 1.05x of its undici floor; a plan
// of 1,000 workflows x 4 steps of content within 1.1x of the floor script for the same reads; under a
// 100 requests/s limiter no failure and at most 5 % of requests answered 429; a plan of 10,000
// topics under the hosted Free-plan limit (20/s, burst +10 %) within 1.1x of requests / limit
// with no 429; plan within 1.05x of the floor script (the content scenario 1.08x; each the median
// of three interleaved rounds of the plan and its floor), its first request within
// 50 ms of the floor script's first request (the median of the rounds': Node's start and
// undici's load; see FIRST_REQUEST_OVER_FLOOR_MS) and planning + output within 100 ms of the last answer; 50,000 resources offline in under 2 s wall and 2 s CPU with peak RSS under 300 MB; a preview of 1,000 workflows x 4 message steps, and validate of that config,
// each under 2 s wall.
import { loadavg } from "node:os";
import { benchApplyScale } from "./apply-scale.js";
import { benchContentScale } from "./content-scale.js";
import { benchEmulatorThroughput } from "./emulator-throughput.js";
import { benchHostedLimit } from "./hosted-limit.js";
import { benchOffline } from "./offline-scale.js";
import { benchPlanScale, LATENCY_MS } from "./plan-scale.js";
import { benchPreviewScale } from "./preview-scale.js";

const json = process.argv.includes("--json");

/**
 * How much later than the floor script's first request the plan's may leave (ms). Issue 36 set
 * "within 150 ms of process start" when notiform's left at 90 ms on node:http, and asked for the
 * target to be restated with the number if undici's load costs more. An absolute time measures
 * the machine: on this project's 2-core machine (2026-11-27) the last node:http build
 * (c494b9a) leaves at 181 to 210 ms, this one at 208 to 252 ms, and the floor
 * script (bare undici) at 159 to 211 ms (three runs each, alternated); a bare script's first
 * request through undici's index leaves about 200 ms after its spawn, through node:http about
 * 65 ms. So the target is what notiform may add to the floor script's: its bundle, the flags,
 * the config worker's start, the state file, with room for the ~20 ms a median of three
 * process starts still moves by here.
 */
const FIRST_REQUEST_OVER_FLOOR_MS = 50;
const log = (text: string) => {
  if (!json) process.stderr.write(`${text}\n`);
};

const loadBefore = loadavg();
log(
  "bench: plan of 10,000 topics + 5,000 overrides + 500 workflows + 1,000 tenants + 50 layouts (20 ms latency) ...",
);
const plan = await benchPlanScale();
log("bench: plan of 1,000 workflows x 4 steps of content (20 ms latency) ...");
const content = await benchContentScale();
log("bench: apply of 2,000 changes at concurrency 8 ...");
const apply = await benchApplyScale();
log("bench: apply of 2,000 changes under a 100 requests/s limiter ...");
const limited = await benchApplyScale({ perSecond: 100 });
log("bench: plan of 10,000 topics under the hosted Free-plan limit (20/s, burst 22) ...");
const hosted = await benchHostedLimit();
log("bench: offline validate + plan of 50,000 resources in 100 files ...");
const offline = await benchOffline();
log("bench: preview of 1,000 workflows x 4 message steps, and validate of the same config ...");
const preview = await benchPreviewScale();
log("bench: emulator throughput ...");
const throughput = await benchEmulatorThroughput();

const targets = {
  planWithin12xIdeal: plan.ratioToIdeal <= 1.2,
  planMinimalRequests: plan.requests <= plan.minimalRequests,
  planWithin105xFloor: plan.ratioToFloor <= 1.05,
  planFirstRequestWithin50msOfFloor:
    plan.firstRequestMs <= plan.floorFirstRequestMs + FIRST_REQUEST_OVER_FLOOR_MS,
  planAfterLastAnswerWithin100ms: plan.afterLastAnswerMs <= 100,
  contentWithin108xFloor: content.ratioToFloor <= 1.08,
  contentWithin11xFloor: content.ratioToFloor <= 1.1,
  contentMinimalRequests: content.requests <= content.minimalRequests,
  applyWithin105xFloor: apply.ratioToFloor !== undefined && apply.ratioToFloor <= 1.05,
  applyMinimalRequests: apply.requests <= apply.minimalRequests,
  limitedNoFailures: limited.failures === 0,
  limited429AtMost5Percent: limited.share429 <= 0.05,
  hostedWithin11xRequestsPerLimit: hosted.ratioToIdeal <= 1.1,
  hostedNo429: hosted.rateLimited429 === 0,
  offlineUnder2sWall: offline.totalMs < 2_000,
  offlineUnder2sCpu: offline.cpuMs < 2_000,
  offlineRssUnder300Mb: offline.peakRssMb < 300,
  previewUnder2sWall: preview.previewMs < 2_000,
  previewValidateUnder2sWall: preview.validateMs < 2_000,
};
const passed = Object.values(targets).filter(Boolean).length;
const load = { before: loadBefore, after: loadavg(), cpus: (await import("node:os")).cpus().length };
const results = {
  node: process.version,
  load,
  plan,
  content,
  apply,
  limited,
  hosted,
  offline,
  preview,
  throughput,
  targets,
};

if (json) {
  process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
} else {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const x = (ratio: number) => `${ratio.toFixed(2)}x`;
  const ok = (pass: boolean) => (pass ? "pass" : "FAIL");
  const rows: [string, string, string][] = [
    [
      "plan 16,550 unchanged: wall",
      s(plan.wallMs),
      `ideal ${s(plan.idealMs)} -> ${x(plan.ratioToIdeal)} (target 1.2x) ${ok(targets.planWithin12xIdeal)}`,
    ],
    [
      "plan: requests",
      String(plan.requests),
      `minimal ${plan.minimalRequests} -> ${x(plan.requests / plan.minimalRequests)} ${ok(targets.planMinimalRequests)}`,
    ],
    [
      "plan: first request / last answer",
      `${s(plan.firstRequestMs)} / ${s(plan.lastAnswerMs)}`,
      `requests in flight on average ${plan.meanInFlight.toFixed(2)} of ${plan.concurrency}; first request (median of ${plan.firstRequestsMs.length} rounds: ${plan.firstRequestsMs.map(s).join(", ")}) the floor script's ${s(plan.floorFirstRequestMs)}, target its + ${s(FIRST_REQUEST_OVER_FLOOR_MS)} ${ok(targets.planFirstRequestWithin50msOfFloor)}`,
    ],
    [
      "plan: after the last answer (planning + output)",
      s(plan.afterLastAnswerMs),
      `target 0.10 s ${ok(targets.planAfterLastAnswerWithin100ms)}`,
    ],
    [
      "plan: reads (first request to last answer)",
      s(plan.readsMs),
      `ideal ${s(plan.idealMs)} -> ${x(plan.readsRatioToIdeal)}; before: process start + config load; after: planning + output`,
    ],
    [
      "plan: floor (bare undici script, same requests)",
      s(plan.floorMs),
      `ideal -> ${x(plan.floorRatioToIdeal)}; notiform -> ${x(plan.ratioToFloor)} of the floor, median of ${plan.ratiosToFloor.length} rounds (${plan.ratiosToFloor.map(x).join(", ")}) (target 1.05x) ${ok(targets.planWithin105xFloor)}`,
    ],
    [
      "plan: notiform's transport alone, same requests",
      s(plan.transportMs),
      `-> ${x(plan.transportRatioToFloor)} of the floor (no config, no planning: what the transport costs)`,
    ],
    [
      "plan: against the emulator's own answer time",
      `${plan.meanAnswerMs.toFixed(1)} ms`,
      `mean per request (latency ${LATENCY_MS} ms): ideal at that time ${s((plan.minimalRequests * plan.meanAnswerMs) / plan.concurrency)} -> ${x(plan.wallMs / ((plan.minimalRequests * plan.meanAnswerMs) / plan.concurrency))} (for reading; the targets use the nominal latency)`,
    ],
    [
      "naive baseline (sequential GET each)",
      s(plan.naive.extrapolatedMs),
      `${x(plan.naive.ratioToNotiform)} slower (measured on ${plan.naive.sampleResources}, extrapolated)`,
    ],
    [
      "plan 1,000 workflows x 4 steps: wall",
      s(content.wallMs),
      `floor ${s(content.floorMs)} -> ${x(content.ratioToFloor)}, median of ${content.ratiosToFloor.length} rounds (${content.ratiosToFloor.map(x).join(", ")}) (target 1.1x) ${ok(targets.contentWithin11xFloor)}; 1.08x ${ok(targets.contentWithin108xFloor)}`,
    ],
    [
      "content plan: requests",
      String(content.requests),
      `minimal ${content.minimalRequests} (list pages + one read per workflow) ${ok(targets.contentMinimalRequests)}`,
    ],
    [
      "apply 2,000 changes: wall",
      s(apply.wallMs),
      `ideal ${s(apply.idealMs)} -> ${x(apply.ratioToIdeal)} (for reading: the floors below take ${apply.floor ? x(apply.floor.ratioToIdeal) : "-"} on undici, ${apply.nodeHttpFloor ? x(apply.nodeHttpFloor.ratioToIdeal) : "-"} on node:http)`,
    ],
    [
      "apply: floor (bare undici script, same requests)",
      apply.floor ? s(apply.floor.wallMs) : "-",
      apply.floor && apply.ratioToFloor !== undefined
        ? `ideal -> ${x(apply.floor.ratioToIdeal)}; notiform -> ${x(apply.ratioToFloor)} of the floor, median of ${apply.ratiosToFloor?.length ?? 1} rounds (${(apply.ratiosToFloor ?? [apply.ratioToFloor]).map(x).join(", ")}) (target 1.05x) ${ok(targets.applyWithin105xFloor)}; its first request ${s(apply.floor.firstRequestMs)}, in flight ${apply.floor.meanInFlight.toFixed(2)}`
        : "not measured",
    ],
    [
      "apply: the same floor on node:http",
      apply.nodeHttpFloor ? s(apply.nodeHttpFloor.wallMs) : "-",
      apply.nodeHttpFloor
        ? `ideal -> ${x(apply.nodeHttpFloor.ratioToIdeal)}; its first request ${s(apply.nodeHttpFloor.firstRequestMs)}, in flight ${apply.nodeHttpFloor.meanInFlight.toFixed(2)} (for reading: what undici costs against Node's own client)`
        : "not measured",
    ],
    [
      "apply: requests / failures",
      `${apply.requests} / ${apply.failures}`,
      `minimal ${apply.minimalRequests} (${apply.writes} writes) -> ${x(apply.requests / apply.minimalRequests)} ${ok(targets.applyMinimalRequests)}`,
    ],
    [
      "apply: first request / last answer",
      `${s(apply.firstRequestMs)} / ${s(apply.lastAnswerMs)}`,
      `requests in flight on average ${apply.meanInFlight.toFixed(2)} of ${apply.concurrency}`,
    ],
    [
      "apply: against the emulator's own answer time",
      `${apply.meanAnswerMs.toFixed(1)} ms`,
      `mean per request (latency ${LATENCY_MS} ms): ideal at that time ${s((apply.minimalRequests * apply.meanAnswerMs) / apply.concurrency)} -> ${x(apply.wallMs / ((apply.minimalRequests * apply.meanAnswerMs) / apply.concurrency))}`,
    ],
    [
      "apply at 100 req/s: wall",
      s(limited.wallMs),
      `ideal ${s(limited.idealMs)} -> ${x(limited.ratioToIdeal)}`,
    ],
    [
      "apply at 100 req/s: 429s / failures",
      `${limited.rateLimited429} / ${limited.failures}`,
      `${(limited.share429 * 100).toFixed(1)} % of ${limited.requests} (target <= 5 %, 0 failures) ${ok(targets.limited429AtMost5Percent && targets.limitedNoFailures)}`,
    ],
    [
      "hosted Free plan, plan of 10,000 topics",
      s(hosted.wallMs),
      `requests / limit ${s(hosted.idealMs)} -> ${x(hosted.ratioToIdeal)} (target 1.1x) ${ok(targets.hostedWithin11xRequestsPerLimit)}`,
    ],
    [
      "hosted: requests / 429s",
      `${hosted.requests} / ${hosted.rateLimited429}`,
      `minimal ${hosted.minimalRequests}; target 0 429s ${ok(targets.hostedNo429)}`,
    ],
    [
      "offline 50,000 resources in 100 files: wall",
      s(offline.totalMs),
      `load+validate ${s(offline.loadValidateMs)}; target < 2 s -> ${x(offline.totalMs / 2_000)} ${ok(targets.offlineUnder2sWall)}`,
    ],
    [
      "offline: CPU",
      s(offline.cpuMs),
      `target < 2 s -> ${x(offline.cpuMs / 2_000)} ${ok(targets.offlineUnder2sCpu)}`,
    ],
    [
      "offline: peak RSS",
      `${offline.peakRssMb.toFixed(0)} MB`,
      `target < 300 MB -> ${x(offline.peakRssMb / 300)} ${ok(targets.offlineRssUnder300Mb)}`,
    ],
    [
      "preview 1,000 workflows x 4 message steps: wall",
      s(preview.previewMs),
      `${preview.steps} steps rendered to a site, median of ${preview.previewRoundsMs.length} rounds (${preview.previewRoundsMs.map(s).join(", ")}); target < 2 s -> ${x(preview.previewMs / 2_000)} ${ok(targets.previewUnder2sWall)}`,
    ],
    [
      "preview: the disk alone, same files",
      s(preview.diskFloorMs),
      `${preview.files} files written again by a bare loop after the median round (for reading: this machine's disk, not notiform)`,
    ],
    [
      "validate of the same config (templates): wall",
      s(preview.validateMs),
      `target < 2 s -> ${x(preview.validateMs / 2_000)} ${ok(targets.previewValidateUnder2sWall)}`,
    ],
    [
      "emulator: GET /v1/organizations/me",
      `${throughput.perSecond.toFixed(0)}/s`,
      `${throughput.requests} in ${throughput.seconds.toFixed(1)} s`,
    ],
  ];
  const width = Math.max(...rows.map((r) => r[0].length));
  const width2 = Math.max(...rows.map((r) => r[1].length));
  const avg = (l: number[]) => l.map((v) => v.toFixed(2)).join(" ");
  process.stdout.write(
    `notiform bench (${process.version}; ${load.cpus} CPUs; load average before ${avg(load.before)}, after ${avg(load.after)})\n`,
  );
  for (const [name, value, note] of rows)
    process.stdout.write(`${name.padEnd(width)}  ${value.padStart(width2)}  ${note}\n`);
  process.stdout.write(`targets: ${passed}/${Object.keys(targets).length} pass\n`);
}
