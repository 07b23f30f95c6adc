// Endpoints 12-13 (update a workflow, set its status), the read extensions GET
// /v1/workflows/{idOrIdentifier} and GET /v1/workflows (paged), and the create extension POST
// /v1/workflows (Development only; never retried once sent: a second POST makes a second
// workflow with "-2" appended to its identifier, so a lost answer is resolved by reading the
// identifier back). The status call is not idempotent on real servers (400 when unchanged):
// see isUnchangedStatusError; it is never retried on that 400.
import { countedPage, expectShape, unwrap, WORKFLOW } from "../../api/envelope.js";
import { checkId, checkName, invalidRequest, segment } from "../../api/request-checks.js";
import type { Requester } from "../../api/requester.js";
import type { NotificationApi, Workflow, WorkflowPage } from "../../api/types.js";

export type WorkflowEndpoints = Pick<
  NotificationApi,
  "updateWorkflow" | "updateWorkflowStatus" | "getWorkflow" | "listWorkflows" | "createWorkflow"
>;

export function createWorkflowEndpoints(requester: Requester): WorkflowEndpoints {
  return {
    async updateWorkflow(workflowId, body, options = {}): Promise<Workflow> {
      checkId("workflow id", workflowId);
      // Real servers answer an empty body with 400 "No properties found for update".
      if (Object.values(body).every((value) => value === undefined)) {
        throw invalidRequest("a workflow update needs at least one field");
      }
      return requester.read(
        { endpoint: "updateWorkflow", method: "PUT", path: `/v1/workflows/${workflowId}`, body },
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
          path: `/v1/workflows/${workflowId}/status`,
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
  };
}
