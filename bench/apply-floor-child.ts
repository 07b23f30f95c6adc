// The floor of the apply scenario: the same minimal requests as apply-scale's notiform apply (the
// organization and the environment, every page of the topic list, the override list's page, the
// workflow list's page; then the topic renames, the topic creates and the override creates, with
// the bodies notiform sends), from a bare undici script with the same number of connections, in
// its own process, timed from its spawn like the CLI. No config, no plan, no state file: what this
// machine and the emulator allow for those requests. Run by apply-scale.ts.
import { randomUUID } from "node:crypto";
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
const pool = new Pool(url, { connections: concurrency });
const headers = { authorization: `ApiKey ${apiKey}`, "content-type": "application/json" };

interface Send {
  method: "GET" | "POST" | "PATCH";
  path: string;
  body?: unknown;
}

async function send({ method, path, body }: Send): Promise<void> {
  const response = await pool.request({
    method,
    path,
    // One Idempotency-Key per POST, as notiform sends (the emulator looks each one up).
    headers: method === "POST" ? { ...headers, "idempotency-key": randomUUID() } : headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  await response.body.text();
  if (response.statusCode >= 300) throw new Error(`apply floor: ${method} ${path} -> ${response.statusCode}`);
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
await pool.close();
