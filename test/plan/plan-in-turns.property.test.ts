// Property: a plan made kind by kind as the reads come in (startPlan: any order of reads, any
// number of items per turn, turns taken or not between reads) is the plan planChanges makes from
// the whole snapshot at once: the same actions in the same order, the same warnings, unmanaged
// list and summary; and where planning fails (a workflow id the server does not have), the same
// error. The I/O edge plans this way while the slowest kind is still being read.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LiveSnapshot } from "../../src/kinds/kind.js";
import { KINDS } from "../../src/kinds/registry.js";
import type { TenantSpec } from "../../src/kinds/tenant/types.js";
import type { Tenant } from "../../src/kinds/tenant/wire.js";
import type { WorkflowSpec } from "../../src/kinds/workflow/types.js";
import { type PlanInput, planChanges, shareOf, startPlan } from "../../src/plan/plan-changes.js";
import type { StateFile } from "../../src/state/model.js";
import {
  desiredState,
  group,
  liveSnapshot,
  noState,
  override,
  TARGET,
  topic,
  workflow,
} from "../helpers/builders.js";

const WORKFLOW_IDS = ["64f1c0ffee0000000000a001", "64f1c0ffee0000000000a002", "64f1c0ffee0000000000a003"];
const TENANT_IDS = ["650000000000000000000001", "650000000000000000000002"];
const GROUP_IDS = ["000000000000000000000001", "000000000000000000000002", "000000000000000000000003"];
const KEYS = ["a", "b", "c", "d", "e"];
const NAMES = ["One", "Two"];

const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);
const subset = <T>(values: readonly T[]) => fc.subarray([...values]);

/** A desired state and a live snapshot of every kind that plans from fields alone. */
const world = fc.record({
  topics: fc.uniqueArray(fc.record({ key: pick(KEYS), name: pick(NAMES) }), { selector: (t) => t.key }),
  liveTopics: fc.uniqueArray(fc.record({ key: pick(KEYS), name: pick(NAMES) }), { selector: (t) => t.key }),
  groups: fc.uniqueArray(fc.record({ key: pick(KEYS), name: pick(NAMES) }), { selector: (g) => g.key }),
  // Two groups of one name on the server: a warning, made when the groups' read is in.
  liveGroups: fc.option(fc.array(pick(NAMES), { minLength: 0, maxLength: 3 }), { nil: undefined }),
  workflows: fc.uniqueArray(
    fc.record(
      {
        id: pick(WORKFLOW_IDS),
        name: pick(NAMES),
        active: fc.boolean(),
        notificationGroup: pick(KEYS),
      },
      { requiredKeys: ["id"] },
    ),
    { selector: (w) => w.id },
  ),
  // Fewer live workflows than the config names: planning that workflow fails.
  liveWorkflows: fc.option(subset(WORKFLOW_IDS), { nil: undefined }),
  tenants: fc.uniqueArray(fc.record({ identifier: pick(KEYS), name: pick(NAMES) }), {
    selector: (t) => t.identifier,
  }),
  liveTenants: fc.uniqueArray(fc.record({ identifier: pick(KEYS), name: pick(NAMES) }), {
    selector: (t) => t.identifier,
  }),
  overrides: fc.uniqueArray(
    fc.record({ workflow: pick(WORKFLOW_IDS), tenant: pick(TENANT_IDS), active: fc.boolean() }),
    { selector: (o) => `${o.workflow}:${o.tenant}` },
  ),
  liveOverrides: fc.uniqueArray(
    fc.record({ workflow: pick(WORKFLOW_IDS), tenant: pick(TENANT_IDS), active: fc.boolean() }),
    { selector: (o) => `${o.workflow}:${o.tenant}` },
  ),
  duplicates: fc.dictionary(pick(KINDS), fc.array(pick(KEYS), { maxLength: 2 })),
  unlisted: subset(KINDS),
  // A state file's group record, and an interrupted create to settle.
  recordedGroup: fc.option(pick(KEYS), { nil: undefined }),
  intent: fc.option(pick(KEYS), { nil: undefined }),
  targets: fc.option(fc.constantFrom("topic/a", "tenant/b", "notificationGroup/c"), { nil: undefined }),
});

type World = typeof world extends fc.Arbitrary<infer T> ? T : never;

function inputOf(w: World): PlanInput {
  const workflows = w.workflows.map((spec, i) => ({ key: `w${i}`, ...spec }) as WorkflowSpec);
  const desired = desiredState({
    topics: w.topics,
    notificationGroups: w.groups,
    workflows,
    tenants: w.tenants as TenantSpec[],
    overrides: w.overrides.map((o) => ({ workflow: o.workflow, tenant: o.tenant, active: o.active })),
  });
  const live: LiveSnapshot = liveSnapshot({
    topics: w.liveTopics.map((t) => topic(t.key, t.name)),
    notificationGroups: w.liveGroups?.map((name, i) => group(GROUP_IDS[i] ?? "", name)),
    workflows: w.liveWorkflows?.map((id) => workflow(id, { _notificationGroupId: GROUP_IDS[0] ?? "" })),
    tenants: w.liveTenants.map((t, i): Tenant => ({ _id: TENANT_IDS[i % 2] ?? "", ...t })),
    overrides: w.liveOverrides.map((o) => override(o.workflow, o.tenant, { active: o.active })),
  });
  live.duplicates = w.duplicates;
  if (w.unlisted.length > 0) live.unlisted = KINDS.filter((kind) => w.unlisted.includes(kind));
  const state: StateFile = noState();
  if (w.recordedGroup !== undefined)
    state.notificationGroups = { [w.recordedGroup]: { id: GROUP_IDS[1] ?? "", name: "One" } };
  if (w.intent !== undefined)
    state.intents = {
      [`topic/${w.intent}`]: { kind: "topic", key: w.intent, startedAt: "2026-11-26T10:00:00.000Z" },
    };
  return {
    desired,
    live,
    state,
    target: TARGET,
    createdBy: "test",
    ...(w.targets !== undefined ? { targets: [w.targets] } : {}),
  };
}

/** Nothing in the config, nothing on the server. */
const EMPTY_WORLD: World = {
  topics: [],
  liveTopics: [],
  groups: [],
  liveGroups: undefined,
  workflows: [],
  liveWorkflows: undefined,
  tenants: [],
  liveTenants: [],
  overrides: [],
  liveOverrides: [],
  duplicates: {},
  unlisted: [],
  recordedGroup: undefined,
  intent: undefined,
  targets: undefined,
};

/** The outcome of planning, error included, as a value to compare. */
function outcome(plan: () => unknown): unknown {
  try {
    return { plan: plan() };
  } catch (error) {
    return { error };
  }
}

describe("planning kind by kind as the reads come in (property)", () => {
  it("makes the plan planChanges makes, whatever the order of the reads and the size of a turn", () => {
    fc.assert(
      fc.property(
        world,
        fc.shuffledSubarray([...KINDS], { minLength: KINDS.length }),
        fc.array(fc.record({ budget: fc.integer({ min: 1, max: 4 }), turns: fc.nat(6) }), {
          minLength: KINDS.length,
          maxLength: KINDS.length,
        }),
        (w, order, pacing) => {
          const input = inputOf(w);
          const whole = outcome(() => planChanges(input));
          const inTurns = outcome(() => {
            const planning = startPlan(input);
            order.forEach((kind, i) => {
              planning.take(kind, shareOf(input.live, kind));
              const { budget, turns } = pacing[i] ?? { budget: 1, turns: 0 };
              for (let turn = 0; turn < turns && planning.step(budget); turn += 1);
            });
            return planning.finish();
          });
          expect(inTurns).toEqual(whole);
        },
      ),
      { seed: 20261126, numRuns: 400 },
    );
  });

  it("refuses a kind's read handed over twice, and a plan finished before every read is in", () => {
    const input = inputOf(EMPTY_WORLD);
    const planning = startPlan(input);
    planning.take("topic", shareOf(input.live, "topic"));
    expect(() => planning.take("topic", shareOf(input.live, "topic"))).toThrow(
      expect.objectContaining({ code: "INTERNAL" }),
    );
    expect(() => planning.finish()).toThrow(expect.objectContaining({ code: "INTERNAL" }));
  });

  it("plans a kind before the slowest read is in, and counts what it planned", () => {
    const input = inputOf({
      ...EMPTY_WORLD,
      topics: [{ key: "a", name: "One" }],
      tenants: [
        { identifier: "a", name: "One" },
        { identifier: "b", name: "Two" },
      ],
      liveTenants: [{ identifier: "a", name: "Two" }],
    });
    const planning = startPlan(input);
    for (const kind of KINDS) if (kind !== "topic") planning.take(kind, shareOf(input.live, kind));
    while (planning.step(1));
    // The tenants are planned; the topic waits for its read.
    expect(planning.progress()).toEqual({ planned: 2, total: 3 });
    planning.take("topic", shareOf(input.live, "topic"));
    expect(planning.finish()).toEqual(planChanges(input));
    expect(planning.progress()).toEqual({ planned: 3, total: 3 });
  });
});
