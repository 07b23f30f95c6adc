// The override kind's I/O. POST is create-only: a second POST for the same (workflow, tenant)
// fails on the server's unique index. So a create that met 409, or whose response was lost, is
// resolved by finding the pair (the pair GET extension, else the paged list) first.

import type { JsonObject } from "../../canonical.js";
import { CHANNELS } from "../../config/model.js";
import { InternalError } from "../../errors.js";
import type { ExecuteContext, ExecuteResult } from "../kind.js";
import type { NotificationApi } from "../notification-api.js";
import type { PlanAction } from "../plan-action.js";
import { hasCode, mayHaveBeenApplied, statusOf } from "../write-outcomes.js";
import type { OverrideOperation } from "./types.js";
import type { WorkflowOverride } from "./wire.js";

export function overrideLookupKey(workflowId: string, tenantId: string): string {
  return `${workflowId}:${tenantId}`;
}

async function findPair(
  client: NotificationApi,
  workflowId: string,
  tenantId: string,
): Promise<WorkflowOverride | undefined> {
  if (client.capability("getWorkflowOverrideByPair") !== "unsupported") {
    try {
      return await client.getWorkflowOverrideByPair(workflowId, tenantId);
    } catch (error) {
      if (hasCode(error, "API_NOT_FOUND")) return undefined;
      if (!hasCode(error, "API_UNSUPPORTED")) throw error;
    }
  }
  const all = await client.listAllWorkflowOverrides();
  return all.find((o) => o._workflowId === workflowId && o._tenantId === tenantId);
}

function resultOf(override: WorkflowOverride, note?: string): ExecuteResult {
  const fields: JsonObject = { active: override.active === true };
  for (const channel of CHANNELS)
    fields[`preferenceSettings.${channel}`] = override.preferenceSettings?.[channel] ?? true;
  return { serverId: override._id, fields, ...(note ? { note } : {}) };
}

export async function executeOverride(
  _action: PlanAction,
  op: OverrideOperation,
  { client, signal, createdIds }: ExecuteContext,
): Promise<ExecuteResult> {
  const options = signal ? { signal } : {};
  if (op.type === "override.create") op = withCreatedIds(op, createdIds);
  if (op.type === "override.update") {
    const body = {
      ...(op.active !== undefined ? { active: op.active } : {}),
      ...(op.preferenceSettings !== undefined
        ? { preferenceSettings: op.preferenceSettings as Record<string, boolean> }
        : {}),
    };
    return resultOf(await client.updateWorkflowOverride(op.overrideId, body, options));
  }
  const create = {
    workflowId: op.workflowId,
    tenantId: op.tenantId,
    active: op.active,
    preferenceSettings: op.preferenceSettings as Record<string, boolean>,
  };
  try {
    return resultOf(await client.createWorkflowOverride(create, options));
  } catch (error) {
    const conflict = statusOf(error) === 409;
    if (!conflict && !mayHaveBeenApplied(error)) throw error;
    const existing = await findPair(client, op.workflowId, op.tenantId);
    if (existing !== undefined)
      return resultOf(
        existing,
        conflict ? "already existed (409); read back" : "response lost; read back: created",
      );
    if (conflict) throw error;
    return resultOf(
      await client.createWorkflowOverride(create, options),
      "response lost; not created; sent again",
    );
  }
}

/** The ids a create takes from actions of this plan that ran before it (a tenant, a workflow). */
function withCreatedIds(
  op: Extract<OverrideOperation, { type: "override.create" }>,
  createdIds: ReadonlyMap<string, string>,
): Extract<OverrideOperation, { type: "override.create" }> {
  const { tenantFromAction, workflowFromAction, ...rest } = op;
  const idOf = (action: string, what: string) => {
    const id = createdIds.get(action);
    if (id === undefined) throw new InternalError(`${action} produced no id for the override's ${what}`);
    return id;
  };
  return {
    ...rest,
    ...(tenantFromAction !== undefined ? { tenantId: idOf(tenantFromAction, "tenant") } : {}),
    ...(workflowFromAction !== undefined ? { workflowId: idOf(workflowFromAction, "workflow") } : {}),
  };
}
