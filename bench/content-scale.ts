// Workflow content at scale (issue 24): 1,000 workflows of 4 steps each (e-mail with HTML, delay,
// in-app, SMS), all unchanged, against the emulator (real flavor: the list holds no content, so
// each workflow is read by id) with 20 ms latency. The plan's minimal reads are the organization,
// the environment, every page of the workflow list and one GET per workflow; the floor is the
// same requests from a bare undici script (bench/floor-child.ts). Target: within 1.1x of it.
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Pool } from "undici";
import { startEmulator } from "../src/emulator/index.js";
import { benchDir, mustSucceed, requestTimeline, runCliTimed, type Timed } from "./cli.js";
import { seedFor, workflowId } from "./fixtures.js";
import { CONCURRENCY, LATENCY_MS, medianRound, ROUNDS } from "./plan-scale.js";

export const CONTENT_WORKFLOWS = 1_000;

export interface ContentScaleResult {
  workflows: number;
  steps: number;
  wallMs: number;
  requests: number;
  minimalRequests: number;
  floorMs: number;
  /** The median round's (ROUNDS interleaved rounds); the other figures are that round's. */
  ratioToFloor: number;
  /** Every round's plan/floor ratio, in the order run. */
  ratiosToFloor: number[];
  /** From the spawn to the first workflow read by id (the list and the config load come before). */
  firstReadByIdMs: number;
  firstRequestMs: number;
  lastAnswerMs: number;
  meanInFlight: number;
}

interface ContentRound {
  plan: Timed;
  requests: number;
  timeline: ReturnType<typeof requestTimeline>;
  firstReadByIdMs: number;
  floorMs: number;
}

const html = (i: number) =>
  `<h1>Order {{orderId}} shipped</h1>\n<p>Hello {{firstName}},</p>\n<p>Workflow ${i}: your parcel is on its way.</p>\n`;

/** The four steps of workflow `i`, as the server is sent them (set-up) and the config says them. */
function stepsOf(i: number) {
  return [
    {
      name: "email-customer",
      template: {
        type: "email",
        subject: `Order {{orderId}} shipped (${i})`,
        content: html(i),
        contentType: "customHtml",
      },
    },
    { name: "wait", template: { type: "delay" }, metadata: { type: "regular", amount: 1, unit: "hours" } },
    { name: "bell", template: { type: "in_app", content: `Shipped {{orderId}} (${i})` } },
    { name: "text", template: { type: "sms", content: `Order {{orderId}} shipped (${i})` } },
  ];
}

function configFor(count: number): string {
  const out = ["version: 1", "organization: Bench Inc", "workflows:"];
  for (let i = 0; i < count; i += 1) {
    out.push(
      `  - key: workflow-${i}`,
      `    id: ${workflowId(i)}`,
      "    steps:",
      "      - name: email-customer",
      "        type: email",
      "        template:",
      `          subject: "Order {{orderId}} shipped (${i})"`,
      `          content: { file: templates/workflow-${i}.html }`,
      "          contentType: customHtml",
      "      - name: wait",
      "        type: delay",
      "        metadata: { type: regular, amount: 1, unit: hours }",
      "      - name: bell",
      "        type: in_app",
      `        template: { content: "Shipped {{orderId}} (${i})" }`,
      "      - name: text",
      "        type: sms",
      `        template: { content: "Order {{orderId}} shipped (${i})" }`,
    );
  }
  return `${out.join("\n")}\n`;
}

export async function benchContentScale(count = CONTENT_WORKFLOWS): Promise<ContentScaleResult> {
  const emulator = await startEmulator({
    seed: seedFor({ workflows: count, tenants: 0 }),
    port: 0,
    flavor: "real",
  });
  try {
    // Set-up (no latency, not measured): every workflow gets its four steps.
    const pool = new Pool(emulator.url, { connections: CONCURRENCY });
    const headers = { authorization: `ApiKey ${emulator.apiKey}`, "content-type": "application/json" };
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < count) {
          const i = next++;
          const response = await pool.request({
            method: "PUT",
            path: `/v1/workflows/${workflowId(i)}`,
            headers,
            body: JSON.stringify({ steps: stepsOf(i) }),
          });
          await response.body.text();
          if (response.statusCode !== 200) throw new Error(`set-up PUT -> ${response.statusCode}`);
        }
      }),
    );
    await pool.close();
    const dir = await benchDir("content");
    await writeFile(join(dir, "notiform.yaml"), configFor(count));
    const { mkdir } = await import("node:fs/promises");
    await mkdir(join(dir, "templates"));
    for (let i = 0; i < count; i += 1) await writeFile(join(dir, "templates", `workflow-${i}.html`), html(i));
    const env = { NOTIFORM_API_KEY: emulator.apiKey };
    const args = (...rest: string[]) => [
      ...rest,
      "--api-url",
      emulator.url,
      "--concurrency",
      String(CONCURRENCY),
    ];
    // The server already matches: a plan is empty (any difference is a bug, not a bench figure).
    mustSucceed("check plan", await runCliTimed(args("plan", "--detailed-exitcode"), dir, env));

    emulator.setFaults({ latencyMs: LATENCY_MS });
    // The organization and the environment, every page of the workflow list, each workflow by id.
    const minimalRequests = 2 + Math.ceil(count / 100) + count;
    // As plan-scale: interleaved rounds, the median round's ratio (one pair varies by +-5 %).
    const rounds: ContentRound[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      emulator.clearRequests();
      const plan = mustSucceed("plan", await runCliTimed(args("plan", "--detailed-exitcode"), dir, env));
      const requests = emulator.requests.length;
      const timeline = requestTimeline(emulator.requests, plan.startedAt);
      // When the reads by id began: before it, the list and the config load; after it, the content.
      const firstById = emulator.requests.find((r) => /^\/v1\/workflows\/[0-9a-f]{24}$/.test(r.path));
      const firstReadByIdMs = firstById === undefined ? 0 : firstById.at - plan.startedAt;
      emulator.clearRequests();
      const floorMs = await floorRun(emulator.url, emulator.apiKey, count);
      if (emulator.requests.length !== minimalRequests) {
        throw new Error(
          `the floor script sent ${emulator.requests.length} requests, not the minimal ${minimalRequests}`,
        );
      }
      rounds.push({ plan, requests, timeline, firstReadByIdMs, floorMs });
    }
    const { round, ratio, ratios } = medianRound(rounds, (r) => r.plan.wallMs / r.floorMs);
    const { plan, requests, timeline, firstReadByIdMs, floorMs } = round;
    return {
      workflows: count,
      steps: count * 4,
      wallMs: plan.wallMs,
      requests,
      minimalRequests,
      floorMs,
      ratioToFloor: ratio,
      ratiosToFloor: ratios,
      firstReadByIdMs,
      ...timeline,
    };
  } finally {
    await emulator.close();
  }
}

async function floorRun(url: string, apiKey: string, count: number): Promise<number> {
  const script = fileURLToPath(new URL("./floor-child.js", import.meta.url));
  const started = performance.now();
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [script, url, String(CONCURRENCY), "0", String(Math.ceil(count / 100)), String(count)],
      {
        stdio: ["ignore", "ignore", "inherit"],
        env: { PATH: process.env.PATH ?? "", NOTIFORM_API_KEY: apiKey },
      },
    );
    child.on("error", reject);
    child.on("close", resolve);
  });
  if (code !== 0) throw new Error(`the floor script exited ${code}`);
  return performance.now() - started;
}
