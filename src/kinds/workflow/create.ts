// Creating a workflow (Development only): POST /v1/workflows with the body the plan shows, then,
// because a real server makes the trigger identifier from the name (an `identifier` in the POST
// is ignored), PUT the config's identifier when the server's slug differs. The POST is never
// retried (a second one makes a second workflow, "-2" appended); apply records the create's
// intent first, and a run interrupted before the answer leaves it for the next plan to settle.

import type { JsonObject } from "../../canonical.js";
import { InternalError } from "../../errors.js";
import type { ExecuteContext, ExecuteResult } from "../kind.js";
import type { PlanAction } from "../plan-action.js";
import { canonicalWorkflowFields } from "./canonical.js";
import type { LayoutFromAction, WorkflowOperation } from "./types.js";
import type { CreateWorkflowBody, Step } from "./wire.js";

/**
 * The steps with the layout ids that actions of this apply produced (a layout the config declares
 * and this apply created before the workflow) in place of the plan's placeholders.
 */
export function withCreatedLayouts(
  steps: readonly JsonObject[],
  layouts: readonly LayoutFromAction[] | undefined,
  createdIds: ReadonlyMap<string, string>,
): JsonObject[] {
  if (layouts === undefined || layouts.length === 0) return [...steps];
  const out = [...steps];
  for (const { step, action } of layouts) {
    const id = createdIds.get(action);
    const target = out[step];
    if (id === undefined || target === undefined)
      throw new InternalError(`${action} produced no id for step ${step}'s layout`);
    out[step] = {
      ...target,
      template: { ...((target.template as JsonObject | undefined) ?? {}), layoutId: id },
    };
  }
  return out;
}

export async function createWorkflow(
  action: PlanAction,
  op: Extract<WorkflowOperation, { type: "workflow.create" }>,
  { client, groupKeys, createdIds, signal }: ExecuteContext,
): Promise<ExecuteResult> {
  const options = signal ? { signal } : {};
  const body = { ...op.body } as unknown as CreateWorkflowBody & { steps?: Step[] };
  if (op.groupFromAction !== undefined) {
    const groupId = createdIds.get(op.groupFromAction);
    if (groupId === undefined)
      throw new InternalError(`${op.groupFromAction} produced no id for the workflow's group`);
    body.notificationGroupId = groupId;
  }
  if (body.steps !== undefined)
    body.steps = withCreatedLayouts(
      body.steps as unknown as JsonObject[],
      op.layoutsFromActions,
      createdIds,
    ) as unknown as Step[];
  let workflow = await client.createWorkflow(body, options);
  const given = workflow.triggers?.[0]?.identifier;
  if (given !== op.identifier)
    workflow = await client.updateWorkflow(workflow._id, { identifier: op.identifier }, options);
  const fields = canonicalWorkflowFields(workflow, groupKeys);
  return {
    serverId: workflow._id,
    fields,
    stateChange: { section: "workflows", id: workflow._id, key: action.key, values: fields },
    ...(given !== op.identifier
      ? // Not the one the server made: it made it from the name, which may hold a value from the
        // environment, slugged (lower case, punctuation as "-"), a form no mask of output knows.
        {
          note: `identifier set to ${op.identifier} (the server made ${given === undefined ? "none" : "another"})`,
        }
      : {}),
  };
}
