// Workflows on the wire (spec endpoints 12-13 and the read and create extensions).
import type { NotificationGroup } from "../notification-group/wire.js";
import type { WirePreferenceSettings } from "../wire.js";

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
  /** Required: a real server refuses a create without the list (CreateWorkflowRequestDto). */
  steps: Step[];
  data?: Record<string, unknown>;
}
