// The emulator's data: one organization, and per environment (development, production) its
// topics, notification groups, workflows, tenants, overrides, blueprints, execution details and
// subscribers. Ids are 24 hex characters from a counter, so runs are repeatable.
import type {
  Blueprint,
  ExecutionDetail,
  NotificationGroup,
  Organization,
  SubscriberPreference,
  Topic,
  Workflow,
  WorkflowOverride,
} from "../api/types.js";

export type EnvironmentName = "development" | "production";

export interface Tenant {
  _id: string;
  identifier?: string;
  name?: string;
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
  nextId: number;
}

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

/** Indexes rebuilt lazily: the benchmark holds 10,000s of records. */
export class StoreIndex {
  private topicByKey: Map<string, Topic> | undefined;
  private overrideByPair: Map<string, WorkflowOverride> | undefined;
  private readonly store: EmulatorStore;

  constructor(store: EmulatorStore) {
    this.store = store;
  }

  topic(key: string): Topic | undefined {
    this.topicByKey ??= new Map(this.store.topics.map((t) => [t.key, t]));
    return this.topicByKey.get(key);
  }

  addTopic(topic: Topic): void {
    this.store.topics.push(topic);
    this.topicByKey?.set(topic.key, topic);
  }

  override(workflowId: string, tenantId: string): WorkflowOverride | undefined {
    this.overrideByPair ??= new Map(this.store.overrides.map((o) => [`${o._workflowId}/${o._tenantId}`, o]));
    return this.overrideByPair.get(`${workflowId}/${tenantId}`);
  }

  addOverride(override: WorkflowOverride): void {
    this.store.overrides.push(override);
    this.overrideByPair?.set(`${override._workflowId}/${override._tenantId}`, override);
  }

  invalidate(): void {
    this.topicByKey = undefined;
    this.overrideByPair = undefined;
  }
}
