// The HTTP request each workflow operation sends (the plan shows it; apply sends exactly it).
import { type PlannedRequest, pathSegment } from "../operations.js";
import type { WorkflowOperation } from "./types.js";

export function workflowRequest(op: WorkflowOperation): PlannedRequest {
  switch (op.type) {
    case "workflow.create": {
      const request: PlannedRequest = { method: "POST", path: "/v1/workflows", body: { ...op.body } };
      if (op.groupFromAction !== undefined) {
        request.body.notificationGroupId = `<id of ${op.groupFromAction}>`;
        request.refs = [{ field: "notificationGroupId", action: op.groupFromAction }];
      }
      return request;
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
      return request;
    }
    case "workflow.setStatus":
      return {
        method: "PUT",
        path: `/v1/workflows/${pathSegment(op.workflowId)}/status`,
        body: { active: op.active },
      };
  }
}
