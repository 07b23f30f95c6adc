// The emulator's data: one organization, and per environment (development, production) its
// topics, notification groups, workflows, tenants, overrides, blueprints, execution details and
// subscribers. Ids are 24 hex characters from a counter, so runs are repeatable.

import type { Branding } from "../kinds/branding/wire.js";
import type {
  Blueprint,
  ExecutionDetail,
  Organization,
  SubscriberPreference,
} from "../kinds/endpoints/wire.js";
import type { NotificationGroup } from "../kinds/notification-group/wire.js";
import type { WorkflowOverride } from "../kinds/override/wire.js";
import type { Topic } from "../kinds/topic/wire.js";
import type { Workflow } from "../kinds/workflow/wire.js";

export type EnvironmentName = "development" | "production";

export interface Tenant {
  _id: string;
  identifier?: string;
  name?: string;
  _environmentId?: string;
  _organizationId?: string;
  createdAt?: string;
  updatedAt?: string;
  /** Free-form; a PATCH that sends `data` replaces it whole, like a real server. */
  data?: Record<string, unknown>;
}

/** One variable of a layout; a real server reads back `""` for one sent without defaultValue. */
export interface LayoutVariable {
  name: string;
  type: string;
  required: boolean;
  defaultValue: unknown;
  _id: string;
}

/** An email layout as a real server stores it (soft-deleted: `deleted: true` stays for promotion). */
export interface Layout {
  _id: string;
  _environmentId: string;
  _organizationId: string;
  _creatorId: string;
  _parentId?: string;
  name: string;
  identifier: string;
  description: string;
  variables: LayoutVariable[];
  content: string;
  contentType: string;
  isDefault: boolean;
  channel: "email";
  deleted: boolean;
  createdAt: string;
  updatedAt: string;
}

/** One json-diff operation of a change, as a real server lists them (`val` absent on remove). */
/**
 * One op of a change's diff, as a real server records it (change-diff.ts). Data files written
 * before held `replace` and `remove` with top-level paths; they still load and apply.
 */
export interface ChangeOp {
  op: "add" | "update" | "delete" | "replace" | "remove";
  path: (string | number)[];
  val?: unknown;
  oldVal?: unknown;
}

export type ChangeType =
  | "NotificationTemplate"
  | "MessageTemplate"
  | "NotificationGroup"
  | "Layout"
  | "DefaultLayout";

/**
 * A pending (enabled: false) or promoted (enabled: true) change of a Development record. A
 * MessageTemplate change is the child of its workflow's change (`_parentId`) and is applied with it.
 */
export interface Change {
  _id: string;
  type: ChangeType;
  _entityId: string;
  _parentId?: string;
  enabled: boolean;
  change: ChangeOp[];
  _environmentId: string;
  _organizationId: string;
  _creatorId: string;
  createdAt: string;
  updatedAt: string;
}

export interface Subscriber {
  subscriberId: string;
  preferences: SubscriberPreference[];
}

export interface EmulatorStore {
  environment: EnvironmentName;
  environmentId: string;
  topics: Topic[];
  notificationGroups: NotificationGroup[];
  workflows: Workflow[];
  tenants: Tenant[];
  /** Seeded (layout-records.ts); absent only in data files older than layouts. */
  layouts?: Layout[];
  overrides: WorkflowOverride[];
  blueprints: Blueprint[];
  executionDetails: ExecutionDetail[];
  subscribers: Subscriber[];
}

export interface EmulatorData {
  /** The spec's fields, plus what a real server adds (apiServiceLevel, productUseCases, ...). */
  organization: Organization & { _id: string } & Record<string, unknown>;
  /** key -> environment */
  apiKeys: Record<string, EnvironmentName>;
  environments: Record<EnvironmentName, EmulatorStore>;
  /** Extra organizations created with POST /v1/organizations. */
  createdOrganizations: (Organization & { _id: string })[];
  /** Changes recorded by Development writes (promotion); absent in data files older than them. */
  changes: Change[];
  /** Set by PUT /v1/organizations/branding; kept apart from the seed's organization so the data file may hold it. */
  branding?: Branding;
  nextId: number;
}

/** The user every record is made by. */
export const CREATOR_ID = "64f1000000000000000000cc";

export function nextId(data: EmulatorData): string {
  data.nextId += 1;
  return `e0${data.nextId.toString(16).padStart(22, "0")}`;
}

export function emptyStore(environment: EnvironmentName, environmentId: string): EmulatorStore {
  return {
    environment,
    environmentId,
    topics: [],
    notificationGroups: [],
    workflows: [],
    tenants: [],
    overrides: [],
    blueprints: [],
    executionDetails: [],
    subscribers: [],
  };
}

/**
 * Lookups by topic key and by (workflow, tenant), built lazily (the benchmark holds 10,000s of
 * records) and rebuilt when a list's length changed behind the index's back (a test adding
 * records through the handle's store()).
 */
export class StoreIndex {
  private topicByKey: Map<string, Topic> | undefined;
  private topicCount = -1;
  private overrideByPair: Map<string, WorkflowOverride> | undefined;
  private overrideCount = -1;
  private readonly store: EmulatorStore;

  constructor(store: EmulatorStore) {
    this.store = store;
  }

  topic(key: string): Topic | undefined {
    if (this.topicByKey === undefined || this.topicCount !== this.store.topics.length) {
      this.topicByKey = new Map(this.store.topics.map((t) => [t.key, t]));
      this.topicCount = this.store.topics.length;
    }
    return this.topicByKey.get(key);
  }

  addTopic(topic: Topic): void {
    this.store.topics.push(topic);
    this.topicByKey?.set(topic.key, topic);
    if (this.topicByKey !== undefined) this.topicCount = this.store.topics.length;
  }

  override(workflowId: string, tenantId: string): WorkflowOverride | undefined {
    if (this.overrideByPair === undefined || this.overrideCount !== this.store.overrides.length) {
      this.overrideByPair = new Map(this.store.overrides.map((o) => [pairOf(o._workflowId, o._tenantId), o]));
      this.overrideCount = this.store.overrides.length;
    }
    return this.overrideByPair.get(pairOf(workflowId, tenantId));
  }

  addOverride(override: WorkflowOverride): void {
    this.store.overrides.push(override);
    this.overrideByPair?.set(pairOf(override._workflowId, override._tenantId), override);
    if (this.overrideByPair !== undefined) this.overrideCount = this.store.overrides.length;
  }

  invalidate(): void {
    this.topicByKey = undefined;
    this.overrideByPair = undefined;
  }
}

const pairOf = (workflowId: string, tenantId: string) => `${workflowId}/${tenantId}`;
