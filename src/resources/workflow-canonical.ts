// A workflow as the planner compares it: the server's record mapped onto the same flat field
// model the config maps onto (defaults filled, tags a sorted set, the group by config key).
import type { Workflow } from "../api/types.js";
import { CHANNELS } from "../config/model.js";
import { digestOf, type JsonObject, managedFields } from "./canonical.js";
import type { LiveItem } from "./kind.js";

const GROUP_ID_PREFIX = "id:";

/** A workflow's canonical flat fields as the server holds them; group shown by config key when bound. */
export function canonicalWorkflowFields(
  workflow: Workflow,
  groupKeys: ReadonlyMap<string, string>,
): JsonObject {
  const fields: JsonObject = {
    name: workflow.name,
    description: workflow.description ?? "",
    active: workflow.active,
    critical: workflow.critical,
    tags: normalizeTags(workflow.tags ?? []),
    notificationGroup:
      groupKeys.get(workflow._notificationGroupId) ?? `${GROUP_ID_PREFIX}${workflow._notificationGroupId}`,
    data: (workflow.data ?? {}) as JsonObject,
  };
  for (const channel of CHANNELS) {
    fields[`preferenceSettings.${channel}`] = workflow.preferenceSettings?.[channel] ?? true;
  }
  return fields;
}

export function normalizeTags(tags: readonly string[]): string[] {
  return [...new Set(tags)].sort();
}

/** `managed`: the fields the config sets; the digest covers only those (all when not given). */
export function liveWorkflowItem(
  workflow: Workflow,
  groupKeys: ReadonlyMap<string, string>,
  managed?: Iterable<string>,
): LiveItem {
  const fields = canonicalWorkflowFields(workflow, groupKeys);
  const covered = managed === undefined ? fields : managedFields(fields, managed);
  return {
    origin: "api",
    serverId: workflow._id,
    fields,
    get digest() {
      return digestOf({ id: workflow._id, ...covered });
    },
  };
}
