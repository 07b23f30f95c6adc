// The one small interface every resource kind implements, and the shapes the planner works on.
// A kind module knows its identity, how config and API values map onto one canonical flat
// field model, and which requests create or update it. It never does I/O here: live values
// arrive in a LiveSnapshot read beforehand (src/resources/read-live.ts).

import type { NotificationApi, NotificationGroup, Topic, Workflow, WorkflowOverride } from "../api/types.js";
import type { DesiredState, Source } from "../config/model.js";
import type {
  FieldChange,
  Kind,
  PlanAction,
  PlannedRequest,
  PlanWarning,
  UnmanagedResource,
} from "../plan/model.js";
import type { StateFile } from "../state/model.js";
import type { JsonObject } from "./canonical.js";

/** Everything read from the server for one plan. `undefined` collections could not be read. */
export interface LiveSnapshot {
  organization: { id?: string; name: string };
  topics: Map<string, Topic>;
  /** Keyed by `${workflowId}:${tenantId}`. */
  overrides: Map<string, WorkflowOverride>;
  /** Keyed by workflow id; undefined when the server has no workflow read extension. */
  workflows: Map<string, Workflow> | undefined;
  /** undefined when the server has no notification-group list extension. */
  notificationGroups: NotificationGroup[] | undefined;
  /** Whether the server serves PUT /v1/workflow-overrides/{id} (observed extension). */
  canUpdateOverrides: boolean;
}

/** One resource the config asks for, in canonical form. */
export interface DesiredItem {
  key: string;
  /** Managed fields only, flat ("preferenceSettings.email"), defaults filled. */
  fields: JsonObject;
  source: Source;
  /** Action ids this resource needs first, when they are part of the plan. */
  dependsOn: string[];
  /** Kind-specific server identity (a workflow's id; an override's workflowId and tenantId). */
  ids: Record<string, string>;
}

/** What notiform knows of the live resource. */
export interface LiveItem {
  origin: "api" | "state";
  serverId?: string;
  fields: JsonObject;
  /** Fields whose live value is known; undefined = all of `fields`' kind. */
  knownFields?: string[];
  /** Digest of the live object the plan was computed from. */
  digest: string;
}

/** Facts shared by every kind while planning. */
export interface PlanContext {
  desired: DesiredState;
  live: LiveSnapshot;
  state: StateFile;
  /** Notification group key -> server id (state record or unique-name match). */
  groupIds: ReadonlyMap<string, string>;
  /** Server group id -> config key, for showing a workflow's group by key. */
  groupKeys: ReadonlyMap<string, string>;
  warnings: PlanWarning[];
}

export type LiveLookup =
  | { status: "found"; item: LiveItem }
  | { status: "absent" }
  | { status: "unknown"; reason: string };

export type RequestsResult = { requests: PlannedRequest[] } | { notApplicable: string };

export interface ResourceModule {
  kind: Kind;
  /** Human label: "topic", "notification group". */
  label: string;
  desiredItems(desired: DesiredState): DesiredItem[];
  lookupLive(item: DesiredItem, context: PlanContext): LiveLookup;
  /** Build exactly the requests apply will send for this change. */
  requestsFor(
    op: "create" | "update" | "unverified",
    item: DesiredItem,
    live: LiveItem | undefined,
    changes: FieldChange[],
    context: PlanContext,
  ): RequestsResult;
  unmanaged(context: PlanContext, managedKeys: ReadonlySet<string>): UnmanagedResource[];
}

/** What executing one request needs besides the request itself. */
export interface ExecuteContext {
  client: NotificationApi;
  /** Server group id -> config key, including groups created earlier in this apply. */
  groupKeys: ReadonlyMap<string, string>;
  signal?: AbortSignal;
}

/** A change to the state file that a successful write implies. */
export type StateChange =
  | { section: "notificationGroups"; key: string; id: string; name: string }
  | { section: "workflows"; id: string; key: string; values: JsonObject };

export interface ExecuteResult {
  /** The server id of the resource (the created id for a create). */
  serverId?: string;
  /** Canonical fields the server reports after the write (for verification). */
  fields?: JsonObject;
  stateChange?: StateChange;
  /** Set when the write turned out to be already done (a lost response read back, an unchanged status). */
  note?: string;
}

/** Executing plan actions: the apply side of a kind, kept beside its planning side. */
export interface ResourceExecutor {
  /** Send one planned request with the typed client method it corresponds to. */
  execute(action: PlanAction, request: PlannedRequest, context: ExecuteContext): Promise<ExecuteResult>;
  /**
   * Re-read the live object a saved plan's action was computed from into `snapshot`, so the
   * action can be planned again and compared (apply of a saved plan).
   */
  reread(action: PlanAction, snapshot: LiveSnapshot, context: RereadContext): Promise<void>;
}

export interface RereadContext {
  client: NotificationApi;
  /** Every override, listed at most once per apply and shared across actions. */
  listOverrides(): Promise<WorkflowOverride[]>;
}

export type ResourceRegistry = { [K in Kind]: ResourceModule & { kind: K } };
