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
  client: Pick<NotificationApi, "listAllWorkflows" | "listAllLayouts">,
): Promise<ManagedEntities> {
  const [identifiers, layouts] = await Promise.all([
    workflowIdentifiers(client),
    namedLayouts(desired, client),
  ]);
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
  return { workflows, groups, layouts, warnings };
}

/**
 * Development layout id -> identifier, for the layouts the config names: those it declares and
 * those its workflows' steps name (`template.layout`, e.g. an export's `novu-default-layout`).
 * Their pending changes are promoted, before the workflows: a workflow promoted while its layout
 * is not in Production points at no layout there (r3-q2-03), and would plan as a change forever.
 */
async function namedLayouts(
  desired: DesiredState,
  client: Pick<NotificationApi, "listAllLayouts">,
): Promise<Map<string, string>> {
  const declared = new Set(desired.resources.layout.map((l) => l.spec.identifier));
  for (const { spec } of desired.resources.workflow)
    for (const step of spec.steps ?? [])
      if (step.template?.layout !== undefined) declared.add(step.template.layout);
  if (declared.size === 0) return new Map();
  try {
    const all = await client.listAllLayouts();
    return new Map(all.filter((l) => declared.has(l.identifier)).map((l) => [l._id, l.identifier]));
  } catch (error) {
    if (isNotiformError(error) && error.code === "API_UNSUPPORTED") return new Map();
    throw error;
  }
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
