// Notification groups: the config key is a local handle; the server id lives in the state file
// (or is matched once by a unique name when the server lists groups). The spec has no read,
// so without the list extension the last applied name in the state file is all we know.
// Never plan a second POST for a group whose id we had: the server happily makes duplicates.

import { digestOf } from "../../canonical.js";
import type { DesiredState } from "../../config/model.js";
import { ownRecord } from "../../state/model.js";
import { slug, uniqueKey } from "../export-keys.js";
import {
  type DesiredItem,
  isDevelopmentOnlyBlocked,
  type KindModule,
  type LiveItem,
  type LiveLookup,
  type PlanContext,
  type ReadScope,
  recordedFields,
  type StateChange,
} from "../kind.js";
import type { UnmanagedResource } from "../plan-action.js";
import { unlessUnsupported } from "../unsupported.js";
import { notificationGroupApi } from "./api.js";
import { executeNotificationGroup } from "./execute.js";
import { notificationGroupPromotion } from "./promotion.js";
import { notificationGroupRequest } from "./requests.js";
import type { NotificationGroup } from "./wire.js";

/** Why a group in another environment than Development is left to promotion. */
export const ARRIVES_BY_PROMOTION =
  "notification groups are authored in Development: this arrives by promotion (notiform promote)";

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

/** Groups are read when the config names any, or a workflow joins one. */
function needsGroups({ desired, everything }: ReadScope): boolean {
  return (
    everything ||
    desired.resources.notificationGroup.length > 0 ||
    desired.resources.workflow.some((w) => w.spec.notificationGroup !== undefined)
  );
}

async function readGroups(
  client: Parameters<KindModule<"notificationGroup">["readLive"]>[0],
  scope: ReadScope,
) {
  if (!needsGroups(scope)) return undefined;
  return unlessUnsupported(client.listNotificationGroups(scope.signal ? { signal: scope.signal } : {}));
}

export const notificationGroupKind: KindModule<"notificationGroup"> = {
  kind: "notificationGroup",
  section: { name: "notificationGroups", shape: "list", identityFields: ["key"] },
  label: { one: "notification group", many: "notification groups" },
  api: notificationGroupApi,
  requestOf: notificationGroupRequest,
  creates: ["notificationGroup.create"],
  identity: (spec) => spec.key,

  desiredItems(desired: DesiredState): DesiredItem[] {
    return desired.resources.notificationGroup.map(({ spec, source }) => ({
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
    const groups = context.live.kinds.notificationGroup;
    if (groups !== undefined) {
      const group = groups.find((g) => g._id === id);
      return group ? { status: "found", item: liveGroupItem(group, "api") } : { status: "absent" };
    }
    const record = ownRecord(context.state.notificationGroups, item.key);
    if (record !== undefined && record.id === id) {
      const { fields, knownFields } = recordedFields({ name: record.name }, item.fields, context.protect);
      return {
        status: "found",
        item: {
          origin: "state",
          serverId: record.id,
          fields,
          knownFields,
          digest: digestOf({ id: record.id, name: record.name }),
        },
      };
    }
    return {
      status: "unknown",
      reason: "the server lists no notification groups and the state file has no record",
    };
  },

  operationsFor(op, item, live, _changes, context) {
    // Promotion carries Development's groups to Production as new records, by name: a group
    // created or renamed there directly would be doubled, or undone, by the next promotion.
    if (isDevelopmentOnlyBlocked(context.live.environment)) return { notApplicable: ARRIVES_BY_PROMOTION };
    const name = String(item.fields.name ?? "");
    if (op === "create" || live?.serverId === undefined) {
      return { operations: [{ type: "notificationGroup.create", name }] };
    }
    return { operations: [{ type: "notificationGroup.rename", groupId: live.serverId, name }] };
  },

  unmanaged(context: PlanContext): UnmanagedResource[] {
    const groups = context.live.kinds.notificationGroup;
    if (groups === undefined) return [];
    return groups
      .filter((group) => !context.groupKeys.has(group._id))
      .map((group) => ({ kind: "notificationGroup" as const, key: group._id, name: group.name }));
  },

  intentDoubt(item, context) {
    const groups = context.live.kinds.notificationGroup;
    if (groups === undefined)
      return "the server cannot list notification groups to show whether it was created";
    const candidates = groups.filter((g) => g.name === item.fields.name && !context.groupKeys.has(g._id));
    if (candidates.length <= 1) return undefined;
    return `${candidates.length} unbound groups of that name exist (${candidates.map((g) => g._id).join(", ")})`;
  },

  stateBinding(key, id, desired) {
    const name = desired.resources.notificationGroup.find((g) => g.spec.key === key)?.spec.name ?? "";
    return { section: "notificationGroups", key, id, name };
  },

  readLive: async (client, scope) => ({ live: await readGroups(client, scope) }),
  execute: executeNotificationGroup,
  promotion: notificationGroupPromotion,
  // Groups can only be read as a whole list (where the server lists them at all).
  exportSection(live, keys) {
    if (live === undefined) return { notExported: "notification groups (the server cannot list them)" };
    if (live.length === 0) return undefined;
    const used = new Set<string>();
    const state: StateChange[] = [];
    const groups = [...live]
      .sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0))
      .map((group) => {
        const key = uniqueKey(slug(group.name) || "group", used);
        keys.notificationGroup.set(group._id, key);
        state.push({ section: "notificationGroups", key, id: group._id, name: group.name });
        return { key, name: group.name };
      })
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return { file: "notification-groups.yaml", value: groups, state };
  },
};
