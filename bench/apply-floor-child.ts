// The floor of the apply scenario: the same minimal requests as apply-scale's notiform apply (the
// organization and the environment, every page of the topic list, the override list's page, the
// workflow list's page; then the topic renames, the topic creates and the override creates, with
// the bodies notiform sends), from a bare undici script with the same number of connections, in
// its own process, timed from its spawn like the CLI. No config, no plan, no state file: what this
// machine and the emulator allow for those requests. Run by apply-scale.ts.
// BENCH_FLOOR_CLIENT=node-http sends them through node:http's keep-alive Agent instead: the
// same script on Node's own client, to tell what undici costs on this machine from what the
// machine allows (the apply's target against ideal was set when notiform ran on node:http).
import { randomUUID } from "node:crypto";
import { Agent, request as httpRequest } from "node:http";
import { Pool } from "undici";
import { tenantId, workflowId } from "./fixtures.js";

// The key from the environment, as the CLI takes it: never on a command line others can read.
const apiKey = process.env.NOTIFORM_API_KEY ?? "";
const [url = "", concurrencyArg = "8", renamedArg = "0", createdArg = "0", overridesArg = "0"] =
  process.argv.slice(2);
const concurrency = Number(concurrencyArg);
const renamed = Number(renamedArg);
const created = Number(createdArg);
const overrides = Number(overridesArg);
const headers = { authorization: `ApiKey ${apiKey}`, "content-type": "application/json" };
const viaNodeHttp = process.env.BENCH_FLOOR_CLIENT === "node-http";
const pool = viaNodeHttp ? undefined : new Pool(url, { connections: concurrency });
const agent = viaNodeHttp ? new Agent({ keepAlive: true, maxSockets: concurrency }) : undefined;

interface Send {
  method: "GET" | "POST" | "PATCH";
  path: string;
  body?: unknown;
}

async function send({ method, path, body }: Send): Promise<void> {
  // One Idempotency-Key per POST, as notiform sends (the emulator looks each one up).
  const sent = method === "POST" ? { ...headers, "idempotency-key": randomUUID() } : headers;
  const text = body !== undefined ? JSON.stringify(body) : undefined;
  const status =
    pool !== undefined
      ? await viaUndici(pool, method, path, sent, text)
      : await viaHttp(method, path, sent, text);
  if (status >= 300) throw new Error(`apply floor: ${method} ${path} -> ${status}`);
}

async function viaUndici(
  pool: Pool,
  method: Send["method"],
  path: string,
  sent: Record<string, string>,
  text: string | undefined,
): Promise<number> {
  const response = await pool.request({
    method,
    path,
    headers: sent,
    ...(text !== undefined ? { body: text } : {}),
  });
  await response.body.text();
  return response.statusCode;
}

function viaHttp(
  method: Send["method"],
  path: string,
  sent: Record<string, string>,
  text: string | undefined,
): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: hostname,
        port,
        method,
        path,
        agent,
        headers: text !== undefined ? { ...sent, "content-length": String(Buffer.byteLength(text)) } : sent,
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(text);
  });
}

/** Runs `sends` on `concurrency` lanes, each taking the next one as it is free. */
async function lanes(sends: readonly Send[]): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < sends.length) {
      const item = sends[next] as Send;
      next += 1;
      await send(item);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
}

const everyPreference = { email: true, sms: true, in_app: true, chat: true, push: true };
// Reads first (a plan needs them all), then every write: none depends on another.
await lanes([
  { method: "GET", path: "/v1/organizations/me" },
  { method: "GET", path: "/v1/environments/me" },
  ...Array.from({ length: Math.ceil(renamed / 10) }, (_, page) => ({
    method: "GET" as const,
    path: `/v1/topics?page=${page}&pageSize=10`,
  })),
  { method: "GET", path: "/v1/workflows?page=0&limit=100" },
  { method: "GET", path: "/v1/workflow-overrides?page=0&limit=100" },
]);
await lanes([
  ...Array.from({ length: renamed }, (_, i) => ({
    method: "PATCH" as const,
    path: `/v1/topics/topic-${i}`,
    body: { name: `Topic ${i} (renamed)` },
  })),
  ...Array.from({ length: created }, (_, i) => ({
    method: "POST" as const,
    path: "/v1/topics",
    body: { key: `topic-${renamed + i}`, name: `Topic ${renamed + i}` },
  })),
  ...Array.from({ length: overrides }, (_, i) => ({
    method: "POST" as const,
    path: "/v1/workflow-overrides",
    body: {
      workflowId: workflowId(0),
      tenantId: tenantId(i),
      active: true,
      preferenceSettings: everyPreference,
    },
  })),
]);
await pool?.close();
agent?.destroy();
