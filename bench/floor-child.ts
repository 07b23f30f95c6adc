// The floor of the plan scenario: the same minimal requests as plan-scale's notiform plan (the
// organization and the environment, every page of the topic list, the override list and the
// tenant list followed page by page, every page of the workflow list, the layout list's page), sent by a bare undici script with the same number of
// connections, in its own process, timed from its spawn like the CLI. No config, no validation,
// no planning: what this machine and the emulator allow. Run by plan-scale.ts.
// With BENCH_TRANSPORT=notiform the same requests go through notiform's own transport (src/api:
// the limiter, retries, timeouts, size caps, the nesting check) instead: no config, no planning.
// Against the floor, that shows what the transport itself costs.
import { Pool } from "undici";
import { workflowId } from "./fixtures.js";

// The key from the environment, as the CLI takes it: never on a command line others can read.
const apiKey = process.env.NOTIFORM_API_KEY ?? "";
// workflowGets: workflows read one by one after the list (the content scenario, which has no overrides).
const [
  url = "",
  concurrencyArg = "8",
  topicPagesArg = "0",
  workflowPagesArg = "0",
  workflowGetsArg = "0",
  overridesArg = workflowGetsArg === "0" ? "1" : "0",
  tenantsArg = "0",
  layoutPagesArg = "0",
] = process.argv.slice(2);
const concurrency = Number(concurrencyArg);
const { get, close } = process.env.BENCH_TRANSPORT === "notiform" ? await viaNotiform() : bare();

/** GET with a bare undici pool. */
function bare(): { get: (path: string) => Promise<unknown>; close: () => Promise<void> } {
  const pool = new Pool(url, { connections: concurrency });
  const headers = { authorization: `ApiKey ${apiKey}` };
  return {
    get: async (path) => {
      const response = await pool.request({ method: "GET", path, headers });
      const body = await response.body.json();
      if (response.statusCode !== 200) throw new Error(`floor: GET ${path} -> ${response.statusCode}`);
      return body;
    },
    close: () => pool.close(),
  };
}

/** GET through notiform's transport (loaded only in this mode: the floor stays bare undici). */
async function viaNotiform(): Promise<{
  get: (path: string) => Promise<unknown>;
  close: () => Promise<void>;
}> {
  const { openConnection } = await import("../src/api/index.js");
  // insecureHttp: the emulator listens on plain http on 127.0.0.1.
  const connection = openConnection({ baseUrl: url, apiKey, concurrency, insecureHttp: true });
  return {
    get: async (path) =>
      (await connection.requester.request({ endpoint: "bench", method: "GET", path })).json,
    close: () => connection.close(),
  };
}

const paths = [
  "/v1/organizations/me",
  "/v1/environments/me",
  ...Array.from({ length: Number(topicPagesArg) }, (_, page) => `/v1/topics?page=${page}&pageSize=10`),
  ...Array.from({ length: Number(workflowPagesArg) }, (_, page) => `/v1/workflows?page=${page}&limit=100`),
  ...Array.from({ length: Number(workflowGetsArg) }, (_, i) => `/v1/workflows/${workflowId(i)}`),
  ...Array.from({ length: Number(layoutPagesArg) }, (_, page) => `/v1/layouts?page=${page}&pageSize=100`),
];
let next = 0;

/** Takes the next path until none is left. */
async function lane(): Promise<void> {
  while (next < paths.length) {
    const path = paths[next] as string;
    next += 1;
    await get(path);
  }
}

async function followOverrides(): Promise<void> {
  for (let page = 0; ; page += 1) {
    // The spec's envelope ({data: {hasMore, data}}) or a real server's flat page ({hasMore, data}).
    const body = (await get(`/v1/workflow-overrides?page=${page}&limit=100`)) as {
      hasMore?: boolean;
      data?: { hasMore?: boolean };
    };
    if ((body.hasMore ?? body.data?.hasMore) !== true) return;
  }
}

/** The tenant list: no total, `hasMore` true on a full page, so it ends on a short (empty) one. */
async function followTenants(): Promise<void> {
  for (let page = 0; ; page += 1) {
    const body = (await get(`/v1/tenants?page=${page}&limit=100`)) as { hasMore?: boolean };
    if (body.hasMore !== true) return;
  }
}

// One connection follows each list without a total, then joins the others on the rest, as
// notiform's limiter lets it.
const followers = [
  overridesArg === "1" ? followOverrides : undefined,
  tenantsArg === "1" ? followTenants : undefined,
]
  .filter((follow) => follow !== undefined)
  .map((follow) => follow().then(() => lane()));
await Promise.all([...Array.from({ length: concurrency - followers.length }, () => lane()), ...followers]);
await close();
