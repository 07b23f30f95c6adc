// A workflow's part in promotion: its changes are NotificationTemplate records; the config's
// workflows are found by their `id` (resolved from trigger identifiers first, as for a plan), and
// named by trigger identifier where the server lists workflows (a server without the list
// extension leaves them unnamed rather than failing). Production receives the fields shown here,
// its group by the group's config key, and its steps as a count.
import type { DesiredState } from "../../config/model.js";
import { isNotiformError } from "../../errors.js";
import type { ChangeOp } from "../endpoints/wire.js";
import type { NotificationApi } from "../notification-api.js";
import {
  type KindPromotion,
  type ManagedHandles,
  type PromotedDetails,
  type PromotedField,
  type PromotionHandle,
  promotedField,
  type RequiredEntity,
  removes,
  topField,
} from "../promotion.js";
import { unlessUnsupported } from "../unsupported.js";
import type { Step, Workflow } from "./wire.js";

/** Workflow fields shown as Production will receive them; others (ids, dates, triggers) are not. */
const WORKFLOW_FIELDS = new Set(["name", "description", "active", "tags", "critical", "preferenceSettings"]);

async function managedWorkflows(desired: DesiredState, _state: unknown, client: NotificationApi) {
  const identifiers = await workflowIdentifiers(client);
  const warnings: string[] = [];
  const handles = new Map<string, PromotionHandle>();
  for (const { spec } of desired.resources.workflow) {
    if (spec.id === undefined) continue; // unresolvable identifiers were reported by resolveSession
    const identifier = identifiers?.get(spec.id);
    handles.set(spec.id, { key: spec.key, ...(identifier !== undefined ? { identifier } : {}) });
    if (identifiers !== undefined && identifier === undefined)
      warnings.push(`workflow ${spec.key}: Development has no workflow with id ${spec.id}`);
  }
  return { handles, warnings };
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

/**
 * A first recording adds whole fields (`steps` as its list, `triggers` with the identifier); a
 * later one, on a real server, updates deep paths (`["steps", 0, "template", "content"]`,
 * `["triggers", 0, "identifier"]`, r3-q1-14, r3-q1-29): the steps are counted by index then.
 */
function describeWorkflowOps(ops: readonly ChangeOp[], managed: ManagedHandles): PromotedDetails {
  const fields: PromotedField[] = [];
  const details: PromotedDetails = { fields };
  const stepsTouched = new Set<string>();
  for (const op of ops) {
    const field = topField(op);
    if (WORKFLOW_FIELDS.has(field)) fields.push(promotedField(field, op));
    else if (field === "_notificationGroupId") {
      if (typeof op.val === "string") details.groupEntityId = op.val;
      const key = typeof op.val === "string" ? managed.notificationGroup?.get(op.val)?.key : undefined;
      fields.push(promotedField("group", { ...op, val: key ?? op.val }));
    } else if (field === "steps" && op.path.length > 1) stepsTouched.add(String(op.path[1]));
    else if (field === "steps" && !removes(op)) {
      // A first recording adds the (possibly empty) step list: nothing to say when it is empty.
      const count = Array.isArray(op.val) ? op.val.length : 0;
      if (count > 0 || op.op !== "add") details.stepsChanged = count;
    } else if (field === "triggers" && details.identifier === undefined) {
      const identifier =
        op.path.length === 1
          ? (op.val as { identifier?: unknown }[] | undefined)?.[0]?.identifier
          : op.path[1] === 0 && op.path[2] === "identifier" && !removes(op)
            ? op.val
            : undefined;
      if (typeof identifier === "string") details.identifier = identifier;
    }
  }
  if (stepsTouched.size > 0) details.stepsChanged = (details.stepsChanged ?? 0) + stepsTouched.size;
  fields.sort((a, b) => a.field.localeCompare(b.field));
  return details;
}

/**
 * The layouts the workflows' steps use in Development (`_layoutId`, variants included), named by
 * identifier: a workflow promoted before its layout points at no layout in Production (r3-q2-03)
 * until it is promoted again. A step the config gives no `layout` keeps the one it has (the
 * server's default, for an email step created over the API: r4-61), so the config's own names
 * are not enough. Each workflow is read by id (the list carries no template).
 */
async function layoutsInUse(
  workflowIds: readonly string[],
  client: NotificationApi,
): Promise<RequiredEntity[]> {
  const workflows = await Promise.all(workflowIds.map((id) => readIfThere(client, id)));
  const used = new Set<string>();
  for (const workflow of workflows)
    if (workflow !== undefined) for (const id of layoutIdsOf(workflow)) used.add(id);
  if (used.size === 0) return [];
  const layouts = (await unlessUnsupported(client.listAllLayouts())) ?? [];
  return layouts
    .filter((layout) => used.has(layout._id))
    .map((layout) => ({ kind: "layout", entityId: layout._id, handle: { key: layout.identifier } }));
}

/** The layouts a workflow's steps and their variants use (`_layoutId`), by id. */
export function layoutIdsOf(workflow: Workflow): Set<string> {
  const used = new Set<string>();
  const visit = (step: Step & { variants?: Step[] }) => {
    const layoutId = step.template?._layoutId;
    if (typeof layoutId === "string") used.add(layoutId);
    for (const variant of step.variants ?? []) visit(variant);
  };
  for (const step of workflow.steps ?? []) visit(step);
  return used;
}

/** A Development workflow by id; undefined where the server cannot read one or it is gone. */
async function readIfThere(client: NotificationApi, id: string): Promise<Workflow | undefined> {
  try {
    return await unlessUnsupported(client.getWorkflow(id));
  } catch (error) {
    if (isNotiformError(error) && error.code === "API_NOT_FOUND") return undefined;
    throw error;
  }
}

export const workflowPromotion: KindPromotion = {
  changeTypes: ["NotificationTemplate"],
  managed: managedWorkflows,
  describe: describeWorkflowOps,
  requires: layoutsInUse,
};
