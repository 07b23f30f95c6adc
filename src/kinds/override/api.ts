// Endpoints 9-11 (list, create, read workflow overrides) and the update extensions by id and by
// (workflow, tenant). The list comes in the spec's nested envelope or the real server's flat one;
// POST is create-only and answers 200 (spec) or 201 (real servers). Ids must be 24 hex.
import { NEVER_ID } from "../../api/capabilities.js";
import { expectArray, expectShape, isRecord, unwrap } from "../../api/envelope.js";
import { listAllFollowing } from "../../api/pagination.js";
import { checkId, numberOr, segment } from "../../api/request-checks.js";
import type { Requester, SendOptions } from "../../api/requester.js";
import type { RequestOptions } from "../../api/types.js";
import { type EndpointGroup, LIST_LIMIT, type ListBounds } from "../endpoint-group.js";
import type {
  CreateWorkflowOverrideBody,
  UpdateWorkflowOverrideBody,
  WorkflowOverride,
  WorkflowOverridePage,
} from "./wire.js";

// The fields an override must have for notiform to work with it.
const OVERRIDE = {
  _id: "string",
  _workflowId: "string",
  _tenantId: "string",
  active: "boolean",
  preferenceSettings: "object",
} as const;

export interface WorkflowOverrideEndpoints {
  /** 9 GET /v1/workflow-overrides (nested or flat envelope; `page` + `limit`); `urgent` (internal) lets a page chain jump the limiter's queue. */
  listWorkflowOverrides(
    query?: { page?: number; limit?: number },
    options?: SendOptions,
  ): Promise<WorkflowOverridePage>;
  /** 10 POST /v1/workflow-overrides (200 per spec, 201 on real servers) */
  createWorkflowOverride(
    body: CreateWorkflowOverrideBody,
    options?: RequestOptions,
  ): Promise<WorkflowOverride>;
  /** 11 GET /v1/workflow-overrides/{overrideId} */
  getWorkflowOverride(overrideId: string, options?: RequestOptions): Promise<WorkflowOverride>;
  /** Extension: PUT /v1/workflow-overrides/{overrideId}. */
  updateWorkflowOverride(
    overrideId: string,
    body: UpdateWorkflowOverrideBody,
    options?: RequestOptions,
  ): Promise<WorkflowOverride>;
  /** Extension: GET /v1/workflow-overrides/workflows/{workflowId}/tenants/{tenantId}. */
  getWorkflowOverrideByPair(
    workflowId: string,
    tenantId: string,
    options?: RequestOptions,
  ): Promise<WorkflowOverride>;
  /** Extension: PUT /v1/workflow-overrides/workflows/{workflowId}/tenants/{tenantId}. */
  updateWorkflowOverrideByPair(
    workflowId: string,
    tenantId: string,
    body: UpdateWorkflowOverrideBody,
    options?: RequestOptions,
  ): Promise<WorkflowOverride>;
  /** All workflow overrides, following `hasMore` (limit 100, the real cap). */
  /** `read`: pages 0.. when the caller has read them already (they are not read again). */
  listAllWorkflowOverrides(
    options?: RequestOptions & { read?: readonly { data: WorkflowOverride[]; hasMore: boolean }[] },
  ): Promise<WorkflowOverride[]>;
}

export type WorkflowOverrideExtension =
  | "updateWorkflowOverride"
  | "getWorkflowOverrideByPair"
  | "updateWorkflowOverrideByPair";

export const workflowOverrideApi: EndpointGroup<WorkflowOverrideEndpoints, WorkflowOverrideExtension> = {
  create: (requester, bounds) => createWorkflowOverrideEndpoints(requester, bounds),
  extensions: {
    updateWorkflowOverride: "write",
    getWorkflowOverrideByPair: (api, options) => api.getWorkflowOverrideByPair(NEVER_ID, NEVER_ID, options),
    updateWorkflowOverrideByPair: "write",
  },
};

function createWorkflowOverrideEndpoints(
  requester: Requester,
  bounds: ListBounds,
): WorkflowOverrideEndpoints {
  const api: WorkflowOverrideEndpoints = {
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
          path: `/v1/workflow-overrides/${segment("override id", overrideId)}`,
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

    listAllWorkflowOverrides: ({ read = [], ...options } = {}) =>
      listAllFollowing(
        async (page) => {
          // Each page waits on the one before: let it jump the queue of other lists' fan-outs.
          const result =
            read[page] ??
            (await api.listWorkflowOverrides({ page, limit: LIST_LIMIT }, { ...options, urgent: true }));
          return { items: result.data, hasMore: result.hasMore };
        },
        (override) => override._id,
        { endpoint: "listWorkflowOverrides", maxPages: bounds.maxPages, onPage: bounds.onPage },
      ),
  };
  return api;
}

/** Both must be internal 24-hex ids (the tenant's _id, not its identifier). */
function pairPath(workflowId: string, tenantId: string): string {
  checkId("workflowId", workflowId);
  checkId("tenantId", tenantId);
  return `/v1/workflow-overrides/workflows/${workflowId}/tenants/${tenantId}`;
}
