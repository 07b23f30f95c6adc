// Endpoints 9-11 (list, create, read workflow overrides) and the update extensions by id and by
// (workflow, tenant). The list comes in the spec's nested envelope or the real server's flat one;
// POST is create-only and answers 200 (spec) or 201 (real servers). Ids must be 24 hex.
import { expectArray, expectShape, isRecord, OVERRIDE, unwrap } from "../../api/envelope.js";
import { checkId, numberOr, segment } from "../../api/request-checks.js";
import type { Requester, SendOptions } from "../../api/requester.js";
import type { NotificationApi, WorkflowOverride, WorkflowOverridePage } from "../../api/types.js";

export type WorkflowOverrideEndpoints = Pick<
  NotificationApi,
  | "createWorkflowOverride"
  | "getWorkflowOverride"
  | "updateWorkflowOverride"
  | "getWorkflowOverrideByPair"
  | "updateWorkflowOverrideByPair"
> & {
  /** Endpoint 9; `urgent` (internal) lets a page chain jump the limiter's queue. */
  listWorkflowOverrides(
    query?: { page?: number; limit?: number },
    options?: SendOptions,
  ): Promise<WorkflowOverridePage>;
};

export function createWorkflowOverrideEndpoints(requester: Requester): WorkflowOverrideEndpoints {
  return {
    async listWorkflowOverrides(query = {}, options = {}): Promise<WorkflowOverridePage> {
      return requester.read(
        {
          endpoint: "listWorkflowOverrides",
          method: "GET",
          path: "/v1/workflow-overrides",
          query: { page: query.page, limit: query.limit },
        },
        options,
        ({ json, ctx }) => {
          // Spec: {data: {hasMore, data, page, pageSize}}; real server: {data: [...], hasMore, page, pageSize}.
          const page = isRecord(json) && isRecord(json.data) ? json.data : json;
          const checked = expectShape<WorkflowOverridePage>(
            page,
            { data: "array", hasMore: "boolean" },
            ctx,
            isRecord(json) && isRecord(json.data) ? "data" : "response",
          );
          expectArray<WorkflowOverride>(checked.data, OVERRIDE, ctx, "data");
          return {
            data: checked.data,
            hasMore: checked.hasMore,
            page: numberOr(checked.page, query.page ?? 0),
            pageSize: numberOr(checked.pageSize, query.limit ?? 10),
          };
        },
      );
    },

    async createWorkflowOverride(body, options = {}): Promise<WorkflowOverride> {
      checkId("workflowId", body.workflowId);
      checkId("tenantId", body.tenantId);
      return requester.read(
        { endpoint: "createWorkflowOverride", method: "POST", path: "/v1/workflow-overrides", body },
        options,
        ({ json, ctx }) => {
          return expectShape<WorkflowOverride>(unwrap(json, ctx), OVERRIDE, ctx, "data");
        },
      );
    },

    async getWorkflowOverride(overrideId, options = {}): Promise<WorkflowOverride> {
      return requester.read(
        {
          endpoint: "getWorkflowOverride",
          method: "GET",
          path: `/v1/workflow-overrides/${segment("override id", overrideId)}`,
        },
        options,
        ({ json, ctx }) => {
          return expectShape<WorkflowOverride>(unwrap(json, ctx), OVERRIDE, ctx, "data");
        },
      );
    },

    async updateWorkflowOverride(overrideId, body, options = {}): Promise<WorkflowOverride> {
      checkId("override id", overrideId);
      return requester.read(
        {
          endpoint: "updateWorkflowOverride",
          extension: "updateWorkflowOverride",
          method: "PUT",
          path: `/v1/workflow-overrides/${overrideId}`,
          body,
        },
        options,
        ({ json, ctx }) => {
          return expectShape<WorkflowOverride>(unwrap(json, ctx), OVERRIDE, ctx, "data");
        },
      );
    },

    async getWorkflowOverrideByPair(workflowId, tenantId, options = {}): Promise<WorkflowOverride> {
      return requester.read(
        {
          endpoint: "getWorkflowOverrideByPair",
          extension: "getWorkflowOverrideByPair",
          method: "GET",
          path: pairPath(workflowId, tenantId),
        },
        options,
        ({ json, ctx }) => {
          return expectShape<WorkflowOverride>(unwrap(json, ctx), OVERRIDE, ctx, "data");
        },
      );
    },

    async updateWorkflowOverrideByPair(workflowId, tenantId, body, options = {}): Promise<WorkflowOverride> {
      return requester.read(
        {
          endpoint: "updateWorkflowOverrideByPair",
          extension: "updateWorkflowOverrideByPair",
          method: "PUT",
          path: pairPath(workflowId, tenantId),
          body,
        },
        options,
        ({ json, ctx }) => {
          return expectShape<WorkflowOverride>(unwrap(json, ctx), OVERRIDE, ctx, "data");
        },
      );
    },
  };
}

/** Both must be internal 24-hex ids (the tenant's _id, not its identifier). */
function pairPath(workflowId: string, tenantId: string): string {
  checkId("workflowId", workflowId);
  checkId("tenantId", tenantId);
  return `/v1/workflow-overrides/workflows/${workflowId}/tenants/${tenantId}`;
}
