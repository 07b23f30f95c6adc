// A plan plans each kind as soon as its reads are in (src/pipeline/prepare-plan.ts, startPlan),
// while a slower kind is still being read: here the notification groups (one round trip, asked
// when the reads start) while the topics' hundred pages are read, with a round trip long enough
// that the order cannot come by chance. `--verbose` says how many resources were planned during
// the reads; the plan is the same.
import { describe, expect, it } from "vitest";
import { bigOrganization, topicKey } from "../support/big-organization.js";
import { cliTests } from "../support/cli.js";

const TOPICS = 1_000; // 100 pages of 10
const SEED = bigOrganization(TOPICS, {
  notificationGroups: [{ _id: "000000000000000000000001", name: "Orders" }],
});

const CONFIG = `version: 1
organization: Big Inc
topics:
${Array.from({ length: TOPICS }, (_, i) => `  - { key: ${topicKey(i)}, name: ${i === 7 ? "Renamed" : `Topic ${i}`} }`).join("\n")}
notificationGroups:
  - { key: orders, name: Orders }
  - { key: billing, name: Billing }
`;

const cliTest = cliTests();

describe("planning during the reads", () => {
  it("plans the groups while the topics are still being read, and the plan is whole", async () => {
    const test = await cliTest({ seedFile: null, seed: SEED, config: CONFIG });
    // 100 pages at 100 ms, eight at a time: the topics take over a second from their first
    // page, so a config load slowed several times over (a busy CI machine) still starts the
    // groups' read, and ends it, well before.
    test.emulator.setFaults({ latencyMs: 100 });
    const plan = await test.cli("plan", "--output", "json", "--verbose");
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stderr).toMatch(
      /live reads [\d.]+ s \(\d+ requests, 2 of 1002 resources planned meanwhile\)/,
    );
    const actions = JSON.parse(plan.stdout).actions as { id: string; op: string }[];
    expect(actions.map((a) => [a.id, a.op])).toEqual([
      ["notificationGroup/billing", "create"],
      [`topic/${topicKey(7)}`, "update"],
    ]);
  });
});
