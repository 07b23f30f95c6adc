// Wire types of the Notification Management API (the spec's resources), plus the observed
// extensions real Novu servers serve beyond the spec. Server-only fields a real server adds
// (`__v`, `id`, `createdAt`, ...) may be present; code must not rely on them.
import type { Channel } from "../config/model.js";

export type WirePreferenceSettings = Record<Channel, boolean>;

export interface Topic {
  _id: string;
  _organizationId: string;
  _environmentId: string;
  key: string;
  name: string;
  subscribers: string[];
}

/** POST /v1/topics answers only `{_id, key}` on a real server (spec G4). */
export interface CreatedTopic {
  _id: string;
  key: string;
}

export interface TopicPage {
  data: Topic[];
  page: number;
  pageSize: number;
  totalCount: number;
}

export interface Branding {
  direction?: string;
  logo?: string;
  color?: string;
  fontColor?: string;
  contentBackground?: string;
  fontFamily?: string;
}

export interface PartnerConfiguration {
  projectIds: string[];
  /** A credential: never printed, logged, or written anywhere by notiform. */
  accessToken: string;
  configurationId: string;
  teamId?: string;
  partnerType: string;
}

export interface Organization {
  _id?: string;
  name: string;
  logo?: string;
  branding?: Branding;
  partnerConfigurations?: PartnerConfiguration[];
}

export interface CreateOrganizationBody {
  name: string;
  logo?: string;
  jobTitle?: string;
  domain?: string;
  productUseCases?: Record<string, boolean>;
}

export interface NotificationGroup {
  _id: string;
  name: string;
  _environmentId: string;
  _organizationId: string;
  _parentId?: string;
}

export interface WorkflowOverride {
  _id: string;
  _organizationId: string;
  _environmentId: string;
  _workflowId: string;
  _tenantId: string;
  active: boolean;
  preferenceSettings: WirePreferenceSettings;
  deleted: boolean;
  deletedAt?: string;
  deletedBy?: string;
  createdAt: string;
  updatedAt: string;
}

/** Endpoint 9, normalized: the client accepts the spec's nested and the real server's flat envelope. */
export interface WorkflowOverridePage {
  data: WorkflowOverride[];
  hasMore: boolean;
  page: number;
  pageSize: number;
}

export interface CreateWorkflowOverrideBody {
  workflowId: string;
  tenantId: string;
  active?: boolean;
  preferenceSettings?: Partial<WirePreferenceSettings>;
}

/** Extension: PUT /v1/workflow-overrides/{id}; channels are merged into the stored ones. */
export interface UpdateWorkflowOverrideBody {
  active?: boolean;
  preferenceSettings?: Partial<WirePreferenceSettings>;
}

export interface FilterChild {
  field: string;
  value: string;
  operator: string;
  on: string;
}

export interface Filter {
  isNegated: boolean;
  type: string;
  value: string;
  children: FilterChild[];
}

export interface StepMetadata {
  amount?: number;
  unit?: string;
  digestKey?: string;
  type?: string;
  backoff?: boolean;
  backoffAmount?: number;
  backoffUnit?: string;
  updateMode?: boolean;
}

export interface Step {
  _id?: string;
  uuid?: string;
  name?: string;
  _templateId?: string;
  active?: boolean;
  shouldStopOnFail?: boolean;
  template?: Record<string, unknown>;
  filters?: Filter[];
  _parentId?: Record<string, unknown> | string | null;
  metadata?: StepMetadata;
  replyCallback?: Record<string, unknown>;
}

export interface Trigger {
  _id?: string;
  type: string;
  identifier: string;
  variables: { name: string }[];
  subscriberVariables?: { name: string }[];
  reservedVariables?: { type: string; variables: { name: string }[] }[];
}

export interface Workflow {
  _id: string;
  name: string;
  description?: string;
  active: boolean;
  draft: boolean;
  preferenceSettings: WirePreferenceSettings;
  critical: boolean;
  tags: string[];
  steps: Step[];
  _organizationId: string;
  _creatorId: string;
  _environmentId: string;
  triggers: Trigger[];
  _notificationGroupId: string;
  _parentId?: string;
  deleted: boolean;
  deletedAt?: string;
  deletedBy?: string;
  notificationGroup?: NotificationGroup;
  data?: Record<string, unknown>;
  workflowIntegrationStatus?: Record<string, unknown>;
}

/** PUT /v1/workflows/{id}: every field optional (observed); `active` here is ignored by servers. */
export interface UpdateWorkflowBody {
  name?: string;
  description?: string;
  tags?: string[];
  critical?: boolean;
  preferenceSettings?: Partial<WirePreferenceSettings>;
  notificationGroupId?: string;
  identifier?: string;
  steps?: Step[];
  data?: Record<string, unknown>;
}

/** Extension: GET /v1/workflows?page&limit&query. */
export interface WorkflowPage {
  data: Workflow[];
  totalCount: number;
  page: number;
  pageSize: number;
}

export interface Blueprint extends Omit<Workflow, "triggers" | "steps" | "notificationGroup"> {
  steps: Record<string, unknown>[];
  triggers: Record<string, unknown>[];
  notificationGroup?: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  isBlueprint: boolean;
  blueprintId?: string;
}

export interface ExecutionDetail {
  _id: string;
  _organizationId: string;
  _jobId: string;
  _environmentId: string;
  _notificationId: string;
  _notificationTemplateId: string;
  _subscriberId: string;
  _messageId?: string;
  providerId?: string;
  transactionId: string;
  channel: string;
  detail: string;
  source: string;
  status: string;
  isTest: boolean;
  isRetry: boolean;
  createdAt: string;
}

export interface SubscriberPreference {
  template: { _id: string; name: string; critical: boolean; triggers: string[] };
  preference: { enabled: boolean; channels: Partial<WirePreferenceSettings> };
}

export type PreferenceLevel = "global" | "template";

/** Extension: GET /v1/environments/me, the environment a key reaches. */
export interface Environment {
  _id: string;
  name: string;
  identifier?: string;
  _organizationId?: string;
  /** Production's: the Development environment's `_id`. */
  _parentId?: string;
}

/** Extension: a tenant of one environment (overrides take its `_id`, not its identifier). */
export interface Tenant {
  _id: string;
  identifier: string;
  name?: string;
  /** Free-form; numbers stay numbers. A PATCH that sends it replaces it whole. */
  data?: Record<string, unknown>;
  _environmentId?: string;
  _organizationId?: string;
}

/** Extension: POST /v1/tenants. */
export interface CreateTenantBody {
  identifier: string;
  name: string;
  data?: Record<string, unknown>;
}

/** Extension: PATCH /v1/tenants/{identifier}; `data`, when sent, replaces the stored data whole. */
export interface UpdateTenantBody {
  name?: string;
  data?: Record<string, unknown>;
}

/** Extension: GET /v1/tenants?page&limit, a flat page that says only whether more follow. */
export interface TenantPage {
  data: Tenant[];
  hasMore: boolean;
  page: number;
  pageSize: number;
}

/** Extension: POST /v1/workflows (Development only). The identifier comes from the name. */
export interface CreateWorkflowBody {
  name: string;
  notificationGroupId: string;
  description?: string;
  active?: boolean;
  draft?: boolean;
  critical?: boolean;
  tags?: string[];
  preferenceSettings?: Partial<WirePreferenceSettings>;
  steps?: Step[];
  data?: Record<string, unknown>;
}

/** One json-diff operation of a change. */
export interface ChangeOp {
  op: string;
  path: (string | number)[];
  val?: unknown;
}

/** Extension: a change recorded in Development, pending (`enabled: false`) or promoted. */
export interface Change {
  _id: string;
  /** "NotificationTemplate" | "MessageTemplate" | "NotificationGroup" | ... */
  type: string;
  _entityId: string;
  /** A child change's parent (a step's message template under its workflow's change). */
  _parentId?: string | null;
  enabled: boolean;
  change: ChangeOp[];
  _environmentId?: string;
  templateId?: string;
  templateName?: string;
  createdAt?: string;
  updatedAt?: string;
}

/** A layout as the list extension shows it (what workflow content needs of it). */
export interface Layout {
  _id: string;
  identifier: string;
  name?: string;
  description?: string;
  content?: string;
  contentType?: string;
  variables?: LayoutVariable[];
  isDefault?: boolean;
  _parentId?: string;
  deleted?: boolean;
}

/** A layout variable as read back (a real server fills `defaultValue: ""` when none was sent). */
export interface LayoutVariable {
  name: string;
  type?: string;
  required?: boolean;
  defaultValue?: unknown;
  _id?: string;
}

/** Extension: POST /v1/layouts (answers `{_id}` only). */
export interface CreateLayoutBody {
  name: string;
  identifier: string;
  description?: string;
  content: string;
  contentType?: string;
  variables?: { name: string; type?: string; required?: boolean; defaultValue?: unknown }[];
  isDefault?: boolean;
}

/** Extension: PATCH /v1/layouts/{id}: the fields sent change (`variables` replaced whole). */
export type UpdateLayoutBody = Partial<CreateLayoutBody>;

export interface CreatedLayout {
  _id: string;
}

/** Extension: GET /v1/layouts?page&pageSize. */
export interface LayoutPage {
  data: Layout[];
  totalCount: number;
  page: number;
  pageSize: number;
}

/** Extension: GET /v1/changes?promoted&page&limit. */
export interface ChangePage {
  data: Change[];
  totalCount: number;
  page: number;
  pageSize: number;
}

/** Endpoints a real server serves that the spec does not list; each may be missing. */
export type Extension =
  | "listNotificationGroups"
  | "getNotificationGroup"
  | "getWorkflow"
  | "listWorkflows"
  | "updateWorkflowOverride"
  | "getWorkflowOverrideByPair"
  | "updateWorkflowOverrideByPair"
  | "getCurrentEnvironment"
  | "getTenant"
  | "listTenants"
  | "createWorkflow"
  | "listChanges"
  | "countChanges"
  | "applyChange"
  | "bulkApplyChanges"
  | "updateOrganizationBranding"
  | "listLayouts"
  | "getLayout"
  | "createLayout"
  | "updateLayout"
  | "setDefaultLayout"
  | "createTenant"
  | "updateTenant";

/** Whether the server serves an extension: known from a previous call, or not yet known. */
export type Capability = "supported" | "unsupported" | "unknown";

export interface RequestOptions {
  /** Abort the request (and its retries). */
  signal?: AbortSignal;
  /** Jump the limiter's queue: a page of a chain where each page waits on the one before. */
  urgent?: boolean;
}

/**
 * One typed method per spec endpoint (1-17), then the observed extensions, then the helpers
 * that page through whole lists. Every method resolves with the unwrapped `data`, or rejects
 * with an ApiError / NetworkError (src/api/errors.ts). Extension methods reject with code
 * API_UNSUPPORTED when the server lacks them, and the client remembers it.
 */
export interface NotificationApi {
  /** 1 GET /v1/topics */
  listTopics(
    query?: { page?: number; pageSize?: number; key?: string },
    options?: RequestOptions,
  ): Promise<TopicPage>;
  /** 2 GET /v1/topics/{topicKey} */
  getTopic(key: string, options?: RequestOptions): Promise<Topic>;
  /** 3 POST /v1/topics (not retried once sent: a lost response is resolved by the caller reading back) */
  createTopic(body: { key: string; name: string }, options?: RequestOptions): Promise<CreatedTopic>;
  /** 4 PATCH /v1/topics/{topicKey} */
  renameTopic(key: string, body: { name: string }, options?: RequestOptions): Promise<Topic>;
  /** 5 POST /v1/organizations */
  createOrganization(body: CreateOrganizationBody, options?: RequestOptions): Promise<Organization>;
  /** 6 GET /v1/organizations */
  listOrganizations(options?: RequestOptions): Promise<Organization[]>;
  /** 7 GET /v1/organizations/me */
  getCurrentOrganization(options?: RequestOptions): Promise<Organization>;
  /** 8 GET /v1/blueprints/{templateId} (no envelope per spec; wrapped on real servers: both accepted) */
  getBlueprint(templateId: string, options?: RequestOptions): Promise<Blueprint>;
  /** 9 GET /v1/workflow-overrides (nested or flat envelope; `page` + `limit`) */
  listWorkflowOverrides(
    query?: { page?: number; limit?: number },
    options?: RequestOptions,
  ): Promise<WorkflowOverridePage>;
  /** 10 POST /v1/workflow-overrides (200 per spec, 201 on real servers) */
  createWorkflowOverride(
    body: CreateWorkflowOverrideBody,
    options?: RequestOptions,
  ): Promise<WorkflowOverride>;
  /** 11 GET /v1/workflow-overrides/{overrideId} */
  getWorkflowOverride(overrideId: string, options?: RequestOptions): Promise<WorkflowOverride>;
  /** 12 PUT /v1/workflows/{workflowId} */
  updateWorkflow(workflowId: string, body: UpdateWorkflowBody, options?: RequestOptions): Promise<Workflow>;
  /** 13 PUT /v1/workflows/{workflowId}/status (not idempotent on real servers: 400 when unchanged) */
  updateWorkflowStatus(workflowId: string, active: boolean, options?: RequestOptions): Promise<Workflow>;
  /** 14 POST /v1/notification-groups (never retried once sent: the same name twice makes two groups) */
  createNotificationGroup(body: { name: string }, options?: RequestOptions): Promise<NotificationGroup>;
  /** 15 PATCH /v1/notification-groups/{id} */
  renameNotificationGroup(
    id: string,
    body: { name: string },
    options?: RequestOptions,
  ): Promise<NotificationGroup>;
  /** 16 GET /v1/execution-details */
  listExecutionDetails(
    query: { notificationId: string; subscriberId: string },
    options?: RequestOptions,
  ): Promise<ExecutionDetail[]>;
  /** 17 GET /v1/subscribers/{subscriberId}/preferences/{level} */
  getSubscriberPreferences(
    subscriberId: string,
    level: PreferenceLevel,
    options?: RequestOptions,
  ): Promise<SubscriberPreference[]>;

  // Observed extensions.
  listNotificationGroups(options?: RequestOptions): Promise<NotificationGroup[]>;
  getNotificationGroup(id: string, options?: RequestOptions): Promise<NotificationGroup>;
  getWorkflow(idOrIdentifier: string, options?: RequestOptions): Promise<Workflow>;
  listWorkflows(
    query?: { page?: number; limit?: number; query?: string },
    options?: RequestOptions,
  ): Promise<WorkflowPage>;
  updateWorkflowOverride(
    overrideId: string,
    body: UpdateWorkflowOverrideBody,
    options?: RequestOptions,
  ): Promise<WorkflowOverride>;
  getWorkflowOverrideByPair(
    workflowId: string,
    tenantId: string,
    options?: RequestOptions,
  ): Promise<WorkflowOverride>;
  updateWorkflowOverrideByPair(
    workflowId: string,
    tenantId: string,
    body: UpdateWorkflowOverrideBody,
    options?: RequestOptions,
  ): Promise<WorkflowOverride>;

  /** GET /v1/environments/me: which environment the key reaches. */
  getCurrentEnvironment(options?: RequestOptions): Promise<Environment>;
  /** GET /v1/tenants/{identifier} (a tenant of another environment is API_NOT_FOUND). */
  getTenant(identifier: string, options?: RequestOptions): Promise<Tenant>;
  /** GET /v1/tenants?page&limit (flat page, `hasMore`). */
  listTenants(query?: { page?: number; limit?: number }, options?: RequestOptions): Promise<TenantPage>;
  /** POST /v1/workflows, Development only (never retried once sent: a second POST makes a second workflow). */
  createWorkflow(body: CreateWorkflowBody, options?: RequestOptions): Promise<Workflow>;
  /** GET /v1/changes?promoted&page&limit (Development key: a Production key lists none). */
  listChanges(
    query?: { promoted?: boolean; page?: number; limit?: number },
    options?: RequestOptions,
  ): Promise<ChangePage>;
  /** GET /v1/changes/count: how many changes wait for promotion. */
  countChanges(options?: RequestOptions): Promise<number>;
  /** POST /v1/changes/{id}/apply: the changes applied (children first). Retried: applying twice converges. */
  applyChange(changeId: string, options?: RequestOptions): Promise<Change[]>;
  /** POST /v1/changes/bulk/apply: every change applied, flattened. Retried like applyChange. */
  bulkApplyChanges(changeIds: string[], options?: RequestOptions): Promise<Change[]>;
  /** PUT /v1/organizations/branding (`logo` must be an image URL). */
  updateOrganizationBranding(branding: Branding, options?: RequestOptions): Promise<Branding>;
  /** GET /v1/layouts?page&pageSize: the environment's layouts (workflow content names them). */
  listLayouts(query?: { page?: number; pageSize?: number }, options?: RequestOptions): Promise<LayoutPage>;
  /** GET /v1/layouts/{id}: the full layout of the key's environment. */
  getLayout(layoutId: string, options?: RequestOptions): Promise<Layout>;
  /** POST /v1/layouts: `{_id}` only (never retried once sent: a second POST is 409 or a second layout). */
  createLayout(body: CreateLayoutBody, options?: RequestOptions): Promise<CreatedLayout>;
  /** PATCH /v1/layouts/{id}: the full layout. */
  updateLayout(layoutId: string, body: UpdateLayoutBody, options?: RequestOptions): Promise<Layout>;
  /** POST /v1/layouts/{id}/default (204): the environment's default layout becomes this one. */
  setDefaultLayout(layoutId: string, options?: RequestOptions): Promise<void>;
  /** POST /v1/tenants, in the key's environment (never retried once sent). */
  createTenant(body: CreateTenantBody, options?: RequestOptions): Promise<Tenant>;
  /** PATCH /v1/tenants/{identifier}; `data`, when sent, replaces the stored data whole. */
  updateTenant(identifier: string, body: UpdateTenantBody, options?: RequestOptions): Promise<Tenant>;

  /** What is known of an extension so far. */
  capability(extension: Extension): Capability;
  /**
   * Find out with reads only whether the server serves an extension (a GET of an id that cannot
   * exist: "Cannot GET" 404 means missing, a record 404 means present). Write extensions are
   * never probed: true unless an earlier answer showed the route missing.
   */
  probe(extension: Extension, options?: RequestOptions): Promise<boolean>;

  // Whole-list helpers: every item exactly once.
  /** All topics: first page, then the remaining pages concurrently (page size 10, the real cap). */
  /** `first`: page 0 when the caller has read it already (it is not read again). */
  listAllTopics(options?: RequestOptions & { first?: TopicPage }): Promise<Topic[]>;
  /** All workflow overrides, following `hasMore` (limit 100, the real cap). */
  /** `read`: pages 0.. when the caller has read them already (they are not read again). */
  listAllWorkflowOverrides(
    options?: RequestOptions & { read?: readonly { data: WorkflowOverride[]; hasMore: boolean }[] },
  ): Promise<WorkflowOverride[]>;
  /** All workflows through the list extension (API_UNSUPPORTED when missing). */
  /** `first`: page 0 when the caller has read it already (it is not read again). */
  listAllWorkflows(options?: RequestOptions & { first?: WorkflowPage }): Promise<Workflow[]>;
  /** All tenants of the key's environment, following `hasMore` (limit 100; bounded). */
  listAllTenants(options?: RequestOptions): Promise<Tenant[]>;
  /** All layouts of the key's environment (API_UNSUPPORTED when missing). */
  listAllLayouts(options?: RequestOptions): Promise<Layout[]>;
  /** All changes, pending (`promoted: false`, the default) or promoted. */
  listAllChanges(query?: { promoted?: boolean }, options?: RequestOptions): Promise<Change[]>;
}
