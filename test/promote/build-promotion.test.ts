// The pure core of promotion, on the changes a real server listed (fixture ext-changes-list-200):
// managed entities are promoted and named by key and identifier, the rest listed as unmanaged;
// fields are shown as Production will receive them; groups come before workflows; the output is
// deterministic and its digests move when a change is rewritten.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Change } from "../../src/kinds/endpoints/wire.js";
import type { ManagedHandles } from "../../src/kinds/promotion.js";
import { buildPromotion } from "../../src/promote/build-promotion.js";
import { renderPromotionText } from "../../src/promote/render.js";

const listed = JSON.parse(
  readFileSync(
    join(import.meta.dirname, "..", "fixtures", "real-responses", "ext-changes-list-200.json"),
    "utf8",
  ),
).response.body.data as Change[];
const workflowChange = listed.find((c) => c.type === "NotificationTemplate") as Change;
const groupChange = listed.find((c) => c.type === "NotificationGroup") as Change;

const TARGET = {
  apiUrl: "http://127.0.0.1:1",
  organization: "Acme Inc",
  environment: "development",
  environmentId: "e1",
};
const identity = <T>(value: T) => value;

function build(managed: ManagedHandles, options: { all?: boolean; changes?: Change[] } = {}) {
  return buildPromotion({
    changes: options.changes ?? listed,
    managed: { kinds: managed },
    all: options.all ?? false,
    target: TARGET,
    createdBy: "notiform test",
    mask: identity,
  });
}

const BOTH: ManagedHandles = {
  workflow: new Map([[workflowChange._entityId, { key: "capture" }]]),
  notificationGroup: new Map([[groupChange._entityId, { key: "capture-group" }]]),
};

describe("buildPromotion", () => {
  it("promotes only managed entities, groups first, and lists the rest as unmanaged", () => {
    const promotion = build(BOTH);
    expect(promotion.entries.map((e) => [e.kind, e.key])).toEqual([
      ["notificationGroup", "capture-group"],
      ["workflow", "capture"],
    ]);
    expect(promotion.unmanaged).toEqual([]);
    const none = build({});
    expect(none.entries).toEqual([]);
    expect(none.unmanaged.map((e) => e.changeId).sort()).toEqual(
      [groupChange._id, workflowChange._id].sort(),
    );
    expect(none.summary).toEqual({ promote: 0, unmanaged: 2, pending: 2 });
  });

  it("with all, promotes the unmanaged changes too, marked as such", () => {
    const promotion = build({}, { all: true });
    expect(promotion.entries.map((e) => [e.kind, e.managed])).toEqual([
      ["notificationGroup", false],
      ["workflow", false],
    ]);
    expect(promotion.unmanaged).toEqual([]);
  });

  it("shows what Production receives field by field: group by its key, identifier from the trigger, steps counted", () => {
    const workflow = build(BOTH).entries[1];
    expect(workflow?.identifier).toBe("capture-flow-dccc2e");
    expect(workflow?.groupEntityId).toBe(groupChange._entityId);
    expect(workflow?.stepsChanged).toBe(2);
    expect(workflow?.fields.map((f) => f.field)).toEqual([
      "active",
      "critical",
      "description",
      "group",
      "name",
      "preferenceSettings",
      "tags",
    ]);
    expect(workflow?.fields.find((f) => f.field === "group")?.value).toBe("capture-group");
    expect(workflow?.fields.find((f) => f.field === "tags")?.value).toEqual(["capture"]);
    const text = renderPromotionText(build(BOTH), { verbose: false });
    expect(text).toContain("^ workflow capture (capture-flow-dccc2e)");
    expect(text).toContain("2 steps changed");
    expect(text).toContain('group: "capture-group"');
    expect(text).not.toContain("_environmentId");
  });

  it("names nested and removed fields by their path", () => {
    const change: Change = {
      ...workflowChange,
      change: [
        { op: "replace", path: ["preferenceSettings", "sms"], val: false },
        { op: "remove", path: ["description"] },
      ],
    };
    const [entry] = build(BOTH, { changes: [change] }).entries;
    expect(entry?.fields).toEqual([
      { field: "description", op: "remove" },
      { field: "preferenceSettings.sms", op: "set", value: false },
    ]);
  });

  it("reads a real server's later changes: update and delete at deep paths (r3-q1-29)", () => {
    const deleted = (
      JSON.parse(
        readFileSync(
          join(
            import.meta.dirname,
            "..",
            "fixtures",
            "real-responses",
            "workflow-content",
            "r3-q1-29-get-changes-after-delete.json",
          ),
          "utf8",
        ),
      ).response.body.data as Change[]
    )[0] as Change;
    // delete steps/0/template, add steps/0/replyCallback, update deleted and updatedAt, add deletedAt.
    const [entry] = build(
      { workflow: new Map([[deleted._entityId, { key: "layout-user" }]]) },
      {
        changes: [deleted],
      },
    ).entries;
    expect(entry).toMatchObject({ stepsChanged: 1, fields: [] });
    const change: Change = {
      ...workflowChange,
      change: [
        { op: "update", path: ["preferenceSettings", "sms"], val: false, oldVal: true },
        { op: "delete", path: ["description"], oldVal: "was here" },
        { op: "update", path: ["steps", 0, "template", "content"], val: "new", oldVal: "old" },
        { op: "update", path: ["steps", 2, "name"], val: "Chat", oldVal: "Ping" },
        { op: "update", path: ["triggers", 0, "identifier"], val: "renamed", oldVal: "capture-flow" },
      ],
    };
    const [described] = build({}, { changes: [change], all: true }).entries;
    expect(described).toMatchObject({
      fields: [
        { field: "description", op: "remove" },
        { field: "preferenceSettings.sms", op: "set", value: false },
      ],
      stepsChanged: 2,
      identifier: "renamed",
    });
  });

  it("is deterministic, and a rewritten change gets another digest", () => {
    expect(JSON.stringify(build(BOTH))).toBe(JSON.stringify(build(BOTH, { changes: [...listed].reverse() })));
    const rewritten = { ...workflowChange, updatedAt: "2030-01-01T00:00:00.000Z" };
    const before = build(BOTH).entries[1]?.digest;
    const after = build(BOTH, { changes: [groupChange, rewritten] }).entries[1]?.digest;
    expect(after).not.toBe(before);
  });

  it("lists a layout the config does not declare as unmanaged, never promoted without all; a declared one is promoted", () => {
    const layout: Change = {
      ...groupChange,
      _id: "6b048b903f565f01deca9999",
      type: "Layout",
      templateName: "Default",
    };
    const promotion = build(BOTH, { changes: [layout] });
    expect(promotion.entries).toEqual([]);
    expect(promotion.unmanaged.map((e) => [e.kind, e.changeType])).toEqual([["layout", "Layout"]]);
    const declared = build(
      { ...BOTH, layout: new Map([[layout._entityId, { key: "brand" }]]) },
      { changes: [layout] },
    );
    expect(declared.entries.map((e) => [e.kind, e.key, e.managed])).toEqual([["layout", "brand", true]]);
    const other = build(BOTH, { changes: [{ ...layout, type: "Feed" as Change["type"] }] });
    expect(other.unmanaged.map((e) => e.kind)).toEqual(["other"]);
  });

  it("takes a fresh organization's DefaultLayout change when the config names that layout, before the workflows", () => {
    const fresh: Change = { ...groupChange, _id: "6b048b903f565f01deca9998", type: "DefaultLayout" };
    const named = build(
      { ...BOTH, layout: new Map([[fresh._entityId, { key: "novu-default-layout" }]]) },
      { changes: [workflowChange, fresh] },
    );
    expect(named.entries.map((e) => [e.kind, e.changeType, e.key])).toEqual([
      ["layout", "DefaultLayout", "novu-default-layout"],
      ["workflow", "NotificationTemplate", "capture"],
    ]);
    expect(build(BOTH, { changes: [fresh] }).unmanaged.map((e) => e.kind)).toEqual(["layout"]);
  });
});
