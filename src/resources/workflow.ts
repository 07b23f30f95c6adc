// Workflows: referenced by server id, never created (the API cannot). Managed fields are only
// those the config sets. Read live through the observed read extension when the server has it,
// else from the state file's last applied values; what neither knows is planned "unverified".
// The status call is not idempotent on real servers, so it is planned only when `active` differs
// or is unknown (and then a "must provide a different status" 400 counts as done).
import type { Workflow } from "../api/types.js";
import { CHANNELS, type DesiredState } from "../config/model.js";
import { NotiformError } from "../errors.js";
import type { PlannedRequest } from "../plan/model.js";
import { digestOf, type JsonObject, type JsonValue } from "./canonical.js";
import type { DesiredItem, LiveItem, LiveLookup, PlanContext, ResourceModule } from "./kind.js";

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

function normalizeTags(tags: readonly string[]): string[] {
  return [...new Set(tags)].sort();
}

export function liveWorkflowItem(workflow: Workflow, groupKeys: ReadonlyMap<string, string>): LiveItem {
  const fields = canonicalWorkflowFields(workflow, groupKeys);
  return { origin: "api", serverId: workflow._id, fields, digest: digestOf({ id: workflow._id, ...fields }) };
}

export function workflowPath(id: string): string {
  return `/v1/workflows/${encodeURIComponent(id)}`;
}

function desiredFields(spec: DesiredState["workflows"][number]["spec"]): JsonObject {
  const fields: JsonObject = {};
  if (spec.name !== undefined) fields.name = spec.name;
  if (spec.description !== undefined) fields.description = spec.description;
  if (spec.active !== undefined) fields.active = spec.active;
  if (spec.critical !== undefined) fields.critical = spec.critical;
  if (spec.tags !== undefined) fields.tags = normalizeTags(spec.tags);
  if (spec.notificationGroup !== undefined) fields.notificationGroup = spec.notificationGroup;
  if (spec.data !== undefined) fields.data = spec.data as JsonObject;
  for (const channel of CHANNELS) {
    const value = spec.preferenceSettings?.[channel];
    if (value !== undefined) fields[`preferenceSettings.${channel}`] = value;
  }
  return fields;
}

export const workflowModule: ResourceModule & { kind: "workflow" } = {
  kind: "workflow",
  label: "workflow",

  desiredItems(desired: DesiredState): DesiredItem[] {
    return desired.workflows.map(({ spec, source }) => ({
      key: spec.key,
      fields: desiredFields(spec),
      source,
      dependsOn: spec.notificationGroup === undefined ? [] : [`notificationGroup/${spec.notificationGroup}`],
      ids: { workflowId: spec.id },
    }));
  },

  lookupLive(item: DesiredItem, context: PlanContext): LiveLookup {
    const id = item.ids.workflowId ?? "";
    const workflows = context.live.workflows;
    if (workflows !== undefined) {
      const workflow = workflows.get(id);
      if (workflow === undefined) {
        const pos = item.source.fields.id ?? item.source.pos;
        throw new NotiformError(
          "WORKFLOW_NOT_FOUND",
          `workflow ${item.key}: no workflow with id ${id} on the server`,
          {
            pos,
            hint: "Workflows cannot be created through the API: create it in the dashboard, then put its id here.",
          },
        );
      }
      return { status: "found", item: liveWorkflowItem(workflow, context.groupKeys) };
    }
    const record = context.state.workflows[id];
    if (record !== undefined) {
      return {
        status: "found",
        item: {
          origin: "state",
          serverId: id,
          fields: record.values,
          knownFields: Object.keys(record.values),
          digest: digestOf({ id, ...record.values }),
        },
      };
    }
    return {
      status: "unknown",
      reason: "the server does not let notiform read workflows and the state file has no record of this one",
    };
  },

  requestsFor(_op, item, live, changes, context) {
    const id = item.ids.workflowId ?? "";
    const requests: PlannedRequest[] = [];
    const body: JsonObject = {};
    const refs: { field: string; action: string }[] = [];
    let preferencesChanged = false;
    for (const change of changes) {
      if (change.field === "active") continue;
      if (change.field.startsWith("preferenceSettings.")) {
        preferencesChanged = true;
      } else if (change.field === "notificationGroup") {
        const key = String(change.new);
        const groupId = context.groupIds.get(key);
        if (groupId === undefined) {
          body.notificationGroupId = `<id of notificationGroup/${key}>`;
          refs.push({ field: "notificationGroupId", action: `notificationGroup/${key}` });
        } else {
          body.notificationGroupId = groupId;
        }
      } else {
        body[change.field] = change.new;
      }
    }
    if (preferencesChanged) body.preferenceSettings = fullPreferences(item, live);
    if (Object.keys(body).length > 0) {
      requests.push({ method: "PUT", path: workflowPath(id), body, ...(refs.length > 0 ? { refs } : {}) });
    }
    const active = changes.find((change) => change.field === "active");
    if (active !== undefined) {
      requests.push({
        method: "PUT",
        path: `${workflowPath(id)}/status`,
        body: { active: active.new },
        ...(active.unknown === true ? { acceptUnchangedStatus: true } : {}),
      });
    }
    return { requests };
  },

  unmanaged(context, managedKeys) {
    const workflows = context.live.workflows;
    if (workflows === undefined) return [];
    const managedIds = new Set(
      context.desired.workflows.filter((w) => managedKeys.has(w.spec.key)).map((w) => w.spec.id),
    );
    return [...workflows.values()]
      .filter((workflow) => !managedIds.has(workflow._id))
      .map((workflow) => ({ kind: "workflow" as const, key: workflow._id, name: workflow.name }));
  },
};

/**
 * The server replaces preferenceSettings wholesale, so the body carries all five channels:
 * the desired ones, the live values for the rest, and the server default (true) when unknown.
 */
function fullPreferences(item: DesiredItem, live: LiveItem | undefined): JsonObject {
  const out: JsonObject = {};
  for (const channel of CHANNELS) {
    const field = `preferenceSettings.${channel}`;
    const value: JsonValue | undefined = item.fields[field] ?? live?.fields[field];
    out[channel] = typeof value === "boolean" ? value : true;
  }
  return out;
}
