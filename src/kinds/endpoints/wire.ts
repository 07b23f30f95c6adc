// Wire types of the endpoints that are no kind of their own: organizations, the reference reads
// (blueprints, execution details, subscriber preferences), environments, tenants and changes.
import type { Branding } from "../branding/wire.js";
import type { WirePreferenceSettings } from "../wire.js";
import type { Workflow } from "../workflow/wire.js";

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

/**
 * One operation of a change's diff. Real servers record `add`, `update` (with `oldVal`) and
 * `delete` at deep paths (`["triggers", 0, "variables", 1, "_id"]`); JSON-patch names
 * (`replace`, `remove`) are read as the same.
 */
export interface ChangeOp {
  op: string;
  path: (string | number)[];
  val?: unknown;
  oldVal?: unknown;
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

/** Extension: GET /v1/changes?promoted&page&limit. */
export interface ChangePage {
  data: Change[];
  totalCount: number;
  page: number;
  pageSize: number;
}
