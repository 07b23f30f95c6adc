// The plan: a versioned, serializable value. `plan` renders it, `--out` saves it, and `apply`
// executes it and nothing else. Shapes here are mirrored by schemas/plan.schema.json (a test
// keeps the two in step); bump PLAN_FORMAT_VERSION on any incompatible change.
import type { Position } from "../errors.js";
import type { JsonValue } from "../resources/canonical.js";
import type { Kind } from "../resources/kinds.js";
import type { Operation, PlannedRequest } from "../resources/operations.js";

export { KINDS, type Kind } from "../resources/kinds.js";
export type { Operation, PlannedRequest } from "../resources/operations.js";

/**
 * 2: actions carry typed `operations`; `requests` are rendered from them.
 * 3: the target carries the organization's id and the server environment (a plan of version 2
 * cannot be told from one for a same-named organization, so it is refused, not trusted).
 */
export const PLAN_FORMAT_VERSION = 3;

/**
 * uncertain: an earlier run's create of this resource was interrupted in flight and the server
 * cannot show whether it happened; apply refuses it until `notiform resolve` says which.
 */
export type ActionOp = "create" | "update" | "unverified" | "not-applicable" | "uncertain";

export interface FieldChange {
  /** Flat field path, e.g. "name" or "preferenceSettings.sms". */
  field: string;
  /** The live value; absent when the resource does not exist yet or the value is unknown. */
  old?: JsonValue;
  new: JsonValue;
  /** True when notiform cannot know the live value (no read endpoint, no state record). */
  unknown?: boolean;
}

export interface PlanAction {
  /** `${kind}/${key}`: unique within a plan; dependencies name these. */
  id: string;
  kind: Kind;
  key: string;
  op: ActionOp;
  changes: FieldChange[];
  /** The writes apply makes, in order (empty for not-applicable). */
  operations: Operation[];
  /** Exactly the requests apply sends, rendered from `operations` (requestOf). */
  requests: PlannedRequest[];
  /** Actions of this plan that must succeed first. */
  dependsOn: string[];
  /** What the action was computed from: apply re-reads it and refuses when it moved. */
  live: {
    origin: "api" | "state" | "none";
    digest: string;
    serverId?: string;
    /** Per managed field, its live value's digest (keyed when saved): names the field that moved. */
    fields?: Record<string, string>;
  };
  /** Why the op is unverified or not applicable. */
  reason?: string;
  /** Where the resource is defined in the config. */
  source?: Position;
}

export interface UnmanagedResource {
  kind: Kind;
  key: string;
  name?: string;
}

export interface PlanWarning {
  code: string;
  message: string;
  source?: Position;
}

export interface PlanSummary {
  create: number;
  update: number;
  unverified: number;
  notApplicable: number;
  uncertain: number;
  unchanged: number;
  unmanaged: number;
}

export interface PlanTarget {
  apiUrl: string;
  organization: string;
  environment: string | null;
  /** The organization's server id, where the server sends one: two organizations may share a name. */
  organizationId?: string;
  /** The server environment the key reached (GET /v1/environments/me), where the server says. */
  serverEnvironment?: { id: string; name: string };
}

export interface Plan {
  formatVersion: typeof PLAN_FORMAT_VERSION;
  createdBy: string;
  target: PlanTarget;
  configDigest: string;
  /** keyed(KEY_CHECK_TEXT) under the run's API key, once the plan leaves the process. */
  keyCheck?: string;
  /** The config digest with values from the environment blanked out (keyed when saved). */
  configShapeDigest?: string;
  actions: PlanAction[];
  unmanaged: UnmanagedResource[];
  /**
   * Kinds whose unmanaged resources were not computed: the plan read only the resources it needed
   * of them, by identity (`--list-unmanaged` reads the whole lists). Absent: the list is complete.
   */
  unmanagedNotListed?: Kind[];
  /** Group key -> server id matched at plan time (state or a unique name); apply records them. */
  bindings: {
    notificationGroups: Record<string, string>;
    /** Identifiers resolved to this environment's ids at plan time (apply records them in state). */
    identifiers?: { workflows?: Record<string, string>; tenants?: Record<string, string> };
  };
  /**
   * Interrupted creates (state file intents) this plan found settled: the resource exists (and
   * is bound above) or certainly does not (and is planned as a create). Apply forgets them.
   */
  resolvedIntents: string[];
  warnings: PlanWarning[];
  summary: PlanSummary;
}

/**
 * Actions that change the server: everything but not-applicable, which is shown and sends
 * nothing (a Development-only change with a Production key would otherwise be pending forever).
 */
export function hasChanges(plan: Plan): boolean {
  return plan.actions.some((action) => action.op !== "not-applicable");
}
