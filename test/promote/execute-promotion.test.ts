// Applying a promotion with the real client over HTTP against the emulator: groups before
// workflows, a change that no longer exists is a failure naming the change and its entity, a
// workflow whose group failed is skipped, and nothing is sent after a stop.
import { afterEach, describe, expect, it } from "vitest";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";
import type { ApiClient } from "../../src/kinds/client.js";
import { createClient } from "../../src/kinds/client.js";
import type { Change } from "../../src/kinds/endpoints/wire.js";
import { buildPromotion } from "../../src/promote/build-promotion.js";
import { executePromotion } from "../../src/promote/execute-promotion.js";
import type { Promotion, PromotionEntry } from "../../src/promote/model.js";
import { SEED } from "../support/cli.js";

const W1 = "64f1c0ffee0000000000a001";
const MISSING = "6b0000000000000000000bad";

let emulator: EmulatorHandle | undefined;
let client: ApiClient | undefined;
afterEach(async () => {
  await client?.close();
  await emulator?.close();
  client = undefined;
  emulator = undefined;
});

async function setup() {
  emulator = await startEmulator({ seedFile: SEED, port: 0 });
  client = createClient({ baseUrl: emulator.url, apiKey: emulator.apiKey });
  const group = await client.createNotificationGroup({ name: "Billing" });
  await client.updateWorkflow(W1, { name: "Order shipped v2", notificationGroupId: group._id });
  const changes = await client.listAllChanges({ promoted: false });
  const promotion = buildPromotion({
    changes,
    managed: {
      kinds: {
        workflow: new Map([[W1, { key: "order-shipped" }]]),
        notificationGroup: new Map([[group._id, { key: "billing" }]]),
      },
    },
    all: false,
    target: { apiUrl: emulator.url, organization: "Acme Inc", environment: null, environmentId: "e" },
    createdBy: "test",
    mask: (v) => v,
  });
  return { client, emulator, group, changes, promotion };
}

function withEntries(promotion: Promotion, entries: PromotionEntry[]): Promotion {
  return { ...promotion, entries };
}

describe("executePromotion", () => {
  it("promotes groups before workflows and reports each as applied", async () => {
    const { client, emulator, promotion } = await setup();
    emulator.clearRequests();
    const report = await executePromotion({ client, promotion, concurrency: 4 });
    expect(report.counts).toEqual({ applied: 2, alreadyPromoted: 0, failed: 0, skipped: 0 });
    const posted = emulator.requests.filter((r) => r.method === "POST").map((r) => r.path);
    expect(posted).toEqual(promotion.entries.map((e) => `/v1/changes/${e.changeId}/apply`));
    expect(promotion.entries.map((e) => e.kind)).toEqual(["notificationGroup", "workflow"]);
    // Only the fresh organization's DefaultLayout change, which the config does not name, is left.
    const left = await client.listAllChanges({ promoted: false });
    expect(left.map((c) => c.type)).toEqual(["DefaultLayout"]);
  });

  it("names the change and its entity when the server no longer has it, and skips the workflows of a failed group", async () => {
    const { client, promotion, group } = await setup();
    const [groupEntry, workflowEntry] = promotion.entries as [PromotionEntry, PromotionEntry];
    const vanished = { ...groupEntry, changeId: MISSING };
    const report = await executePromotion({
      client,
      promotion: withEntries(promotion, [vanished, workflowEntry]),
      concurrency: 1,
    });
    expect(report.counts).toEqual({ applied: 0, alreadyPromoted: 0, failed: 1, skipped: 1 });
    const failed = report.results[0];
    expect(failed?.status).toBe("failed");
    expect(failed?.error?.code).toBe("API_NOT_FOUND");
    expect(failed?.error?.message).toContain(`change ${MISSING} of notification group billing`);
    expect(failed?.error?.message).toContain(`Development id ${group._id}`);
    expect(failed?.error?.message).toContain("Parent Change not found");
    expect(report.results[1]).toMatchObject({ status: "skipped", label: "workflow order-shipped" });
    // The workflow's change is still pending: nothing was promoted.
    const pending = (await client.listAllChanges({ promoted: false })).map((c: Change) => c._id);
    expect(pending).toContain(workflowEntry.changeId);
  });

  it("starts nothing once stopped, and says it was interrupted", async () => {
    const { client, emulator, promotion } = await setup();
    const stop = new AbortController();
    stop.abort();
    emulator.clearRequests();
    const report = await executePromotion({ client, promotion, concurrency: 2, stopSignal: stop.signal });
    expect(report.interrupted).toBe(true);
    expect(report.counts.skipped).toBe(2);
    expect(emulator.requests.filter((r) => r.method === "POST")).toEqual([]);
  });
});
