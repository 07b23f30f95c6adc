// A workflow as the planner compares it: the server's record mapped onto the same flat field
// model the config maps onto (defaults filled, tags a sorted set, the group by config key).

import { type JsonObject, managedFields } from "../../canonical.js";
import { CHANNELS } from "../../config/model.js";
import type { LiveItem } from "../kind.js";
import { ApiLiveItem } from "../live-item.js";
import { liveStepFields } from "./steps-canonical.js";
import type { Workflow } from "./wire.js";

/**
 * A group the config does not name, as people read it: by name where the server lists groups.
 * It holds spaces and quotes, so it can never equal a config key (letters, digits, - _ . :).
 */
function unboundGroup(id: string, groupNames: ReadonlyMap<string, string> | undefined): string {
  const name = groupNames?.get(id);
  return name === undefined ? `group id ${id} (not in the config)` : `group "${name}" (not in the config)`;
}

/**
 * A workflow's canonical flat fields as the server holds them; its group by config key when
 * bound, else by name (`groupNames`: server id -> name, where the server lists groups).
 */
export function canonicalWorkflowFields(
  workflow: Workflow,
  groupKeys: ReadonlyMap<string, string>,
  groupNames?: ReadonlyMap<string, string>,
): JsonObject {
  const fields: JsonObject = {
    name: workflow.name,
    description: workflow.description ?? "",
    active: workflow.active,
    critical: workflow.critical,
    tags: normalizeTags(workflow.tags ?? []),
    notificationGroup:
      groupKeys.get(workflow._notificationGroupId) ?? unboundGroup(workflow._notificationGroupId, groupNames),
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
  groupNames?: ReadonlyMap<string, string>,
  /** Set when the config manages the workflow's content: layout id -> identifier. */
  content?: ReadonlyMap<string, string>,
): LiveItem {
  const fields = canonicalWorkflowFields(workflow, groupKeys, groupNames);
  const wanted = managed === undefined ? undefined : [...managed];
  // Compared only for an adopted workflow (resolve.ts), whose trigger identifier is set by the plan.
  if (wanted?.includes("identifier") === true) fields.identifier = workflow.triggers?.[0]?.identifier ?? "";
  if (content !== undefined) liveStepFields(workflow.steps ?? [], content, fields);
  const covered = wanted === undefined ? fields : managedFields(fields, wanted);
  return new ApiLiveItem(workflow._id, fields, () => ({ id: workflow._id, ...covered }));
}
