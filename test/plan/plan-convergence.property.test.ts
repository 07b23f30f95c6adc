// Property: whatever the desired and live states, carrying out the plan's requests on the live
// state yields a state the planner reports as unchanged. The requests are carried out by a tiny
// model of the server's documented write semantics, written here independently of the planner.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { LiveSnapshot } from "../../src/kinds/kind.js";
import type { OverrideSpec } from "../../src/kinds/override/types.js";
import type { WorkflowOverride } from "../../src/kinds/override/wire.js";
import type { TopicSpec } from "../../src/kinds/topic/types.js";
import type { Topic } from "../../src/kinds/topic/wire.js";
import type { WorkflowSpec } from "../../src/kinds/workflow/types.js";
import type { Workflow } from "../../src/kinds/workflow/wire.js";
import type { Plan } from "../../src/plan/model.js";
import { planChanges } from "../../src/plan/plan-changes.js";
import {
  desiredState,
  liveSnapshot,
  noState,
  override,
  TARGET,
  topic,
  workflow,
} from "../helpers/builders.js";

const WORKFLOW_IDS = ["64f1c0ffee0000000000a001", "64f1c0ffee0000000000a002", "64f1c0ffee0000000000a003"];
const TENANTS = ["650000000000000000000001", "650000000000000000000002"];
const TOPIC_KEYS = ["a", "b", "c", "d"];
const NAMES = ["One", "Two", "Three"];

const prefs = fc.record(
  { email: fc.boolean(), sms: fc.boolean(), in_app: fc.boolean(), chat: fc.boolean(), push: fc.boolean() },
  { requiredKeys: [] },
);
const fullPrefs = fc.record({
  email: fc.boolean(),
  sms: fc.boolean(),
  in_app: fc.boolean(),
  chat: fc.boolean(),
  push: fc.boolean(),
});

const desiredTopics = fc.uniqueArray(
  fc.record({ key: fc.constantFrom(...TOPIC_KEYS), name: fc.constantFrom(...NAMES) }),
  {
    selector: (t) => t.key,
  },
);
const liveTopics = fc.uniqueArray(
  fc.record({ key: fc.constantFrom(...TOPIC_KEYS), name: fc.constantFrom(...NAMES) }),
  {
    selector: (t) => t.key,
  },
);
const workflowSpecs = fc.uniqueArray(
  fc.record(
    {
      id: fc.constantFrom(...WORKFLOW_IDS),
      name: fc.constantFrom(...NAMES),
      active: fc.boolean(),
      critical: fc.boolean(),
      description: fc.constantFrom("", "d", "e"),
      tags: fc.uniqueArray(fc.constantFrom("x", "y", "z")),
      preferenceSettings: prefs,
    },
    { requiredKeys: ["id"] },
  ),
  { selector: (w) => w.id },
);
const liveWorkflowFields = fc.record({
  name: fc.constantFrom(...NAMES),
  active: fc.boolean(),
  critical: fc.boolean(),
  description: fc.constantFrom("", "d"),
  tags: fc.uniqueArray(fc.constantFrom("x", "y", "z")),
  preferenceSettings: fullPrefs,
});
const overrideSpecs = fc.uniqueArray(
  fc.record(
    {
      workflow: fc.constantFrom(...WORKFLOW_IDS),
      tenant: fc.constantFrom(...TENANTS),
      active: fc.boolean(),
      preferenceSettings: prefs,
    },
    { requiredKeys: ["workflow", "tenant"] },
  ),
  { selector: (o) => `${o.workflow}:${o.tenant}` },
);
const liveOverrides = fc.uniqueArray(
  fc.record({
    workflow: fc.constantFrom(...WORKFLOW_IDS),
    tenant: fc.constantFrom(...TENANTS),
    active: fc.boolean(),
    preferenceSettings: fullPrefs,
  }),
  { selector: (o) => `${o.workflow}:${o.tenant}` },
);

/** The server's write semantics (spec + observed-behaviour.md), applied to a snapshot. */
function carryOut(plan: Plan, live: LiveSnapshot): void {
  let next = 0;
  for (const action of plan.actions) {
    for (const request of action.requests) {
      const body = request.body as Record<string, unknown>;
      const [, , resource, id, sub] = request.path.split("/");
      if (resource === "topics" && request.method === "POST") {
        live.kinds.topic.set(String(body.key), topic(String(body.key), String(body.name)));
      } else if (resource === "topics" && request.method === "PATCH") {
        const existing = live.kinds.topic.get(decodeURIComponent(id ?? "")) as Topic;
        existing.name = String(body.name);
      } else if (resource === "workflow-overrides" && request.method === "POST") {
        next += 1;
        const created = override(String(body.workflowId), String(body.tenantId), {
          _id: `new-${next}`,
          active: body.active === true,
          preferenceSettings: {
            email: true,
            sms: true,
            in_app: true,
            chat: true,
            push: true,
            ...(body.preferenceSettings as object),
          },
        });
        live.kinds.override.byPair.set(`${created._workflowId}:${created._tenantId}`, created);
      } else if (resource === "workflow-overrides" && request.method === "PUT") {
        const existing = [...live.kinds.override.byPair.values()].find(
          (o) => o._id === id,
        ) as WorkflowOverride;
        if (typeof body.active === "boolean") existing.active = body.active;
        Object.assign(existing.preferenceSettings, body.preferenceSettings ?? {});
      } else if (resource === "workflows" && sub === "status") {
        (live.kinds.workflow?.get(id ?? "") as Workflow).active = body.active === true;
      } else if (resource === "workflows") {
        const existing = live.kinds.workflow?.get(id ?? "") as Workflow;
        for (const field of ["name", "description", "tags", "critical", "preferenceSettings"] as const) {
          if (body[field] !== undefined)
            (existing as unknown as Record<string, unknown>)[field] = body[field];
        }
      } else {
        throw new Error(`unexpected request ${request.method} ${request.path}`);
      }
    }
  }
}

describe("plan convergence (property)", () => {
  it("carrying out a plan leaves nothing to change", () => {
    fc.assert(
      fc.property(
        desiredTopics,
        liveTopics,
        workflowSpecs,
        fc.array(liveWorkflowFields, { minLength: 3, maxLength: 3 }),
        overrideSpecs,
        liveOverrides,
        (dTopics, lTopics, dWorkflows, lWorkflowFields, dOverrides, lOverrides) => {
          const workflows: WorkflowSpec[] = dWorkflows.map(
            (w, i) => ({ key: `w${i}`, ...w }) as WorkflowSpec,
          );
          const desired = desiredState({
            topics: dTopics as TopicSpec[],
            workflows,
            overrides: dOverrides as OverrideSpec[],
          });
          const live = liveSnapshot({
            topics: lTopics.map((t) => topic(t.key, t.name)),
            workflows: WORKFLOW_IDS.map((id, i) => workflow(id, lWorkflowFields[i])),
            overrides: lOverrides.map((o) =>
              override(o.workflow, o.tenant, {
                active: o.active,
                preferenceSettings: { ...o.preferenceSettings },
              }),
            ),
          });
          const first = planChanges({ desired, live, state: noState(), target: TARGET, createdBy: "test" });
          carryOut(first, live);
          const second = planChanges({ desired, live, state: noState(), target: TARGET, createdBy: "test" });
          expect(second.actions).toEqual([]);
          expect(second.summary.unchanged).toBe(first.summary.unchanged + first.actions.length);
        },
      ),
      { seed: 20261122, numRuns: 300 },
    );
  });
});
