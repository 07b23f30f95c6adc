// The HTTP request each workflow override operation sends (the plan shows it; apply sends exactly it).
import type { JsonObject } from "../../canonical.js";
import { type PlannedRequest, pathSegment } from "../operations.js";
import type { OverrideOperation } from "./types.js";

export function overrideRequest(op: OverrideOperation): PlannedRequest {
  switch (op.type) {
    case "override.create": {
      const request: PlannedRequest = {
        method: "POST",
        path: "/v1/workflow-overrides",
        body: {
          workflowId: op.workflowId,
          tenantId: op.tenantId,
          active: op.active,
          preferenceSettings: op.preferenceSettings,
        },
      };
      const refs: { field: string; action: string }[] = [];
      if (op.workflowFromAction !== undefined) {
        request.body.workflowId = `<id of ${op.workflowFromAction}>`;
        refs.push({ field: "workflowId", action: op.workflowFromAction });
      }
      if (op.tenantFromAction !== undefined) {
        request.body.tenantId = `<id of ${op.tenantFromAction}>`;
        refs.push({ field: "tenantId", action: op.tenantFromAction });
      }
      if (refs.length > 0) request.refs = refs;
      return request;
    }
    case "override.update": {
      const body: JsonObject = {};
      if (op.active !== undefined) body.active = op.active;
      if (op.preferenceSettings !== undefined) body.preferenceSettings = op.preferenceSettings;
      return { method: "PUT", path: `/v1/workflow-overrides/${pathSegment(op.overrideId)}`, body };
    }
  }
}
