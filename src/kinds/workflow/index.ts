// Workflows: referenced by server id, never created (the API cannot). Managed fields are only
// those the config sets. Read live through the observed read extension when the server has it,
// else from the state file's last applied values; what neither knows is planned "unverified".
// The status call is not idempotent on real servers, so it is planned only when `active` differs
// or is unknown (and then a "must provide a different status" 400 counts as done).

import { CHANNELS, type DesiredState } from "../../config/model.js";
import { NotiformError } from "../../errors.js";
import { ownRecord } from "../../state/model.js";
import { digestOf, type JsonObject, type JsonValue } from "../canonical.js";
import { slug, uniqueKey } from "../export-keys.js";
import {
  DEVELOPMENT_ONLY,
  type DesiredItem,
  isDevelopmentOnlyBlocked,
  type KindModule,
  type LiveItem,
  type LiveLookup,
  type PlanContext,
  recordedFields,
} from "../kind.js";
import { wantedItems } from "../read-by-cost.js";
import { workflowApi } from "./api.js";
import { liveWorkflowItem, normalizeTags } from "./canonical.js";
import { checkWorkflowReferences } from "./checks.js";
import { executeWorkflow, readWorkflows, readWorkflowsAhead, rereadWorkflows } from "./execute.js";
import { workflowRequest } from "./requests.js";
import { resolveWorkflows } from "./resolve.js";
import type { WorkflowOperation, WorkflowSpec } from "./types.js";
import type { Workflow } from "./wire.js";

function desiredFields(spec: WorkflowSpec): JsonObject {
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

export const workflowKind: KindModule<"workflow"> = {
  kind: "workflow",
  section: { name: "workflows", shape: "list", identityFields: [["key", "identifier"]] },
  label: { one: "workflow", many: "workflows" },
  api: workflowApi,
  requestOf: workflowRequest,
  creates: [],
  identity: (spec) => spec.key ?? spec.identifier,
  complete: (spec) => (spec.key === undefined ? { ...spec, key: spec.identifier ?? "" } : spec),
  resolve: resolveWorkflows,
  checkReferences: checkWorkflowReferences,

  desiredItems(desired: DesiredState): DesiredItem[] {
    return desired.resources.workflow.map(({ spec, source }) => ({
      key: spec.key,
      fields: desiredFields(spec),
      source,
      dependsOn: spec.notificationGroup === undefined ? [] : [`notificationGroup/${spec.notificationGroup}`],
      ids: spec.id === undefined ? {} : { workflowId: spec.id },
    }));
  },

  lookupLive(item: DesiredItem, context: PlanContext): LiveLookup {
    const id = item.ids.workflowId ?? "";
    const workflows = context.live.kinds.workflow;
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
      return {
        status: "found",
        item: liveWorkflowItem(workflow, context.groupKeys, Object.keys(item.fields), groupNamesOf(context)),
      };
    }
    const record = ownRecord(context.state.workflows, id);
    if (record !== undefined) {
      const { fields, knownFields } = recordedFields(record.values, item.fields, context.protect);
      return {
        status: "found",
        item: {
          origin: "state",
          serverId: id,
          fields,
          knownFields,
          digest: digestOf({ id, ...record.values }),
        },
      };
    }
    return {
      status: "unknown",
      reason: "the server does not let notiform read workflows and the state file has no record of this one",
    };
  },

  operationsFor(_op, item, live, changes, context) {
    const workflowId = item.ids.workflowId ?? "";
    const active = changes.find((change) => change.field === "active");
    const statusRefused = active !== undefined && isDevelopmentOnlyBlocked(context.live.environment);
    if (statusRefused && changes.length === 1) return { notApplicable: DEVELOPMENT_ONLY };
    const operations: WorkflowOperation[] = [];
    const fields: JsonObject = {};
    let groupFromAction: string | undefined;
    let preferencesChanged = false;
    for (const change of changes) {
      if (change.field === "active") continue;
      if (change.field.startsWith("preferenceSettings.")) {
        preferencesChanged = true;
      } else if (change.field === "notificationGroup") {
        const key = String(change.new);
        const groupId = context.groupIds.get(key);
        if (groupId === undefined) groupFromAction = `notificationGroup/${key}`;
        else fields.notificationGroupId = groupId;
      } else {
        fields[change.field] = change.new;
      }
    }
    if (preferencesChanged) fields.preferenceSettings = fullPreferences(item, live);
    if (Object.keys(fields).length > 0 || groupFromAction !== undefined) {
      operations.push({
        type: "workflow.update",
        workflowId,
        fields,
        ...(groupFromAction !== undefined ? { groupFromAction } : {}),
      });
    }
    if (statusRefused) {
      context.warnings.push({
        code: "development-only",
        message: `workflow ${item.key}: active is not changed with this key (${DEVELOPMENT_ONLY})`,
        source: item.source.fields.active ?? item.source.pos,
      });
    } else if (active !== undefined) {
      operations.push({
        type: "workflow.setStatus",
        workflowId,
        active: active.new === true,
        ...(active.unknown === true ? { acceptUnchanged: true } : {}),
      });
    }
    return { operations };
  },

  unmanaged(context, managedKeys) {
    const workflows = context.live.kinds.workflow;
    if (workflows === undefined) return [];
    const managedIds = new Set(
      context.desired.resources.workflow
        .filter((w) => managedKeys.has(w.spec.key))
        .map((w) => w.spec.id ?? ""),
    );
    return [...workflows.values()]
      .filter((workflow) => !managedIds.has(workflow._id))
      .map((workflow) => ({ kind: "workflow" as const, key: workflow._id, name: workflow.name }));
  },

  async readLive(client, scope) {
    const wanted = wantedItems(workflowKind, scope).flatMap((item) =>
      item.ids.workflowId ? [item.ids.workflowId] : [],
    );
    const read = await readWorkflows(client, scope, wanted);
    if (read === undefined) return { live: undefined };
    return { live: new Map(read.items.map((w) => [w._id, w])), listed: read.listed };
  },
  readAhead: readWorkflowsAhead,
  execute: executeWorkflow,
  reread: rereadWorkflows,

  exportSection(live, keys) {
    if (live === undefined) return { notExported: "workflows (the server cannot list them)" };
    if (live.size === 0) return undefined;
    const used = new Set<string>();
    const leftOut: string[] = [];
    const workflows = [...live.values()]
      .sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0))
      .map((workflow) => {
        const key = uniqueKey(
          slug(workflow.triggers?.[0]?.identifier ?? "") || slug(workflow.name) || "workflow",
          used,
        );
        keys.workflow.set(workflow._id, key);
        return exportWorkflow(key, workflow, keys.notificationGroup, leftOut);
      })
      .sort((a, b) => (String(a.key) < String(b.key) ? -1 : String(a.key) > String(b.key) ? 1 : 0));
    return { file: "workflows.yaml", value: workflows, leftOut };
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

/**
 * The longest description the config holds: updates take at most 300 characters, though a create
 * (dashboard) takes 1,000. A longer one is left unmanaged, with a warning, rather than written
 * into a file that would not validate (schemas/notiform.schema.json says the same).
 */
const DESCRIPTION_MAX = 300;

function exportWorkflow(
  key: string,
  workflow: Workflow,
  groupKeys: ReadonlyMap<string, string>,
  leftOut: string[],
) {
  // The trigger identifier is the same in every environment; the id is not.
  const identifier = workflow.triggers?.[0]?.identifier;
  const entry: Record<string, unknown> =
    identifier === undefined || identifier === "" ? { key, id: workflow._id } : { key, identifier };
  if (workflow.name !== "") entry.name = workflow.name;
  entry.active = workflow.active;
  const description = workflow.description ?? "";
  if (description.length > DESCRIPTION_MAX) {
    leftOut.push(
      `workflow ${key}: description left out (${description.length} characters; the config holds at most ${DESCRIPTION_MAX}), so it stays unmanaged`,
    );
  } else if (description !== "") entry.description = description;
  entry.critical = workflow.critical === true;
  if (workflow.tags !== undefined && workflow.tags.length > 0) entry.tags = normalizeTags(workflow.tags);
  const group = groupKeys.get(workflow._notificationGroupId);
  if (group !== undefined) entry.notificationGroup = group;
  entry.preferenceSettings = Object.fromEntries(
    CHANNELS.map((c) => [c, workflow.preferenceSettings?.[c] ?? true]),
  );
  return entry;
}

export { canonicalWorkflowFields, liveWorkflowItem } from "./canonical.js";

const namesByList = new WeakMap<object, ReadonlyMap<string, string>>();

/** Server group id -> name, where the server lists groups (to show a workflow's unbound group). */
function groupNamesOf(context: PlanContext): ReadonlyMap<string, string> | undefined {
  const groups = context.live.kinds.notificationGroup;
  if (groups === undefined) return undefined;
  let names = namesByList.get(groups);
  if (names === undefined) {
    names = new Map(groups.map((g) => [g._id, g.name]));
    namesByList.set(groups, names);
  }
  return names;
}
