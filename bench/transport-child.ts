// The plan scenario's floor requests (floor-child.ts: the same paths, lanes and followers) sent
// through notiform's own transport (src/api: the limiter, retries, timeouts, size caps, the
// nesting check, error naming) instead of bare undici: no config, no planning. Against the
// floor, it shows what the transport itself costs; against notiform plan, what everything else
// does. Run by plan-scale.ts.
import { openConnection } from "../src/api/index.js";

const apiKey = process.env.NOTIFORM_API_KEY ?? "";
const [url = "", concurrencyArg = "8", topicPagesArg = "0", workflowPagesArg = "0", layoutPagesArg = "0"] =
  process.argv.slice(2);
const concurrency = Number(concurrencyArg);
// insecureHttp: the emulator listens on plain http on 127.0.0.1.
const connection = openConnection({ baseUrl: url, apiKey, concurrency, insecureHttp: true });

type Query = Record<string, number>;

async function get(path: string, query?: Query): Promise<unknown> {
  const { json } = await connection.requester.request({
    endpoint: "bench",
    method: "GET",
    path,
    ...(query !== undefined ? { query } : {}),
  });
  return json;
}

const reads: [string, Query?][] = [
  ["/v1/organizations/me"],
  ["/v1/environments/me"],
  ...Array.from({ length: Number(topicPagesArg) }, (_, page): [string, Query] => [
    "/v1/topics",
    { page, pageSize: 10 },
  ]),
  ...Array.from({ length: Number(workflowPagesArg) }, (_, page): [string, Query] => [
    "/v1/workflows",
    { page, limit: 100 },
  ]),
  ...Array.from({ length: Number(layoutPagesArg) }, (_, page): [string, Query] => [
    "/v1/layouts",
    { page, pageSize: 100 },
  ]),
];
let next = 0;

async function lane(): Promise<void> {
  while (next < reads.length) {
    const [path, query] = reads[next] as [string, Query?];
    next += 1;
    await get(path, query);
  }
}

/** A list that says `hasMore` (in either envelope), followed to its end. */
async function follow(path: string): Promise<void> {
  for (let page = 0; ; page += 1) {
    const body = (await get(path, { page, limit: 100 })) as {
      hasMore?: boolean;
      data?: { hasMore?: boolean };
    };
    if ((body.hasMore ?? body.data?.hasMore) !== true) return;
  }
}

await Promise.all([
  ...Array.from({ length: concurrency - 2 }, () => lane()),
  follow("/v1/workflow-overrides").then(lane),
  follow("/v1/tenants").then(lane),
]);
await connection.close();
