// The apply engine on its own, over real HTTP against the emulator: how many actions run at once,
// the order dependencies impose, what a failure and a soft stop leave unstarted, and what each
// result says. The CLI tests cover the same engine end to end; these pin its scheduling.
import { afterEach, describe, expect, it } from "vitest";
import { executePlan } from "../../src/apply/execute-plan.js";
import { StateRecorder } from "../../src/apply/state-recorder.js";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";
import { type ApiClient, createClient } from "../../src/kinds/client.js";
import type { PlanAction } from "../../src/kinds/plan-action.js";
import { topicRequest } from "../../src/kinds/topic/requests.js";
import type { TopicOperation } from "../../src/kinds/topic/types.js";
import type { Plan } from "../../src/plan/model.js";
import { emptyState } from "../../src/state/model.js";
import { planOf } from "../helpers/builders.js";

let emulator: EmulatorHandle | undefined;
let client: ApiClient | undefined;
afterEach(async () => {
  await client?.close();
  await emulator?.close();
  client = undefined;
  emulator = undefined;
});

async function connect(
  latencyMs: number,
  jitterMs = 0,
): Promise<{ emulator: EmulatorHandle; client: ApiClient }> {
  emulator = await startEmulator({ seedFile: "examples/emulator-seed.yaml", port: 0, latencyMs, jitterMs });
  client = createClient({ baseUrl: emulator.url, apiKey: emulator.apiKey, concurrency: 8 });
  return { emulator, client };
}

function create(key: string, dependsOn: string[] = []): PlanAction {
  const operation: TopicOperation = { type: "topic.create", key, name: `Topic ${key}` };
  return {
    id: `topic/${key}`,
    kind: "topic",
    key,
    op: "create",
    changes: [{ field: "name", new: operation.name }],
    operations: [operation],
    requests: [topicRequest(operation)],
    dependsOn,
    live: { origin: "none", digest: "" },
  };
}

/** The executor reads the actions; the target names the state it records into. */
function planWith(actions: PlanAction[]): Plan {
  return planOf(actions, { target: { organization: "Acme Inc", environment: null } });
}

function run(
  api: ApiClient,
  actions: PlanAction[],
  options: { concurrency: number; continueOnError?: boolean },
) {
  const plan = planWith(actions);
  const recorder = new StateRecorder(emptyState(plan.target), undefined);
  return executePlan({
    client: api,
    plan,
    recorder,
    concurrency: options.concurrency,
    continueOnError: options.continueOnError ?? false,
  });
}

/** The topic POSTs the emulator answered, with when each arrived and ended. */
function posts(handle: EmulatorHandle) {
  return handle.requests
    .filter((r) => r.method === "POST" && r.path === "/v1/topics")
    .map((r) => ({
      key: (r.body as { key: string }).key,
      status: r.status,
      at: r.at,
      end: r.at + (r.durationMs ?? 0),
    }));
}

/** Most requests in flight at once, from the arrivals and ends the emulator logged. */
function mostInFlight(requests: { at: number; end: number }[]): number {
  let most = 0;
  for (const r of requests) {
    const overlapping = requests.filter((o) => o.at <= r.at && o.end > r.at).length;
    most = Math.max(most, overlapping);
  }
  return most;
}

describe("executePlan", () => {
  it("runs `concurrency` independent actions at once, never more, and applies each once", async () => {
    const { emulator: handle, client: api } = await connect(30);
    const keys = Array.from({ length: 12 }, (_, i) => `t${i}`);
    const report = await run(
      api,
      keys.map((key) => create(key)),
      { concurrency: 3 },
    );
    expect(report.counts).toEqual({ applied: 12, failed: 0, skipped: 0 });
    expect(report.results.map((r) => r.id)).toEqual(keys.map((key) => `topic/${key}`));
    const sent = posts(handle);
    expect(sent.map((p) => p.key).sort()).toEqual([...keys].sort());
    expect(mostInFlight(sent)).toBe(3);
  });

  it("refills a slot as soon as its action ends, not when the others end too", async () => {
    // Answers take 10 to 50 ms: a freed slot refilled at once starts its next request while
    // the other slot's, started well before, is still running; slots refilled only when both
    // end start their requests together, each beside nothing older.
    const { emulator: handle, client: api } = await connect(30, 20);
    const keys = Array.from({ length: 20 }, (_, i) => `t${i}`);
    const report = await run(
      api,
      keys.map((key) => create(key)),
      { concurrency: 2 },
    );
    expect(report.counts.applied).toBe(20);
    const sent = posts(handle).sort((x, y) => x.at - y.at);
    const later = sent.slice(2);
    const besideRunning = later.filter((r) => sent.some((o) => o.at < r.at - 5 && o.end > r.at));
    expect(besideRunning.length).toBeGreaterThanOrEqual(later.length / 2);
    expect(mostInFlight(sent)).toBe(2);
  });

  it("starts a dependent only once its dependency is applied", async () => {
    const { emulator: handle, client: api } = await connect(20);
    const report = await run(
      api,
      [create("a"), create("b", ["topic/a"]), create("c", ["topic/b"]), create("d")],
      {
        concurrency: 4,
      },
    );
    expect(report.counts.applied).toBe(4);
    const sent = new Map(posts(handle).map((p) => [p.key, p]));
    const [a, b, c, d] = ["a", "b", "c", "d"].map((key) => sent.get(key));
    expect(b?.at).toBeGreaterThanOrEqual(a?.end ?? Number.POSITIVE_INFINITY);
    expect(c?.at).toBeGreaterThanOrEqual(b?.end ?? Number.POSITIVE_INFINITY);
    // The independent one did not wait for the chain.
    expect(d?.at).toBeLessThan(a?.end ?? 0);
  });

  it("after a failure starts nothing new and says why each of the rest was skipped", async () => {
    const { emulator: handle, client: api } = await connect(0);
    handle.injectFault({
      method: "POST",
      path: "/v1/topics",
      kind: { status: 400, body: { message: "no" } },
    });
    const report = await run(api, [create("a"), create("b"), create("c", ["topic/a"])], { concurrency: 1 });
    expect(report.results.map((r) => [r.id, r.status, r.reason])).toEqual([
      ["topic/a", "failed", undefined],
      ["topic/b", "skipped", "stopped after topic/a failed"],
      ["topic/c", "skipped", "stopped after topic/a failed"],
    ]);
    expect(posts(handle)).toHaveLength(1);
    expect(report.interrupted).toBe(false);
  });

  it("with continueOnError skips only the failure's dependents and carries on", async () => {
    const { emulator: handle, client: api } = await connect(0);
    handle.injectFault({
      method: "POST",
      path: "/v1/topics",
      kind: { status: 400, body: { message: "no" } },
    });
    const report = await run(
      api,
      [create("a"), create("b", ["topic/a"]), create("c"), create("d", ["topic/b"])],
      {
        concurrency: 1,
        continueOnError: true,
      },
    );
    expect(report.results.map((r) => [r.id, r.status, r.reason])).toEqual([
      ["topic/a", "failed", undefined],
      ["topic/b", "skipped", "depends on topic/a, which was failed"],
      ["topic/c", "applied", undefined],
      ["topic/d", "skipped", "depends on topic/b, which was skipped"],
    ]);
    expect(posts(handle).map((p) => p.key)).toEqual(["a", "c"]);
  });

  it("on a soft stop lets the running actions finish and starts nothing new", async () => {
    const { emulator: handle, client: api } = await connect(40);
    const stop = new AbortController();
    const plan = planWith(Array.from({ length: 10 }, (_, i) => create(`t${i}`)));
    const starts: string[] = [];
    const report = await executePlan({
      client: api,
      plan,
      recorder: new StateRecorder(emptyState(plan.target), undefined),
      concurrency: 2,
      continueOnError: false,
      stopSignal: stop.signal,
      onEvent: (event) => {
        if (event.type !== "start") return;
        starts.push(event.id);
        // Stop as the third action starts: it and the second are running.
        if (starts.length === 3) stop.abort();
      },
    });
    expect(report.interrupted).toBe(true);
    expect(report.results.slice(0, 3).map((r) => r.status)).toEqual(["applied", "applied", "applied"]);
    expect(report.results.slice(3).every((r) => r.status === "skipped" && r.reason === "interrupted")).toBe(
      true,
    );
    expect(starts).toHaveLength(3);
    expect(posts(handle)).toHaveLength(3);
  });
});
