// Notification groups: the config key is a local handle; the server id lives in the state file
// (or is matched once by a unique name when the server lists groups). The spec has no read,
// so without the list extension the last applied name in the state file is all we know.
// Never plan a second POST for a group whose id we had: the server happily makes duplicates.
import type { NotificationGroup } from "../api/types.js";
import type { DesiredState } from "../config/model.js";
import type { UnmanagedResource } from "../plan/model.js";
import { digestOf } from "./canonical.js";
import type { DesiredItem, LiveItem, LiveLookup, PlanContext, ResourceModule } from "./kind.js";

export function liveGroupItem(
  group: Pick<NotificationGroup, "_id" | "name">,
  origin: "api" | "state",
): LiveItem {
  return {
    origin,
    serverId: group._id,
    fields: { name: group.name },
    digest: digestOf({ id: group._id, name: group.name }),
  };
}

export function groupPath(id: string): string {
  return `/v1/notification-groups/${encodeURIComponent(id)}`;
}

export const notificationGroupModule: ResourceModule & { kind: "notificationGroup" } = {
  kind: "notificationGroup",
  label: "notification group",

  desiredItems(desired: DesiredState): DesiredItem[] {
    return desired.notificationGroups.map(({ spec, source }) => ({
      key: spec.key,
      fields: { name: spec.name },
      source,
      dependsOn: [],
      ids: {},
    }));
  },

  lookupLive(item: DesiredItem, context: PlanContext): LiveLookup {
    const id = context.groupIds.get(item.key);
    if (id === undefined) return { status: "absent" };
    const groups = context.live.notificationGroups;
    if (groups !== undefined) {
      const group = groups.find((g) => g._id === id);
      return group ? { status: "found", item: liveGroupItem(group, "api") } : { status: "absent" };
    }
    const record = context.state.notificationGroups[item.key];
    if (record !== undefined && record.id === id) {
      return { status: "found", item: liveGroupItem({ _id: record.id, name: record.name }, "state") };
    }
    return {
      status: "unknown",
      reason: "the server lists no notification groups and the state file has no record",
    };
  },

  requestsFor(op, item, live) {
    const name = item.fields.name ?? "";
    if (op === "create" || live?.serverId === undefined) {
      return { requests: [{ method: "POST", path: "/v1/notification-groups", body: { name } }] };
    }
    return { requests: [{ method: "PATCH", path: groupPath(live.serverId), body: { name } }] };
  },

  unmanaged(context: PlanContext): UnmanagedResource[] {
    const groups = context.live.notificationGroups;
    if (groups === undefined) return [];
    return groups
      .filter((group) => !context.groupKeys.has(group._id))
      .map((group) => ({ kind: "notificationGroup" as const, key: group._id, name: group.name }));
  },
};
