// A saved promotion made without --all is checked against what the config manages now, kind by
// kind as the registry declares promotion: a managed layout's change (the config's layouts go to
// Production before the workflows that use them) is promoted from the file like a workflow's; an
// entity the config does not manage, or a change of a type no kind receives, refuses the file.
import { describe, expect, it } from "vitest";
import type { ManagedHandles } from "../../src/kinds/promotion.js";
import { labelOf, type Promotion, type PromotionEntry } from "../../src/promote/model.js";
import { checkPromotionManaged } from "../../src/promote/saved-promotion.js";

const LAYOUT_ID = "6b048b903f565f01deca0001";
const WORKFLOW_ID = "64f1c0ffee0000000000a001";

function entry(kind: PromotionEntry["kind"], entityId: string, changeType: string): PromotionEntry {
  return {
    changeId: `c-${entityId}`,
    changeType,
    kind,
    entityId,
    key: kind === "layout" ? "brand" : "order-shipped",
    name: "n",
    managed: true,
    fields: [],
    digest: "d",
  };
}

function saved(entries: PromotionEntry[]): Promotion {
  return {
    formatVersion: 1,
    createdBy: "test",
    target: { apiUrl: "http://127.0.0.1:1", organization: "Acme Inc", environment: null, environmentId: "e" },
    all: false,
    entries,
    unmanaged: [],
    summary: { promote: entries.length, unmanaged: 0, pending: entries.length },
    warnings: [],
  };
}

const MANAGED: ManagedHandles = {
  layout: new Map([[LAYOUT_ID, { key: "brand" }]]),
  workflow: new Map([[WORKFLOW_ID, { key: "order-shipped" }]]),
};

describe("checkPromotionManaged", () => {
  it("accepts the changes of every promotable kind the config manages, a layout's included", () => {
    const file = saved([
      entry("layout", LAYOUT_ID, "Layout"),
      entry("workflow", WORKFLOW_ID, "NotificationTemplate"),
    ]);
    expect(() => checkPromotionManaged(file, { kinds: MANAGED })).not.toThrow();
  });

  it("refuses an entity the config does not manage, and a change no kind receives", () => {
    const foreign = saved([entry("layout", "6b048b903f565f01deca0002", "Layout")]);
    expect(() => checkPromotionManaged(foreign, { kinds: MANAGED })).toThrow(/does not manage/);
    const other = saved([entry("other", LAYOUT_ID, "Feed")]);
    expect(() => checkPromotionManaged(other, { kinds: MANAGED })).toThrow(/does not manage/);
  });

  it("names an entry by its kind's label, and a change of no kind by its type", () => {
    expect(labelOf(entry("layout", LAYOUT_ID, "DefaultLayout"))).toBe("layout brand");
    expect(labelOf({ ...entry("other", LAYOUT_ID, "Feed"), key: "x" })).toBe("Feed change x");
  });
});
