// Which Development entities the config manages, as Development ids. Workflows: by their `id`,
// which the caller has resolved from trigger identifiers first (resolveSession, as for a plan).
// Notification groups: through the state file (group key -> id), as apply recorded them.
// Trigger identifiers are looked up only to name workflows; a server without the workflow list
// extension leaves them unnamed rather than failing.

import type { DesiredState } from "../config/model.js";
import { isNotiformError } from "../errors.js";
import type { NotificationApi } from "../kinds/notification-api.js";
import type { StateFile } from "../state/model.js";
import type { ManagedEntities } from "./build-promotion.js";

export async function resolveManagedEntities(
  desired: DesiredState,
  state: StateFile,
  client: Pick<NotificationApi, "listAllWorkflows">,
): Promise<ManagedEntities> {
  const identifiers = await workflowIdentifiers(client);
  const warnings: string[] = [];
  const workflows = new Map<string, { key: string; identifier?: string }>();
  for (const { spec } of desired.resources.workflow) {
    if (spec.id === undefined) continue; // unresolvable identifiers were reported by resolveSession
    const identifier = identifiers?.get(spec.id);
    workflows.set(spec.id, { key: spec.key, ...(identifier !== undefined ? { identifier } : {}) });
    if (identifiers !== undefined && identifier === undefined)
      warnings.push(`workflow ${spec.key}: Development has no workflow with id ${spec.id}`);
  }
  const groups = new Map<string, string>();
  for (const { spec } of desired.resources.notificationGroup) {
    const record = Object.hasOwn(state.notificationGroups, spec.key)
      ? state.notificationGroups[spec.key]
      : undefined;
    if (record !== undefined) groups.set(record.id, spec.key);
    else
      warnings.push(
        `notification group ${spec.key}: the state file has no Development id for it (apply in Development first); its changes show as unmanaged`,
      );
  }
  return { workflows, groups, warnings };
}

async function workflowIdentifiers(
  client: Pick<NotificationApi, "listAllWorkflows">,
): Promise<Map<string, string> | undefined> {
  try {
    const all = await client.listAllWorkflows();
    const out = new Map<string, string>();
    for (const workflow of all) {
      const identifier = workflow.triggers[0]?.identifier;
      if (identifier !== undefined) out.set(workflow._id, identifier);
    }
    return out;
  } catch (error) {
    if (isNotiformError(error) && error.code === "API_UNSUPPORTED") return undefined;
    throw error;
  }
}
