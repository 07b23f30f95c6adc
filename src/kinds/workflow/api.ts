// Endpoints 12-13 (update a workflow, set its status), the read extensions GET
// /v1/workflows/{idOrIdentifier} and GET /v1/workflows (paged), and the create extension POST
// /v1/workflows (Development only; never retried once sent: a second POST makes a second
// workflow with "-2" appended to its identifier, so a lost answer is resolved by reading the
// identifier back). The status call is not idempotent on real servers (400 when unchanged):
// see isUnchangedStatusError below; it is never retried on that 400.
import { NEVER_ID } from "../../api/capabilities.js";
import { countedPage, expectShape, unwrap } from "../../api/envelope.js";
import { ApiError } from "../../api/errors.js";
import { listAllPaged } from "../../api/pagination.js";
import { checkId, checkName, invalidRequest, segment } from "../../api/request-checks.js";
import type { Requester } from "../../api/requester.js";
import type { RequestOptions } from "../../api/types.js";
import { type EndpointGroup, LIST_LIMIT, type ListBounds } from "../endpoint-group.js";
import type { CreateWorkflowBody, UpdateWorkflowBody, Workflow, WorkflowPage } from "./wire.js";

// The fields a workflow must have for notiform to work with it.
const WORKFLOW = { _id: "string", name: "string", active: "boolean" } as const;

export interface WorkflowEndpoints {
  /** 12 PUT /v1/workflows/{workflowId} */
  updateWorkflow(workflowId: string, body: UpdateWorkflowBody, options?: RequestOptions): Promise<Workflow>;
  /** 13 PUT /v1/workflows/{workflowId}/status (not idempotent on real servers: 400 when unchanged) */
  updateWorkflowStatus(workflowId: string, active: boolean, options?: RequestOptions): Promise<Workflow>;
  /** Extension: GET /v1/workflows/{idOrIdentifier}. */
  getWorkflow(idOrIdentifier: string, options?: RequestOptions): Promise<Workflow>;
  /** Extension: GET /v1/workflows?page&limit&query. */
  listWorkflows(
    query?: { page?: number; limit?: number; query?: string },
    options?: RequestOptions,
  ): Promise<WorkflowPage>;
  /** POST /v1/workflows, Development only (never retried once sent: a second POST makes a second workflow). */
  createWorkflow(body: CreateWorkflowBody, options?: RequestOptions): Promise<Workflow>;
  /** All workflows through the list extension (API_UNSUPPORTED when missing). */
  /** `first`: page 0 when the caller has read it already (it is not read again). */
  listAllWorkflows(options?: RequestOptions & { first?: WorkflowPage }): Promise<Workflow[]>;
}

export type WorkflowExtension = "getWorkflow" | "listWorkflows" | "createWorkflow";

export const workflowApi: EndpointGroup<WorkflowEndpoints, WorkflowExtension> = {
  create: (requester, bounds) => createWorkflowEndpoints(requester, bounds),
  extensions: {
    getWorkflow: (api, options) => api.getWorkflow(NEVER_ID, options),
    listWorkflows: (api, options) => api.listWorkflows({ page: 0, limit: 1 }, options),
    createWorkflow: "write",
  },
};

/**
 * PUT /v1/workflows/{id}/status answered 400 because the workflow already has that status (real
 * servers refuse an unchanged status). Structural: the status endpoint, 400, and not a body
 * validation failure (those come as an array of messages). The client validates the id shape
 * before sending, so a well-formed request's plain 400 can only mean "already so".
 */
export function isUnchangedStatusError(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    error.endpoint === "updateWorkflowStatus" &&
    error.status === 400 &&
    !error.validation
  );
}

function createWorkflowEndpoints(requester: Requester, bounds: ListBounds): WorkflowEndpoints {
  const api: WorkflowEndpoints = {
    async updateWorkflow(workflowId, body, options = {}): Promise<Workflow> {
      checkId("workflow id", workflowId);
      // Real servers answer an empty body with 400 "No properties found for update".
      if (Object.values(body).every((value) => value === undefined)) {
        throw invalidRequest("a workflow update needs at least one field");
      }
      return requester.read(
        {
          endpoint: "updateWorkflow",
          method: "PUT",
          path: `/v1/workflows/${segment("workflow id", workflowId)}`,
          body,
        },
        options,
        ({ json, ctx }) => {
          return expectShape<Workflow>(unwrap(json, ctx), WORKFLOW, ctx, "data");
        },
      );
    },

    async updateWorkflowStatus(workflowId, active, options = {}): Promise<Workflow> {
      checkId("workflow id", workflowId);
      if (typeof active !== "boolean") throw invalidRequest("a workflow status must be true or false");
      return requester.read(
        {
          endpoint: "updateWorkflowStatus",
          method: "PUT",
          path: `/v1/workflows/${segment("workflow id", workflowId)}/status`,
          body: { active },
        },
        options,
        ({ json, ctx }) => {
          return expectShape<Workflow>(unwrap(json, ctx), WORKFLOW, ctx, "data");
        },
      );
    },

    async getWorkflow(idOrIdentifier, options = {}): Promise<Workflow> {
      return requester.read(
        {
          endpoint: "getWorkflow",
          extension: "getWorkflow",
          method: "GET",
          path: `/v1/workflows/${segment("workflow id or identifier", idOrIdentifier)}`,
        },
        options,
        ({ json, ctx }) => {
          return expectShape<Workflow>(unwrap(json, ctx), WORKFLOW, ctx, "data");
        },
      );
    },

    async createWorkflow(body, options = {}): Promise<Workflow> {
      checkName("workflow name", body.name);
      checkId("notificationGroupId", body.notificationGroupId);
      return requester.read(
        {
          endpoint: "createWorkflow",
          extension: "createWorkflow",
          method: "POST",
          path: "/v1/workflows",
          body,
        },
        options,
        ({ json, ctx }) => {
          return expectShape<Workflow>(unwrap(json, ctx), WORKFLOW, ctx, "data");
        },
      );
    },

    async listWorkflows(query = {}, options = {}): Promise<WorkflowPage> {
      return requester.read(
        {
          endpoint: "listWorkflows",
          extension: "listWorkflows",
          method: "GET",
          path: "/v1/workflows",
          query,
        },
        options,
        ({ json, ctx }) =>
          countedPage<Workflow>(json, WORKFLOW, ctx, { page: query.page ?? 0, pageSize: query.limit ?? 10 }),
      );
    },

    listAllWorkflows: ({ first, ...options } = {}) =>
      listAllPaged(
        async (page) => {
          const result =
            page === 0 && first !== undefined
              ? first
              : await api.listWorkflows({ page, limit: LIST_LIMIT }, options);
          return { items: result.data, totalCount: result.totalCount, pageSize: result.pageSize };
        },
        (workflow) => workflow._id,
        { endpoint: "listWorkflows", maxPages: bounds.maxPages, lanes: bounds.lanes, onPage: bounds.onPage },
      ),
  };
  return api;
}
