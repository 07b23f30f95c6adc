// Workflows: found by identifier (or server id) in each environment, created in Development when
// missing (workflow-content.ts), and authored there only: with any other environment's key every
// difference arrives by promotion. Managed fields are only those the config sets; `steps` makes
// the workflow's content managed as a whole (workflow-steps-*.ts). Read live through the observed
// read extensions when the server has them, else from the state file's last applied values; what
// neither knows is planned "unverified". The status call is not idempotent on real servers, so it
// is planned only when `active` differs or is unknown (then a "must provide a different status"
// 400 counts as done).

import { digestOf, type JsonObject, type JsonValue } from "../../canonical.js";
import { CHANNELS, type DesiredState } from "../../config/model.js";
import { NotiformError } from "../../errors.js";
import { ownRecord } from "../../state/model.js";
import { slug, uniqueKey } from "../export-keys.js";
import {
  type DesiredItem,
  type ExportKeys,
  type ExportSection,
  type KindModule,
  type LiveItem,
  type LiveLookup,
  type OperationsResult,
  type PlanContext,
  recordedFields,
} from "../kind.js";
import type { LiveByKind } from "../kinds.js";
import type { Layout } from "../layout/wire.js";
import type { FieldChange } from "../plan-action.js";
import { wantedItems } from "../read-by-cost.js";
import { unlessUnsupported } from "../unsupported.js";
import { workflowApi } from "./api.js";
import { liveWorkflowItem, normalizeTags } from "./canonical.js";
import { checkWorkflowReferences, WORKFLOW_TEMPLATES } from "./checks.js";
import {
  addDesiredContent,
  contentAwareOperations,
  createDoubt,
  layoutIdentifiersOf,
  readContent,
  readDefaultGroup,
  readLayouts,
} from "./content.js";
import { executeWorkflow, readWorkflows, readWorkflowsAhead, type WorkflowReadAhead } from "./execute.js";
import { workflowPromotion } from "./promotion.js";
import { workflowRequests } from "./requests.js";
import { resolveWorkflows } from "./resolve.js";
import { isContentField } from "./steps-canonical.js";
import { exportSteps } from "./steps-export.js";
import type { WorkflowOperation, WorkflowSpec } from "./types.js";
import type { Workflow } from "./wire.js";

function desiredFields(spec: WorkflowSpec): JsonObject {
  const fields: JsonObject = {};
  if (spec.name !== undefined) fields.name = spec.name;
  // An adopted workflow (resolve.ts) has the trigger identifier the server made: set the config's.
  if (spec.adopted === true && spec.identifier !== undefined) fields.identifier = spec.identifier;
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
  addDesiredContent(spec, fields);
  return fields;
}

/** The layout identifiers a workflow's steps name, each once. */
function stepLayouts(spec: WorkflowSpec): string[] {
  return [...new Set((spec.steps ?? []).flatMap((step) => step.template?.layout ?? []))];
}

export const workflowKind: KindModule<"workflow"> = {
  kind: "workflow",
  section: { name: "workflows", shape: "list", identityFields: [["key", "identifier"]] },
  label: { one: "workflow", many: "workflows" },
  api: workflowApi,
  ...workflowRequests,
  creates: ["workflow.create"],
  textFileFields: [
    ["steps", "*", "template", "content"],
    ["steps", "*", "template", "preheader"],
  ],
  dataFileFields: [
    ["preview"],
    ["preview", "*"],
    ["preview", "payload"],
    ["preview", "subscriber"],
    ["preview", "*", "payload"],
    ["preview", "*", "subscriber"],
  ],
  localFields: ["preview"],
  ...WORKFLOW_TEMPLATES,
  identity: (spec) => spec.key ?? spec.identifier,
  complete: (spec) => (spec.key === undefined ? { ...spec, key: spec.identifier ?? "" } : spec),
  resolve: resolveWorkflows,
  checkReferences: checkWorkflowReferences,

  desiredItems(desired: DesiredState): DesiredItem[] {
    const layouts = new Set(desired.resources.layout.map((l) => l.spec.identifier));
    return desired.resources.workflow.map(({ spec, source }) => ({
      key: spec.key,
      fields: desiredFields(spec),
      source,
      dependsOn: [
        ...(spec.notificationGroup === undefined ? [] : [`notificationGroup/${spec.notificationGroup}`]),
        // Layouts of this config its steps use: created (or changed) first when in the plan.
        ...stepLayouts(spec).flatMap((layout) => (layouts.has(layout) ? [`layout/${layout}`] : [])),
      ],
      ids: spec.id === undefined ? {} : { workflowId: spec.id },
    }));
  },

  // A workflow shows its group by key, or by name where the group is not the config's.
  planReads: ["notificationGroup"],

  lookupLive(item: DesiredItem, context: PlanContext): LiveLookup {
    const id = item.ids.workflowId ?? "";
    const workflows = context.live.kinds.workflow;
    // Named by an identifier the server does not have (resolve left it without an id).
    if (workflows !== undefined && item.ids.workflowId === undefined) return { status: "absent" };
    if (workflows !== undefined) {
      const workflow = workflows.get(id);
      if (workflow === undefined) {
        const pos = item.source.fields.id ?? item.source.pos;
        throw new NotiformError(
          "WORKFLOW_NOT_FOUND",
          `workflow ${item.key}: no workflow with id ${id} on the server`,
          {
            pos,
            hint: "Check the id: ids differ between environments (a promoted workflow is a new record). Or name it by its `identifier` instead: resolved in each environment, and created in Development (with a `name`) when missing.",
          },
        );
      }
      return {
        status: "found",
        item: liveWorkflowItem(
          workflow,
          context.groupKeys,
          Object.keys(item.fields),
          groupNamesOf(context),
          item.fields.steps === undefined ? undefined : (layoutIdentifiersOf(workflows) ?? new Map()),
        ),
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

  operationsFor(op, item, live, changes, context) {
    return contentAwareOperations(op, item, context, changes, () =>
      plainOperations(item, live, changes, context),
    );
  },

  intentDoubt: createDoubt,

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
    const items = wantedItems(workflowKind, scope);
    const wanted = items.flatMap((item) => (item.ids.workflowId ? [item.ids.workflowId] : []));
    const read = await readWorkflows(client, scope, wanted);
    if (read === undefined) return { live: undefined };
    const workflows = new Map(read.items.map((w) => [w._id, w]));
    // Content is compared only where the config manages it (or everything, for export).
    const content = scope.everything
      ? [...workflows.keys()]
      : items.flatMap((item) =>
          item.fields.steps !== undefined && item.ids.workflowId ? [item.ids.workflowId] : [],
        );
    const ahead = (await scope.readAhead?.workflow) as WorkflowReadAhead | undefined;
    const prefetched = (await ahead?.content) ?? new Map<string, Workflow>();
    const live = await readContent(client, workflows, content, scope.signal, prefetched);
    // Layout identifiers <-> ids, where the config names a layout or an export shows them.
    const namesLayouts = (workflow: Workflow) =>
      (workflow.steps ?? []).some((step) => typeof step.template?._layoutId === "string");
    const layoutsNeeded = scope.everything
      ? [...live.values()].some(namesLayouts)
      : scope.desired.resources.workflow.some(({ spec }) =>
          spec.steps?.some((step) => step.template?.layout !== undefined),
        );
    if (layoutsNeeded) {
      // The layout kind's read, when the config's layouts started one while it loaded.
      const layouts = await readLayouts(
        client,
        scope.signal,
        scope.readAhead?.layout as Promise<Layout[]> | undefined,
      );
      live.layoutIds = layouts?.ids;
      live.layoutIdentifiers = layouts?.identifiers;
    }
    // A workflow to be created in no group the config names goes into the server's default one.
    const creates = items.some(
      (item) =>
        item.ids.workflowId === undefined && item.dependsOn.every((d) => !d.startsWith("notificationGroup/")),
    );
    if (creates) live.defaultGroupId = await readDefaultGroup(client, scope.signal);
    // A workflow to be created: what the server holds by name settles an interrupted create.
    if (items.some((item) => item.ids.workflowId === undefined) && !read.listed) {
      const all = await unlessUnsupported(
        client.listAllWorkflows(scope.signal ? { signal: scope.signal } : {}),
      );
      for (const workflow of all ?? []) if (!live.has(workflow._id)) live.set(workflow._id, workflow);
    }
    return { live, listed: read.listed };
  },
  readAhead: readWorkflowsAhead,
  promotion: workflowPromotion,
  execute: executeWorkflow,

  exportSection(live, keys) {
    return exportWorkflows(live, keys);
  },
};

/**
 * The operations of a workflow's plain fields (not its content): PUT for fields, PUT status for
 * `active` (only reached with a Development key, or where the server does not say).
 */
function plainOperations(
  item: DesiredItem,
  live: LiveItem | undefined,
  changes: FieldChange[],
  context: PlanContext,
): OperationsResult<"workflow"> {
  const workflowId = item.ids.workflowId ?? "";
  const active = changes.find((change) => change.field === "active");
  const operations: WorkflowOperation[] = [];
  const fields: JsonObject = {};
  let groupFromAction: string | undefined;
  let preferencesChanged = false;
  for (const change of changes) {
    if (change.field === "active" || isContentField(change.field)) continue;
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
  if (active !== undefined) {
    operations.push({
      type: "workflow.setStatus",
      workflowId,
      active: active.new === true,
      ...(active.unknown === true ? { acceptUnchanged: true } : {}),
    });
  }
  return { operations };
}

/** The workflows section of an export: settings, and content with its long text in files. */
function exportWorkflows(live: LiveByKind["workflow"], keys: ExportKeys): ExportSection {
  if (live === undefined) return { notExported: "workflows (the server cannot list them)" };
  if (live.size === 0) return undefined;
  const used = new Set<string>();
  const leftOut: string[] = [];
  const textFiles = new Map<string, string>();
  const layouts = layoutIdentifiersOf(live);
  const workflows = [...live.values()]
    .sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0))
    .map((workflow) => {
      const key = uniqueKey(
        slug(workflow.triggers?.[0]?.identifier ?? "") || slug(workflow.name) || "workflow",
        used,
      );
      keys.workflow.set(workflow._id, key);
      const entry = exportWorkflow(key, workflow, keys.notificationGroup, leftOut);
      // Only a workflow read by id holds its templates (a list's steps do not).
      const full = (workflow.steps ?? []).every(
        (step) =>
          step.template === undefined ||
          "content" in step.template ||
          step.template.type === "delay" ||
          step.template.type === "digest",
      );
      if (full && (workflow.steps ?? []).length > 0) {
        const content = exportSteps(key, workflow.steps, layouts);
        for (const message of content.leftOut) leftOut.push(message);
        if (content.steps !== undefined) {
          entry.steps = content.steps;
          for (const [path, text] of content.files) textFiles.set(path, text);
        }
      }
      return entry;
    })
    .sort((a, b) => (String(a.key) < String(b.key) ? -1 : String(a.key) > String(b.key) ? 1 : 0));
  return { file: "workflows.yaml", value: workflows, leftOut, textFiles };
}

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
  // Counted as the schema counts (code points: an emoji is one character).
  const length = [...description].length;
  if (length > DESCRIPTION_MAX) {
    leftOut.push(
      `workflow ${key}: description left out (${length} characters; the config holds at most ${DESCRIPTION_MAX}), so it stays unmanaged`,
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
