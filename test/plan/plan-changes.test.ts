import { describe, expect, it } from "vitest";
import { KINDS } from "../../src/kinds/registry.js";
import { planChanges } from "../../src/plan/plan-changes.js";
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

const WF1 = "64f1c0ffee0000000000a001";
const WF2 = "64f1c0ffee0000000000a002";
const T1 = "650000000000000000000001";

function plan(
  desired: ReturnType<typeof desiredState>,
  live: ReturnType<typeof liveSnapshot>,
  state: StateFile = noState(),
  targets: string[] = [],
) {
  return planChanges({ desired, live, state, target: TARGET, createdBy: "test", targets });
}

describe("planChanges", () => {
  it("creates a topic the server lacks and renames one whose name differs", () => {
    const result = plan(
      desiredState({
        topics: [
          { key: "news", name: "News" },
          { key: "orders", name: "Orders v2" },
        ],
      }),
      liveSnapshot({ topics: [topic("orders", "Orders")] }),
    );
    expect(result.actions.map((a) => [a.id, a.op])).toEqual([
      ["topic/news", "create"],
      ["topic/orders", "update"],
    ]);
    expect(result.actions[0]?.requests).toEqual([
      { method: "POST", path: "/v1/topics", body: { key: "news", name: "News" } },
    ]);
    expect(result.actions[1]?.changes).toEqual([{ field: "name", old: "Orders", new: "Orders v2" }]);
    expect(result.actions[1]?.requests).toEqual([
      { method: "PATCH", path: "/v1/topics/orders", body: { name: "Orders v2" } },
    ]);
    expect(result.summary).toMatchObject({ create: 1, update: 1, unchanged: 0 });
  });

  it("shows nothing for a resource that already matches, whatever the key order or omitted defaults", () => {
    const result = plan(
      desiredState({
        topics: [{ key: "orders", name: "Orders" }],
        workflows: [{ key: "shipped", id: WF1, tags: ["b", "a"], preferenceSettings: { sms: true } }],
        overrides: [{ workflow: "shipped", tenant: T1, preferenceSettings: { email: true } }],
      }),
      liveSnapshot({
        topics: [topic("orders", "Orders")],
        workflows: [workflow(WF1, { tags: ["a", "b"] })],
        overrides: [override(WF1, T1)],
      }),
    );
    expect(result.actions).toEqual([]);
    expect(result.summary.unchanged).toBe(3);
  });

  it("lists live resources the config does not name as unmanaged and never plans to touch them", () => {
    const result = plan(
      desiredState({ topics: [{ key: "orders", name: "Orders" }] }),
      liveSnapshot({ topics: [topic("orders", "Orders"), topic("legacy", "Legacy")] }),
    );
    expect(result.actions).toEqual([]);
    expect(result.unmanaged).toEqual([{ kind: "topic", key: "legacy", name: "Legacy" }]);
  });

  it("lists the unmanaged by kind in registry order, then by key, however the server ordered them", () => {
    const result = plan(
      desiredState({ topics: [{ key: "orders", name: "Orders" }], workflows: [{ key: "shipped", id: WF1 }] }),
      liveSnapshot({
        topics: ["zeta", "orders", "Alpha", "beta", "alpha"].map((key) => topic(key, `T ${key}`)),
        workflows: [WF2, WF1, "64f1c0ffee0000000000a000"].map((id) => workflow(id)),
        overrides: [override(WF2, T1), override(WF1, T1), override("64f1c0ffee0000000000a000", T1)],
      }),
    );
    const place = (kind: string) => KINDS.indexOf(kind as (typeof KINDS)[number]);
    const expected = [...result.unmanaged].sort(
      (a, b) => place(a.kind) - place(b.kind) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
    );
    expect(result.unmanaged).toEqual(expected);
    expect(result.unmanaged.map((u) => `${u.kind}/${u.key}`)).toEqual(
      [
        ...["Alpha", "alpha", "beta", "zeta"].map((key) => `topic/${key}`),
        ...["64f1c0ffee0000000000a000", WF2].map((id) => `workflow/${id}`),
        ...[`64f1c0ffee0000000000a000@${T1}`, `${WF2}@${T1}`, `shipped@${T1}`].map(
          (key) => `override/${key}`,
        ),
      ].sort((a, b) => place(a.split("/")[0] ?? "") - place(b.split("/")[0] ?? "")),
    );
  });

  it("keeps of an action's dependencies those this plan acts on, sorted; an unchanged one is dropped", () => {
    const result = plan(
      desiredState({
        workflows: [
          { key: "shipped", id: WF1, name: "Shipped v2" },
          { key: "placed", id: WF2 },
        ],
        tenants: [{ identifier: "acme-eu", name: "Acme EU" }],
        overrides: [
          { workflow: "shipped", tenant: "acme-eu", active: true },
          { workflow: "placed", tenant: "acme-eu", active: true },
        ],
      }),
      liveSnapshot({ workflows: [workflow(WF1), workflow(WF2)] }),
    );
    const byId = new Map(result.actions.map((action) => [action.id, action.dependsOn]));
    expect(byId.get("override/placed@acme-eu")).toEqual(["tenant/acme-eu"]);
    expect(byId.get("override/shipped@acme-eu")).toEqual(["tenant/acme-eu", "workflow/shipped"]);
    expect(byId.get("tenant/acme-eu")).toEqual([]);
  });

  it("sends a workflow status only when active differs, and separately from its fields", () => {
    const result = plan(
      desiredState({ workflows: [{ key: "shipped", id: WF1, name: "Shipped!", active: false }] }),
      liveSnapshot({ workflows: [workflow(WF1, { name: "Shipped", active: true })] }),
    );
    expect(result.actions[0]?.requests).toEqual([
      { method: "PUT", path: `/v1/workflows/${WF1}`, body: { name: "Shipped!" } },
      { method: "PUT", path: `/v1/workflows/${WF1}/status`, body: { active: false } },
    ]);
  });

  it("sends no status when active already matches and another field changes", () => {
    // A real server answers 400 to an unchanged PUT /status: the plan itself must leave it out.
    for (const active of [true, false]) {
      const result = plan(
        desiredState({ workflows: [{ key: "shipped", id: WF1, name: "Shipped!", active }] }),
        liveSnapshot({ workflows: [workflow(WF1, { name: "Shipped", active })] }),
      );
      expect(result.actions[0]?.changes).toEqual([{ field: "name", old: "Shipped", new: "Shipped!" }]);
      expect(result.actions[0]?.requests).toEqual([
        { method: "PUT", path: `/v1/workflows/${WF1}`, body: { name: "Shipped!" } },
      ]);
      expect(result.actions[0]?.operations.map((operation) => operation.type)).toEqual(["workflow.update"]);
    }
  });

  it("plans a workflow it cannot read as unverified and tolerates an unchanged status", () => {
    const result = plan(
      desiredState({ workflows: [{ key: "shipped", id: WF1, active: true }] }),
      liveSnapshot({ workflows: undefined }),
    );
    const action = result.actions[0];
    expect(action?.op).toBe("unverified");
    expect(action?.reason).toMatch(/state file has no record/);
    expect(action?.changes).toEqual([{ field: "active", new: true, unknown: true }]);
    expect(action?.requests).toEqual([
      { method: "PUT", path: `/v1/workflows/${WF1}/status`, body: { active: true } },
    ]);
    expect(action?.operations).toEqual([
      { type: "workflow.setStatus", workflowId: WF1, active: true, acceptUnchanged: true },
    ]);
  });

  it("trusts the state file's last applied values when the server cannot be read", () => {
    const state = noState();
    state.workflows[WF1] = { key: "shipped", values: { name: "Shipped", active: true } };
    const result = plan(
      desiredState({ workflows: [{ key: "shipped", id: WF1, name: "Shipped", active: true }] }),
      liveSnapshot({ workflows: undefined }),
      state,
    );
    expect(result.actions).toEqual([]);
  });

  it("fails at the config position of a workflow id the server does not have", () => {
    expect(() =>
      plan(
        desiredState({ workflows: [{ key: "shipped", id: WF2, name: "x" }] }),
        liveSnapshot({ workflows: [workflow(WF1)] }),
      ),
    ).toThrow(
      expect.objectContaining({
        code: "WORKFLOW_NOT_FOUND",
        pos: { file: "notiform.yaml", line: 1, col: 5 },
      }),
    );
  });

  it("creates overrides with every channel explicit, and updates only the changed channels", () => {
    const result = plan(
      desiredState({
        workflows: [{ key: "shipped", id: WF1 }],
        overrides: [
          { workflow: "shipped", tenant: T1, active: true, preferenceSettings: { sms: false } },
          { workflow: WF2, tenant: T1, active: true },
        ],
      }),
      liveSnapshot({ workflows: [workflow(WF1), workflow(WF2)], overrides: [override(WF2, T1)] }),
    );
    const [raw, keyed] = result.actions;
    expect(keyed?.id).toBe(`override/shipped@${T1}`);
    expect(keyed?.requests[0]?.body).toEqual({
      workflowId: WF1,
      tenantId: T1,
      active: true,
      preferenceSettings: { email: true, sms: false, in_app: true, chat: true, push: true },
    });
    expect(raw?.id).toBe(`override/${WF2}@${T1}`);
    expect(raw?.requests).toEqual([
      { method: "PUT", path: `/v1/workflow-overrides/o-a002-0001`, body: { active: true } },
    ]);
  });

  it("says at plan time that an override update is not applicable on a server without the extension", () => {
    const result = plan(
      desiredState({ overrides: [{ workflow: WF1, tenant: T1, active: true }] }),
      liveSnapshot({ overrides: [override(WF1, T1)], canUpdateOverrides: false }),
    );
    expect(result.actions[0]).toMatchObject({ op: "not-applicable", requests: [] });
    expect(result.actions[0]?.reason).toMatch(/does not serve PUT/);
    expect(result.summary.notApplicable).toBe(1);
  });

  it("orders groups before the workflows that name them, filling the new group id at apply time", () => {
    const result = plan(
      desiredState({
        notificationGroups: [{ key: "billing", name: "Billing" }],
        workflows: [{ key: "shipped", id: WF1, notificationGroup: "billing" }],
      }),
      liveSnapshot({
        workflows: [workflow(WF1)],
        notificationGroups: [group("000000000000000000000001", "General")],
      }),
    );
    expect(result.actions.map((a) => a.id)).toEqual(["notificationGroup/billing", "workflow/shipped"]);
    expect(result.actions[1]?.dependsOn).toEqual(["notificationGroup/billing"]);
    expect(result.actions[1]?.requests[0]).toEqual({
      method: "PUT",
      path: `/v1/workflows/${WF1}`,
      body: { notificationGroupId: "<id of notificationGroup/billing>" },
      refs: [{ field: "notificationGroupId", action: "notificationGroup/billing" }],
    });
  });

  it("adopts a single server group of the same name instead of creating a duplicate", () => {
    const result = plan(
      desiredState({ notificationGroups: [{ key: "billing", name: "Billing" }] }),
      liveSnapshot({ notificationGroups: [group("000000000000000000000002", "Billing")] }),
    );
    expect(result.actions).toEqual([]);
    expect(result.bindings.notificationGroups).toEqual({ billing: "000000000000000000000002" });
  });

  it("renames a group known from the state file with PATCH, never a second POST", () => {
    const state = noState();
    state.notificationGroups.billing = { id: "000000000000000000000009", name: "Billing" };
    const result = plan(
      desiredState({ notificationGroups: [{ key: "billing", name: "Billing & invoices" }] }),
      liveSnapshot({}),
      state,
    );
    expect(result.actions[0]?.requests).toEqual([
      {
        method: "PATCH",
        path: "/v1/notification-groups/000000000000000000000009",
        body: { name: "Billing & invoices" },
      },
    ]);
  });

  it("limits the plan to --target resources and what they depend on", () => {
    const result = plan(
      desiredState({
        topics: [{ key: "news", name: "News" }],
        notificationGroups: [{ key: "billing", name: "Billing" }],
        workflows: [{ key: "shipped", id: WF1, notificationGroup: "billing" }],
        overrides: [{ workflow: "shipped", tenant: T1 }],
      }),
      liveSnapshot({ workflows: [workflow(WF1)], notificationGroups: [] }),
      noState(),
      [`override/shipped@${T1}`],
    );
    expect(result.actions.map((a) => a.id)).toEqual([
      "notificationGroup/billing",
      "workflow/shipped",
      `override/shipped@${T1}`,
    ]);
  });

  it("refuses a --target that names nothing in the config", () => {
    expect(() => plan(desiredState({}), liveSnapshot({}), noState(), ["topic/nope"])).toThrow(
      expect.objectContaining({ code: "USAGE" }),
    );
  });

  it("settles more interrupted creates than the stack holds arguments (no spread into push)", () => {
    // 130,000: past the ~125,000 arguments at which push(...list) overflows the stack.
    const count = 130_000;
    const keys = Array.from({ length: count }, (_, i) => `t${i}`);
    const state = noState();
    state.intents = Object.fromEntries(
      keys.map((key) => [
        `topic/${key}`,
        { kind: "topic" as const, key, startedAt: "2026-11-26T10:00:00.000Z" },
      ]),
    );
    const result = plan(
      desiredState({ topics: keys.map((key) => ({ key, name: "N" })) }),
      liveSnapshot({ topics: keys.map((key) => topic(key, "N")) }),
      state,
    );
    expect(result.resolvedIntents.length).toBe(count);
    expect(result.summary.unchanged).toBe(count);
  });
});
