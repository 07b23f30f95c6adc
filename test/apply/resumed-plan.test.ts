// The match a saved plan's re-run makes (resumed-plan.ts): an action is still the reviewed one
// when only the ids of resources the plan's applied actions created were filled in, each the same
// id wherever it appears; anything else that differs is a moved plan.
import { describe, expect, it } from "vitest";
import { boundByApplied, partlySentRest, sameButResolved } from "../../src/apply/resumed-plan.js";
import type { PlanAction } from "../../src/kinds/plan-action.js";

const GROUP = "notificationGroup/orders";
const LAYOUT = "layout/brand";
const ID_G = "6a0000000000000000000001";
const ID_L = "6a0000000000000000000002";

/** A workflow create that names a new group and a new layout (as saved, with placeholders). */
function saved(): PlanAction {
  return {
    id: "workflow/shipped",
    kind: "workflow",
    key: "shipped",
    op: "create",
    changes: [{ field: "notificationGroup", new: "orders" }],
    operations: [],
    requests: [
      {
        method: "POST",
        path: "/v1/workflows",
        body: {
          name: "Shipped",
          notificationGroupId: `<id of ${GROUP}>`,
          steps: [{ template: { layoutId: `<id of ${LAYOUT}>` } }],
        },
        refs: [{ field: "notificationGroupId", action: GROUP }],
      },
      { method: "PATCH", path: `/v1/layouts/<id of ${LAYOUT}>/x`, body: {} },
    ],
    dependsOn: [GROUP, LAYOUT, "topic/news"],
    live: { origin: "none", digest: "d" },
  } as unknown as PlanAction;
}

/** The same action planned after the group and layout were created: their ids in place. */
function fresh(group = ID_G, layout = ID_L, layoutInPath = layout): PlanAction {
  return {
    ...saved(),
    operations: [{ type: "workflow.create" }],
    requests: [
      {
        method: "POST",
        path: "/v1/workflows",
        body: { name: "Shipped", notificationGroupId: group, steps: [{ template: { layoutId: layout } }] },
      },
      { method: "PATCH", path: `/v1/layouts/${layoutInPath}/x`, body: {} },
    ],
    dependsOn: ["topic/news"],
  } as unknown as PlanAction;
}

const APPLIED = new Set([GROUP, LAYOUT]);

describe("sameButResolved", () => {
  it("accepts the ids of the applied actions' resources in body and path, and records them", () => {
    const ids = new Map<string, string>();
    expect(sameButResolved(saved(), fresh(), APPLIED, ids)).toBe(true);
    expect(Object.fromEntries(ids)).toEqual({ [GROUP]: ID_G, [LAYOUT]: ID_L });
  });

  it("refuses one resource under two ids, within an action or across actions", () => {
    expect(sameButResolved(saved(), fresh(ID_G, ID_L, "6a00000000000000000000ff"), APPLIED, new Map())).toBe(
      false,
    );
    const ids = new Map([[GROUP, "6a00000000000000000000aa"]]);
    expect(sameButResolved(saved(), fresh(), APPLIED, ids)).toBe(false);
  });

  it("keeps a placeholder of an action not applied as it was", () => {
    expect(sameButResolved(saved(), fresh(), new Set([LAYOUT]), new Map())).toBe(false);
  });

  it("refuses any other difference: a body value, the changes, a pending dependency, the method", () => {
    const body = fresh();
    (body.requests[0]?.body as Record<string, unknown>).name = "Renamed";
    expect(sameButResolved(saved(), body, APPLIED, new Map())).toBe(false);
    const changes = { ...fresh(), changes: [{ field: "notificationGroup", new: "accounts" }] } as PlanAction;
    expect(sameButResolved(saved(), changes, APPLIED, new Map())).toBe(false);
    expect(sameButResolved(saved(), { ...fresh(), dependsOn: [] }, APPLIED, new Map())).toBe(false);
    const method = fresh();
    (method.requests[1] as { method: string }).method = "PUT";
    expect(sameButResolved(saved(), method, APPLIED, new Map())).toBe(false);
  });

  it("refuses a placeholder filled with another placeholder or with nothing", () => {
    expect(sameButResolved(saved(), fresh(`<id of ${GROUP}>`), APPLIED, new Map())).toBe(false);
    expect(sameButResolved(saved(), fresh(ID_G, ID_L, ""), APPLIED, new Map())).toBe(false);
  });
});

describe("boundByApplied", () => {
  it("accepts the binding of a group the plan created, by the id its requests used", () => {
    const ids = new Map([[GROUP, ID_G]]);
    expect(boundByApplied("orders", ID_G, APPLIED, ids)).toBe(true);
    expect(boundByApplied("orders", "6a00000000000000000000aa", APPLIED, ids)).toBe(false);
    expect(boundByApplied("orders", ID_G, new Set(), new Map())).toBe(false);
    expect(boundByApplied("orders", undefined, APPLIED, new Map())).toBe(false);
  });
});

describe("partlySentRest", () => {
  const layout = (op: string, fields: string[]) =>
    ({
      ...saved(),
      id: "layout/brand",
      op,
      changes: fields.map((field) => ({ field, new: "" })),
    }) as unknown as PlanAction;

  it("takes an update whose sendable fields went, leaving only what the server cannot take", () => {
    expect(
      partlySentRest(layout("update", ["content", "description"]), layout("not-applicable", ["description"])),
    ).toBe(true);
  });

  it("not an update that became not applicable whole, nor one that was never applicable", () => {
    expect(partlySentRest(layout("update", ["name"]), layout("not-applicable", ["name"]))).toBe(false);
    expect(partlySentRest(layout("update", ["name"]), layout("not-applicable", ["other"]))).toBe(false);
    expect(partlySentRest(layout("not-applicable", ["a", "b"]), layout("not-applicable", ["a"]))).toBe(false);
    expect(partlySentRest(layout("update", ["a", "b"]), layout("update", ["a"]))).toBe(false);
  });
});
