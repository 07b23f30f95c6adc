// Executing override actions. POST is create-only: a second POST for the same (workflow,
// tenant) fails on the server's unique index. So a create that met 409, or whose response was
// lost, is resolved by finding the pair (the pair GET extension, else the paged list) first.
import type { NotificationApi, WorkflowOverride } from "../api/types.js";
import type { ExecuteResult, ResourceExecutor } from "./kind.js";
import { canonicalOverrideFields, overrideLookupKey } from "./workflow-override.js";
import { hasCode, mayHaveBeenApplied, statusOf } from "./write-outcomes.js";

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
  return { serverId: override._id, fields: canonicalOverrideFields(override), ...(note ? { note } : {}) };
}

export const overrideExecutor: ResourceExecutor = {
  async execute(action, request, { client, signal }): Promise<ExecuteResult> {
    const options = signal ? { signal } : {};
    const body = request.body as {
      workflowId?: string;
      tenantId?: string;
      active?: boolean;
      preferenceSettings?: Record<string, boolean>;
    };
    if (request.method === "PUT") {
      const id = action.live.serverId ?? "";
      const updated = await client.updateWorkflowOverride(
        id,
        {
          ...(body.active !== undefined ? { active: body.active } : {}),
          ...(body.preferenceSettings !== undefined ? { preferenceSettings: body.preferenceSettings } : {}),
        },
        options,
      );
      return resultOf(updated);
    }
    const workflowId = body.workflowId ?? "";
    const tenantId = body.tenantId ?? "";
    const create = { ...body, workflowId, tenantId };
    try {
      return resultOf(await client.createWorkflowOverride(create, options));
    } catch (error) {
      const conflict = statusOf(error) === 409;
      if (!conflict && !mayHaveBeenApplied(error)) throw error;
      const existing = await findPair(client, workflowId, tenantId);
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
  },

  async reread(action, snapshot, { listOverrides }) {
    const [workflowId, tenantId] = [action.requests[0]?.body.workflowId, action.requests[0]?.body.tenantId];
    for (const override of await listOverrides()) {
      const matches =
        action.live.serverId !== undefined
          ? override._id === action.live.serverId
          : override._workflowId === workflowId && override._tenantId === tenantId;
      if (matches)
        snapshot.overrides.set(overrideLookupKey(override._workflowId, override._tenantId), override);
    }
  },
};
