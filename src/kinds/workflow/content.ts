// The workflow kind's content (issue 24), joined to the kind in workflow.ts: reading each
// content-managed workflow by id (the list holds no content on real servers), its steps in the
// planner's field model, the PUT's whole step list, creating a missing workflow in Development,
// and "arrives by promotion" for every other environment.

import type { JsonObject } from "../../canonical.js";
import type { DesiredState } from "../../config/model.js";
import { NotiformError } from "../../errors.js";
import type { DesiredItem, OperationsResult, PlanContext } from "../kind.js";
import type { Layout } from "../layout/wire.js";
import type { NotificationApi } from "../notification-api.js";
import { unlessUnsupported } from "../unsupported.js";
import { hasCode } from "../write-outcomes.js";
import { ARRIVES_BY_PROMOTION, CONTENT_NEEDS_READ, changesContent, createSettings } from "./content-plan.js";
import { stepsBody, UnknownLayoutError } from "./steps-body.js";
import { desiredStepFields, isContentField } from "./steps-canonical.js";
import type { LayoutFromAction, WorkflowOperation, WorkflowSpec } from "./types.js";
import type { Workflow } from "./wire.js";

/**
 * The live workflows, plus the layouts their content names where the server lists them
 * (identifier <-> id). A Map still, so everything that reads workflows reads it unchanged.
 */
export class LiveWorkflows extends Map<string, Workflow> {
  layoutIdentifiers: Map<string, string> | undefined;
  layoutIds: Map<string, string> | undefined;
  /** The server's default notification group ("General"), read when a workflow is to be created without one. */
  defaultGroupId: string | undefined;
}

/**
 * The environment's layouts, where the server lists them (GET /v1/layouts): identifier -> id for
 * the writes, id -> identifier for comparing and export. Undefined on a server without the list.
 */
export async function readLayouts(
  client: NotificationApi,
  signal: AbortSignal | undefined,
  /** The whole list, read while the config loaded. */
  ahead?: Promise<Layout[]>,
): Promise<{ ids: Map<string, string>; identifiers: Map<string, string> } | undefined> {
  const layouts = await unlessUnsupported(ahead ?? client.listAllLayouts(signal ? { signal } : {}));
  if (layouts === undefined) return undefined;
  return {
    ids: new Map(layouts.map((l) => [l.identifier, l._id])),
    identifiers: new Map(layouts.map((l) => [l._id, l.identifier])),
  };
}

/** The default group a workflow is created in when the config names none: "General", else the first. */
export async function readDefaultGroup(
  client: NotificationApi,
  signal: AbortSignal | undefined,
): Promise<string | undefined> {
  const groups = await unlessUnsupported(client.listNotificationGroups(signal ? { signal } : {}));
  return (groups?.find((g) => g.name === "General") ?? groups?.[0])?._id;
}

export function layoutIdentifiersOf(
  live: Map<string, Workflow> | undefined,
): Map<string, string> | undefined {
  return live instanceof LiveWorkflows ? live.layoutIdentifiers : undefined;
}

/** The config's workflows that manage content, by key (cached per desired state). */
const specsByDesired = new WeakMap<DesiredState, Map<string, WorkflowSpec>>();

export function specOf(desired: DesiredState, key: string): WorkflowSpec | undefined {
  let specs = specsByDesired.get(desired);
  if (specs === undefined) {
    specs = new Map(desired.resources.workflow.map(({ spec }) => [spec.key, spec]));
    specsByDesired.set(desired, specs);
  }
  return specs.get(key);
}

/** The workflow's content as flat fields, added to its other desired fields. */
export function addDesiredContent(spec: WorkflowSpec, fields: JsonObject): void {
  if (spec.steps !== undefined) desiredStepFields(spec.steps, fields);
}

/**
 * The ids whose content the plan compares: each is read by id after the list (real servers list
 * steps without their templates). Returns the workflows with full steps in place.
 */
export async function readContent(
  client: NotificationApi,
  workflows: Map<string, Workflow>,
  ids: readonly string[],
  signal: AbortSignal | undefined,
  /** Workflows already read by id while the config loaded. */
  prefetched: ReadonlyMap<string, Workflow> = new Map(),
): Promise<LiveWorkflows> {
  const live = new LiveWorkflows(workflows);
  const request = signal ? { signal } : {};
  for (const id of ids) {
    const known = prefetched.get(id);
    if (known !== undefined && workflows.has(id)) live.set(id, known);
  }
  const read = await Promise.all(
    ids
      .filter((id) => workflows.has(id) && !prefetched.has(id))
      .map(async (id) => {
        try {
          return await client.getWorkflow(id, request);
        } catch (error) {
          if (hasCode(error, "API_NOT_FOUND")) return undefined;
          throw error;
        }
      }),
  );
  for (const workflow of read) if (workflow !== undefined) live.set(workflow._id, workflow);
  return live;
}

/**
 * The operations for a workflow's changes: nothing with a key of another environment than
 * Development (it arrives by promotion), a create when it is missing, else the PUT of its fields
 * with the whole step list when its content changed. `fieldsUpdate` builds the PUT of the plain
 * fields (workflow.ts), `status` the status call.
 */
export function contentAwareOperations(
  op: "create" | "update" | "unverified",
  item: DesiredItem,
  context: PlanContext,
  changes: readonly { field: string }[],
  plain: () => OperationsResult<"workflow">,
): OperationsResult<"workflow"> {
  const environment = context.live.environment;
  if (environment !== undefined && environment.name !== "Development")
    return { notApplicable: ARRIVES_BY_PROMOTION };
  const spec = specOf(context.desired, item.key);
  if (op === "create") return { operations: [createOperation(item, spec, context)] };
  if (!changesContent(changes)) return plain();
  const live = context.live.kinds.workflow?.get(item.ids.workflowId ?? "");
  if (live === undefined) {
    if (changes.every((change) => isContentField(change.field))) return { notApplicable: CONTENT_NEEDS_READ };
    context.warnings.push({
      code: "content-not-applicable",
      message: `workflow ${item.key}: its steps are not changed (${CONTENT_NEEDS_READ})`,
      source: item.source.fields.steps ?? item.source.pos,
    });
    return plain();
  }
  const result = plain();
  if ("notApplicable" in result) return result;
  const { steps, layoutsFromActions } = buildSteps(item, spec, live.steps, context);
  const layouts = layoutsFromActions.length > 0 ? { layoutsFromActions } : {};
  const operations: WorkflowOperation[] = [];
  let merged = false;
  for (const operation of result.operations) {
    if (operation.type === "workflow.update" && !merged) {
      operations.push({ ...operation, fields: { ...operation.fields, steps }, ...layouts });
      merged = true;
    } else operations.push(operation);
  }
  if (!merged)
    operations.unshift({
      type: "workflow.update",
      workflowId: item.ids.workflowId ?? "",
      fields: { steps },
      ...layouts,
    });
  return { operations };
}

/**
 * The whole step list, and the steps whose layout is one the config declares and this apply
 * creates first (not in the environment's layout list yet): their id is filled at apply time.
 */
function buildSteps(
  item: DesiredItem,
  spec: WorkflowSpec | undefined,
  live: Workflow["steps"] | undefined,
  context: PlanContext,
): { steps: JsonObject[]; layoutsFromActions: LayoutFromAction[] } {
  const workflows = context.live.kinds.workflow;
  const layoutIds =
    workflows instanceof LiveWorkflows ? (workflows.layoutIds ?? new Map()) : new Map<string, string>();
  const created = new Map<string, string>();
  if (workflows instanceof LiveWorkflows && workflows.layoutIds !== undefined)
    for (const { spec: layout } of context.desired.resources.layout)
      if (!layoutIds.has(layout.identifier)) created.set(layout.identifier, `layout/${layout.identifier}`);
  const layoutsFromActions: LayoutFromAction[] = [];
  try {
    const steps = stepsBody(spec?.steps ?? [], live, layoutIds, created, layoutsFromActions);
    return { steps, layoutsFromActions };
  } catch (error) {
    if (!(error instanceof UnknownLayoutError)) throw error;
    const index = (spec?.steps ?? []).findIndex((step) => step.name === error.step);
    const listed = workflows instanceof LiveWorkflows && workflows.layoutIds !== undefined;
    throw new NotiformError(
      "CONFIG_INVALID",
      `workflow ${item.key}: ${listed ? error.message : `step "${error.step}" names layout "${error.layout}", but this server does not list layouts (GET /v1/layouts)`}`,
      {
        pos: item.source.fields[`steps[${index}].template.layout`] ?? item.source.pos,
        hint: listed
          ? "Name a layout the server has (GET /v1/layouts), or create it first."
          : "Leave `layout` out on this server: the step keeps the layout it has.",
      },
    );
  }
}

function createOperation(
  item: DesiredItem,
  spec: WorkflowSpec | undefined,
  context: PlanContext,
): Extract<WorkflowOperation, { type: "workflow.create" }> {
  if (spec?.name === undefined || spec.identifier === undefined) {
    throw new NotiformError(
      "WORKFLOW_NOT_FOUND",
      `workflow ${item.key}: not on the server, and it has no name to create it with`,
      {
        pos: item.source.pos,
        hint: "Give it `identifier:` and `name:` (and its steps) for notiform to create it in Development.",
      },
    );
  }
  const body: JsonObject = { name: spec.name };
  let groupFromAction: string | undefined;
  if (spec.notificationGroup !== undefined) {
    const id = context.groupIds.get(spec.notificationGroup);
    if (id === undefined) groupFromAction = `notificationGroup/${spec.notificationGroup}`;
    else body.notificationGroupId = id;
  } else {
    const groups = context.live.kinds.notificationGroup ?? [];
    const workflows = context.live.kinds.workflow;
    const general =
      (groups.find((g) => g.name === "General") ?? groups[0])?._id ??
      (workflows instanceof LiveWorkflows ? workflows.defaultGroupId : undefined);
    if (general === undefined) {
      throw new NotiformError(
        "WORKFLOW_NOT_FOUND",
        `workflow ${item.key}: no notification group to create it in`,
        {
          pos: item.source.pos,
          hint: "Name one with `notificationGroup:` (a notificationGroups key of this config).",
        },
      );
    }
    body.notificationGroupId = general;
  }
  Object.assign(body, createSettings(spec));
  const { steps, layoutsFromActions } = buildSteps(item, spec, undefined, context);
  body.steps = steps;
  return {
    type: "workflow.create",
    identifier: spec.identifier,
    body,
    ...(groupFromAction !== undefined ? { groupFromAction } : {}),
    ...(layoutsFromActions.length > 0 ? { layoutsFromActions } : {}),
  };
}

/**
 * After an interrupted create: a workflow with the desired name may be the one it made (its
 * identifier still the server's slug when the run died before the PUT that sets it).
 */
export function createDoubt(item: DesiredItem, context: PlanContext): string | undefined {
  const name = specOf(context.desired, item.key)?.name;
  const workflows = context.live.kinds.workflow;
  if (workflows === undefined) return "the server cannot list workflows";
  const candidates = [...workflows.values()].filter((w) => w.name === name);
  if (candidates.length === 0) return undefined;
  return `a workflow named "${name}" exists (${candidates.map((w) => `id ${w._id}, identifier ${w.triggers?.[0]?.identifier ?? "none"}`).join("; ")}) and may be the one it made`;
}
