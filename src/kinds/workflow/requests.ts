// The HTTP request each workflow operation sends (the plan shows it; apply sends exactly it).
import { type PlannedRequest, pathSegment } from "../operations.js";
import type { LayoutFromAction, WorkflowOperation } from "./types.js";

export function workflowRequest(op: WorkflowOperation): PlannedRequest {
  switch (op.type) {
    case "workflow.create": {
      const request: PlannedRequest = { method: "POST", path: "/v1/workflows", body: { ...op.body } };
      if (op.groupFromAction !== undefined) {
        request.body.notificationGroupId = `<id of ${op.groupFromAction}>`;
        request.refs = [{ field: "notificationGroupId", action: op.groupFromAction }];
      }
      return withLayoutRefs(request, op.layoutsFromActions);
    }
    case "workflow.update": {
      const request: PlannedRequest = {
        method: "PUT",
        path: `/v1/workflows/${pathSegment(op.workflowId)}`,
        body: { ...op.fields },
      };
      if (op.groupFromAction !== undefined) {
        request.body.notificationGroupId = `<id of ${op.groupFromAction}>`;
        request.refs = [{ field: "notificationGroupId", action: op.groupFromAction }];
      }
      return withLayoutRefs(request, op.layoutsFromActions);
    }
    case "workflow.setStatus":
      return {
        method: "PUT",
        path: `/v1/workflows/${pathSegment(op.workflowId)}/status`,
        body: { active: op.active },
      };
  }
}

/**
 * After a create, the PUT that sets the config's trigger identifier: a real server makes its own
 * from the name (an identifier in the POST is ignored), so it is sent only when that one differs
 * (create.ts), on the id the create answers.
 */
export function workflowFollowUps(op: WorkflowOperation): PlannedRequest[] {
  if (op.type !== "workflow.create") return [];
  return [
    {
      method: "PUT",
      path: "/v1/workflows/<id this create answers>",
      body: { identifier: op.identifier },
      when: "the identifier the server made from the name is another",
    },
  ];
}

/** The steps' layouts another action creates, as refs (the body already holds their placeholders). */
function withLayoutRefs(request: PlannedRequest, layouts: readonly LayoutFromAction[] | undefined) {
  if (layouts === undefined || layouts.length === 0) return request;
  request.refs = [
    ...(request.refs ?? []),
    ...layouts.map(({ step, action }) => ({ field: `steps[${step}].template.layoutId`, action })),
  ];
  return request;
}

/** The kind's rendering of its operations as requests (kind.ts requestOf, followUpsOf). */
export const workflowRequests = { requestOf: workflowRequest, followUpsOf: workflowFollowUps };
