// The typed client: one method per spec endpoint (1-17), the observed extensions, and the
// whole-list helpers. Every method sends through the one Transport and returns the unwrapped,
// shape-checked `data`. Requests the server would answer with a 500 (a topic key with a space,
// an empty name, an id that is not 24 hex) are refused here, before sending.
import { NotiformError } from "../errors.js";
import { Capabilities, NEVER_ID } from "./capabilities.js";
import {
  CREATED_TOPIC,
  expectArray,
  expectShape,
  fail,
  GROUP,
  isRecord,
  ORGANIZATION,
  OVERRIDE,
  type ResponseContext,
  TOPIC,
  unwrap,
  WORKFLOW,
} from "./envelope.js";
import { ApiError } from "./errors.js";
import { listAllPaged } from "./pagination.js";
import type { Call, Transport } from "./transport.js";
import type {
  Blueprint,
  Capability,
  CreatedTopic,
  CreateOrganizationBody,
  CreateWorkflowOverrideBody,
  ExecutionDetail,
  Extension,
  NotificationApi,
  NotificationGroup,
  Organization,
  PreferenceLevel,
  RequestOptions,
  SubscriberPreference,
  Topic,
  TopicPage,
  UpdateWorkflowBody,
  UpdateWorkflowOverrideBody,
  Workflow,
  WorkflowOverride,
  WorkflowOverridePage,
  WorkflowPage,
} from "./types.js";

const TOPIC_KEY = /^[A-Za-z0-9_.:-]+$/;
const OBJECT_ID = /^[0-9a-f]{24}$/i;
/** Real servers refuse topic pages above 10 and override/workflow pages above 100. */
export const TOPIC_PAGE_SIZE = 10;
export const LIST_LIMIT = 100;

export class Client implements NotificationApi {
  private readonly transport: Transport;
  private readonly capabilities = new Capabilities();

  constructor(transport: Transport) {
    this.transport = transport;
  }

  // 1-4 topics ------------------------------------------------------------------------------
  async listTopics(
    query: { page?: number; pageSize?: number; key?: string } = {},
    options: RequestOptions = {},
  ): Promise<TopicPage> {
    const { json, ctx } = await this.send(
      { endpoint: "listTopics", method: "GET", path: "/v1/topics", query },
      options,
    );
    const page = expectShape<TopicPage>(json, { data: "array", totalCount: "number" }, ctx, "response");
    expectArray<Topic>(page.data, TOPIC, ctx, "data");
    return {
      data: page.data,
      page: num(page.page, query.page ?? 0),
      pageSize: num(page.pageSize, query.pageSize ?? TOPIC_PAGE_SIZE),
      totalCount: page.totalCount,
    };
  }

  async getTopic(key: string, options: RequestOptions = {}): Promise<Topic> {
    const { json, ctx } = await this.send(
      { endpoint: "getTopic", method: "GET", path: `/v1/topics/${enc(key)}` },
      options,
    );
    return expectShape<Topic>(unwrap(json, ctx), TOPIC, ctx, "data");
  }

  async createTopic(
    body: { key: string; name: string },
    options: RequestOptions = {},
  ): Promise<CreatedTopic> {
    checkTopicKey(body.key);
    checkName("topic name", body.name);
    const { json, ctx } = await this.send(
      { endpoint: "createTopic", method: "POST", path: "/v1/topics", body },
      options,
    );
    return expectShape<CreatedTopic>(unwrap(json, ctx), CREATED_TOPIC, ctx, "data");
  }

  async renameTopic(key: string, body: { name: string }, options: RequestOptions = {}): Promise<Topic> {
    checkName("topic name", body.name);
    const { json, ctx } = await this.send(
      { endpoint: "renameTopic", method: "PATCH", path: `/v1/topics/${enc(key)}`, body },
      options,
    );
    return expectShape<Topic>(unwrap(json, ctx), TOPIC, ctx, "data");
  }

  // 5-7 organizations -------------------------------------------------------------------------
  async createOrganization(
    body: CreateOrganizationBody,
    options: RequestOptions = {},
  ): Promise<Organization> {
    checkName("organization name", body.name);
    const { json, ctx } = await this.send(
      { endpoint: "createOrganization", method: "POST", path: "/v1/organizations", body },
      options,
    );
    return expectShape<Organization>(unwrap(json, ctx), ORGANIZATION, ctx, "data");
  }

  async listOrganizations(options: RequestOptions = {}): Promise<Organization[]> {
    const { json, ctx } = await this.send(
      { endpoint: "listOrganizations", method: "GET", path: "/v1/organizations" },
      options,
    );
    return expectArray<Organization>(unwrap(json, ctx), ORGANIZATION, ctx, "data");
  }

  async getCurrentOrganization(options: RequestOptions = {}): Promise<Organization> {
    const { json, ctx } = await this.send(
      { endpoint: "getCurrentOrganization", method: "GET", path: "/v1/organizations/me" },
      options,
    );
    return expectShape<Organization>(unwrap(json, ctx), ORGANIZATION, ctx, "data");
  }

  // 8 blueprints: the spec returns the object bare, real servers wrap it --------------------------
  async getBlueprint(templateId: string, options: RequestOptions = {}): Promise<Blueprint> {
    const { json, ctx } = await this.send(
      { endpoint: "getBlueprint", method: "GET", path: `/v1/blueprints/${enc(templateId)}` },
      options,
    );
    const body = isRecord(json) && isRecord(json.data) && !("_id" in json) ? json.data : json;
    return expectShape<Blueprint>(body, { _id: "string", name: "string" }, ctx, "blueprint");
  }

  // 9-11 workflow overrides ------------------------------------------------------------------------
  async listWorkflowOverrides(
    query: { page?: number; limit?: number } = {},
    options: RequestOptions & { urgent?: boolean } = {},
  ): Promise<WorkflowOverridePage> {
    const { json, ctx } = await this.send(
      { endpoint: "listWorkflowOverrides", method: "GET", path: "/v1/workflow-overrides", query },
      options,
    );
    // Spec: {data: {hasMore, data, page, pageSize}}; real server: {data: [...], hasMore, page, pageSize}.
    const page = isRecord(json) && isRecord(json.data) ? json.data : json;
    const checked = expectShape<WorkflowOverridePage>(
      page,
      { data: "array", hasMore: "boolean" },
      ctx,
      "page",
    );
    expectArray<WorkflowOverride>(checked.data, OVERRIDE, ctx, "data");
    return {
      data: checked.data,
      hasMore: checked.hasMore,
      page: num(checked.page, query.page ?? 0),
      pageSize: num(checked.pageSize, query.limit ?? 10),
    };
  }

  async createWorkflowOverride(
    body: CreateWorkflowOverrideBody,
    options: RequestOptions = {},
  ): Promise<WorkflowOverride> {
    checkId("workflowId", body.workflowId);
    checkId("tenantId", body.tenantId);
    const { json, ctx } = await this.send(
      { endpoint: "createWorkflowOverride", method: "POST", path: "/v1/workflow-overrides", body },
      options,
    );
    return expectShape<WorkflowOverride>(unwrap(json, ctx), OVERRIDE, ctx, "data");
  }

  async getWorkflowOverride(overrideId: string, options: RequestOptions = {}): Promise<WorkflowOverride> {
    const { json, ctx } = await this.send(
      { endpoint: "getWorkflowOverride", method: "GET", path: `/v1/workflow-overrides/${enc(overrideId)}` },
      options,
    );
    return expectShape<WorkflowOverride>(unwrap(json, ctx), OVERRIDE, ctx, "data");
  }

  // 12-13 workflows -----------------------------------------------------------------------------
  async updateWorkflow(
    workflowId: string,
    body: UpdateWorkflowBody,
    options: RequestOptions = {},
  ): Promise<Workflow> {
    checkId("workflow id", workflowId);
    if (Object.keys(body).length === 0) throw invalid("a workflow update needs at least one field");
    const { json, ctx } = await this.send(
      { endpoint: "updateWorkflow", method: "PUT", path: `/v1/workflows/${workflowId}`, body },
      options,
    );
    return expectShape<Workflow>(unwrap(json, ctx), WORKFLOW, ctx, "data");
  }

  async updateWorkflowStatus(
    workflowId: string,
    active: boolean,
    options: RequestOptions = {},
  ): Promise<Workflow> {
    checkId("workflow id", workflowId);
    const { json, ctx } = await this.send(
      {
        endpoint: "updateWorkflowStatus",
        method: "PUT",
        path: `/v1/workflows/${workflowId}/status`,
        body: { active },
      },
      options,
    );
    return expectShape<Workflow>(unwrap(json, ctx), WORKFLOW, ctx, "data");
  }

  // 14-15 notification groups ---------------------------------------------------------------------
  async createNotificationGroup(
    body: { name: string },
    options: RequestOptions = {},
  ): Promise<NotificationGroup> {
    checkName("notification group name", body.name);
    const { json, ctx } = await this.send(
      { endpoint: "createNotificationGroup", method: "POST", path: "/v1/notification-groups", body },
      options,
    );
    return expectShape<NotificationGroup>(unwrap(json, ctx), GROUP, ctx, "data");
  }

  async renameNotificationGroup(
    id: string,
    body: { name: string },
    options: RequestOptions = {},
  ): Promise<NotificationGroup> {
    checkName("notification group name", body.name);
    const { json, ctx } = await this.send(
      {
        endpoint: "renameNotificationGroup",
        method: "PATCH",
        path: `/v1/notification-groups/${enc(id)}`,
        body,
      },
      options,
    );
    return expectShape<NotificationGroup>(unwrap(json, ctx), GROUP, ctx, "data");
  }

  // 16-17 execution details and subscriber preferences ---------------------------------------------
  async listExecutionDetails(
    query: { notificationId: string; subscriberId: string },
    options: RequestOptions = {},
  ): Promise<ExecutionDetail[]> {
    const { json, ctx } = await this.send(
      { endpoint: "listExecutionDetails", method: "GET", path: "/v1/execution-details", query },
      options,
    );
    return expectArray<ExecutionDetail>(unwrap(json, ctx), { _id: "string" }, ctx, "data");
  }

  async getSubscriberPreferences(
    subscriberId: string,
    level: PreferenceLevel,
    options: RequestOptions = {},
  ): Promise<SubscriberPreference[]> {
    const { json, ctx } = await this.send(
      {
        endpoint: "getSubscriberPreferences",
        method: "GET",
        path: `/v1/subscribers/${enc(subscriberId)}/preferences/${enc(level)}`,
      },
      options,
    );
    return expectArray<SubscriberPreference>(
      unwrap(json, ctx),
      { template: "object", preference: "object" },
      ctx,
      "data",
    );
  }

  // Observed extensions ------------------------------------------------------------------------
  listNotificationGroups(options: RequestOptions = {}): Promise<NotificationGroup[]> {
    return this.extension("listNotificationGroups", async () => {
      const { json, ctx } = await this.send(
        {
          endpoint: "listNotificationGroups",
          method: "GET",
          path: "/v1/notification-groups",
          extension: true,
        },
        options,
      );
      return expectArray<NotificationGroup>(unwrap(json, ctx), GROUP, ctx, "data");
    });
  }

  getNotificationGroup(id: string, options: RequestOptions = {}): Promise<NotificationGroup> {
    return this.extension("getNotificationGroup", async () => {
      const { json, ctx } = await this.send(
        {
          endpoint: "getNotificationGroup",
          method: "GET",
          path: `/v1/notification-groups/${enc(id)}`,
          extension: true,
        },
        options,
      );
      return expectShape<NotificationGroup>(unwrap(json, ctx), GROUP, ctx, "data");
    });
  }

  getWorkflow(idOrIdentifier: string, options: RequestOptions = {}): Promise<Workflow> {
    return this.extension("getWorkflow", async () => {
      const { json, ctx } = await this.send(
        {
          endpoint: "getWorkflow",
          method: "GET",
          path: `/v1/workflows/${enc(idOrIdentifier)}`,
          extension: true,
        },
        options,
      );
      return expectShape<Workflow>(unwrap(json, ctx), WORKFLOW, ctx, "data");
    });
  }

  listWorkflows(
    query: { page?: number; limit?: number; query?: string } = {},
    options: RequestOptions = {},
  ): Promise<WorkflowPage> {
    return this.extension("listWorkflows", async () => {
      const { json, ctx } = await this.send(
        { endpoint: "listWorkflows", method: "GET", path: "/v1/workflows", query, extension: true },
        options,
      );
      const page = expectShape<WorkflowPage>(json, { data: "array", totalCount: "number" }, ctx, "response");
      expectArray<Workflow>(page.data, WORKFLOW, ctx, "data");
      return {
        data: page.data,
        totalCount: page.totalCount,
        page: num(page.page, query.page ?? 0),
        pageSize: num(page.pageSize, query.limit ?? 10),
      };
    });
  }

  updateWorkflowOverride(
    overrideId: string,
    body: UpdateWorkflowOverrideBody,
    options: RequestOptions = {},
  ): Promise<WorkflowOverride> {
    return this.extension("updateWorkflowOverride", async () => {
      const { json, ctx } = await this.send(
        {
          endpoint: "updateWorkflowOverride",
          method: "PUT",
          path: `/v1/workflow-overrides/${enc(overrideId)}`,
          body,
          extension: true,
        },
        options,
      );
      return expectShape<WorkflowOverride>(unwrap(json, ctx), OVERRIDE, ctx, "data");
    });
  }

  getWorkflowOverrideByPair(
    workflowId: string,
    tenantId: string,
    options: RequestOptions = {},
  ): Promise<WorkflowOverride> {
    return this.extension("getWorkflowOverrideByPair", async () => {
      const { json, ctx } = await this.send(
        {
          endpoint: "getWorkflowOverrideByPair",
          method: "GET",
          path: pairPath(workflowId, tenantId),
          extension: true,
        },
        options,
      );
      return expectShape<WorkflowOverride>(unwrap(json, ctx), OVERRIDE, ctx, "data");
    });
  }

  updateWorkflowOverrideByPair(
    workflowId: string,
    tenantId: string,
    body: UpdateWorkflowOverrideBody,
    options: RequestOptions = {},
  ): Promise<WorkflowOverride> {
    return this.extension("updateWorkflowOverrideByPair", async () => {
      const { json, ctx } = await this.send(
        {
          endpoint: "updateWorkflowOverrideByPair",
          method: "PUT",
          path: pairPath(workflowId, tenantId),
          body,
          extension: true,
        },
        options,
      );
      return expectShape<WorkflowOverride>(unwrap(json, ctx), OVERRIDE, ctx, "data");
    });
  }

  capability(extension: Extension): Capability {
    return this.capabilities.get(extension);
  }

  /**
   * Whether the server serves an extension, found out with a request that can neither read nor
   * change a real record: it names an id that cannot exist (NEVER_ID). A missing route answers
   * "Cannot <METHOD> ..." (or 405/501); a present route answers 404/400 for the record.
   */
  async probe(extension: Extension, options: RequestOptions = {}): Promise<boolean> {
    const known = this.capabilities.get(extension);
    if (known !== "unknown") return known === "supported";
    const attempts: Record<Extension, () => Promise<unknown>> = {
      listNotificationGroups: () => this.listNotificationGroups(options),
      getNotificationGroup: () => this.getNotificationGroup(NEVER_ID, options),
      getWorkflow: () => this.getWorkflow(NEVER_ID, options),
      listWorkflows: () => this.listWorkflows({ page: 0, limit: 1 }, options),
      updateWorkflowOverride: () => this.updateWorkflowOverride(NEVER_ID, {}, options),
      getWorkflowOverrideByPair: () => this.getWorkflowOverrideByPair(NEVER_ID, NEVER_ID, options),
      updateWorkflowOverrideByPair: () => this.updateWorkflowOverrideByPair(NEVER_ID, NEVER_ID, {}, options),
    };
    try {
      await attempts[extension]();
    } catch (error) {
      if (error instanceof NotiformError && error.code === "API_UNSUPPORTED") return false;
      if (!(error instanceof ApiError && (error.status === 404 || error.status === 400))) throw error;
    }
    this.capabilities.set(extension, "supported");
    return true;
  }

  // Whole lists --------------------------------------------------------------------------------
  async listAllTopics(options: RequestOptions = {}): Promise<Topic[]> {
    return listAllPaged(
      async (page) => {
        const result = await this.listTopics({ page, pageSize: TOPIC_PAGE_SIZE }, options);
        return { items: result.data, totalCount: result.totalCount, pageSize: result.pageSize };
      },
      (topic) => topic._id,
    );
  }

  async listAllWorkflowOverrides(options: RequestOptions = {}): Promise<WorkflowOverride[]> {
    const seen = new Map<string, WorkflowOverride>();
    for (let page = 0; ; page += 1) {
      // Each page waits on the one before: let it jump the queue of the other lists' fan-outs.
      const result = await this.listWorkflowOverrides(
        { page, limit: LIST_LIMIT },
        { ...options, urgent: true },
      );
      for (const override of result.data) seen.set(override._id, override);
      if (!result.hasMore || result.data.length === 0) return [...seen.values()];
    }
  }

  async listAllWorkflows(options: RequestOptions = {}): Promise<Workflow[]> {
    return listAllPaged(
      async (page) => {
        const result = await this.listWorkflows({ page, limit: LIST_LIMIT }, options);
        return { items: result.data, totalCount: result.totalCount, pageSize: result.pageSize };
      },
      (workflow) => workflow._id,
    );
  }

  // ---------------------------------------------------------------------------------------------
  private async send(
    call: Omit<Call, "signal">,
    options: RequestOptions & { urgent?: boolean },
  ): Promise<{ json: unknown; ctx: ResponseContext }> {
    const reply = await this.transport.send({
      ...call,
      signal: options.signal,
      ...(options.urgent ? { urgent: true } : {}),
    });
    const ctx: ResponseContext = {
      method: call.method,
      path: call.path,
      endpoint: call.endpoint,
      status: reply.status,
    };
    if (reply.json === undefined) fail(ctx, "empty body");
    return { json: reply.json, ctx };
  }

  private extension<T>(extension: Extension, run: () => Promise<T>): Promise<T> {
    return this.capabilities.call(extension, run);
  }
}

function pairPath(workflowId: string, tenantId: string): string {
  return `/v1/workflow-overrides/workflows/${enc(workflowId)}/tenants/${enc(tenantId)}`;
}

function enc(segment: string): string {
  return encodeURIComponent(segment);
}

function num(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

function invalid(message: string): NotiformError {
  return new NotiformError("REQUEST_INVALID", message);
}

function checkTopicKey(key: string): void {
  if (!TOPIC_KEY.test(key)) {
    throw invalid(`topic key ${JSON.stringify(key)} may only hold letters, digits, "-", "_", "." and ":"`);
  }
}

function checkName(what: string, name: string): void {
  if (typeof name !== "string" || name.trim() === "") throw invalid(`${what} must not be empty`);
}

function checkId(what: string, id: string): void {
  if (!OBJECT_ID.test(id)) throw invalid(`${what} ${JSON.stringify(id)} is not a 24-character hex id`);
}
