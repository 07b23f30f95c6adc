// Executing workflow actions: PUT for fields, PUT status for `active`. The status call is not
// idempotent on real servers: when the plan could not know the live status, its 400 "must
// provide a different status" means the workflow already is as desired.

import { isUnchangedStatusError } from "../api/errors.js";
import type { Workflow } from "../api/types.js";
import type { ExecuteResult, ResourceExecutor } from "./kind.js";
import { canonicalWorkflowFields } from "./workflow.js";
import { hasCode, statusOf } from "./write-outcomes.js";

function resultOf(workflow: Workflow, key: string, groupKeys: ReadonlyMap<string, string>): ExecuteResult {
  const fields = canonicalWorkflowFields(workflow, groupKeys);
  return {
    serverId: workflow._id,
    fields,
    stateChange: { section: "workflows", id: workflow._id, key, values: fields },
  };
}

export const workflowExecutor: ResourceExecutor = {
  async execute(action, request, { client, groupKeys, signal }): Promise<ExecuteResult> {
    const options = signal ? { signal } : {};
    const id = action.live.serverId ?? String(request.path.split("/")[3]);
    if (request.path.endsWith("/status")) {
      const active = request.body.active === true;
      try {
        return resultOf(await client.updateWorkflowStatus(id, active, options), action.key, groupKeys);
      } catch (error) {
        if (
          request.acceptUnchangedStatus === true &&
          statusOf(error) === 400 &&
          isUnchangedStatusError(error)
        ) {
          return {
            serverId: id,
            fields: { active },
            stateChange: { section: "workflows", id, key: action.key, values: { active } },
            note: `already ${active ? "active" : "inactive"}`,
          };
        }
        throw error;
      }
    }
    return resultOf(await client.updateWorkflow(id, request.body, options), action.key, groupKeys);
  },

  async reread(action, snapshot, { client }) {
    if (action.live.origin !== "api" || snapshot.workflows === undefined) return;
    try {
      const workflow = await client.getWorkflow(action.live.serverId ?? "");
      snapshot.workflows.set(workflow._id, workflow);
    } catch (error) {
      if (!hasCode(error, "API_NOT_FOUND")) throw error;
    }
  },
};
