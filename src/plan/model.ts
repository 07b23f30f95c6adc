// The plan: a versioned, serializable value. `plan` renders it, `--out` saves it, and `apply`
// executes it and nothing else. Shapes here are mirrored by schemas/plan.schema.json (a test
// keeps the two in step); bump PLAN_FORMAT_VERSION on any incompatible change.
import type { Kind } from "../kinds/kinds.js";
import type { PlanAction, PlanWarning, UnmanagedResource } from "../kinds/plan-action.js";

export type { Kind } from "../kinds/kinds.js";
export type { Operation, PlannedRequest } from "../kinds/operations.js";
export type {
  ActionOp,
  FieldChange,
  PlanAction,
  PlanWarning,
  UnmanagedResource,
} from "../kinds/plan-action.js";

/**
 * 2: actions carry typed `operations`; `requests` are rendered from them.
 * 3: the target carries the organization's id and the server environment (a plan of version 2
 * cannot be told from one for a same-named organization, so it is refused, not trusted).
 */
export const PLAN_FORMAT_VERSION = 4;

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
  /**
   * keyed(planContentText(plan)) of the plan as saved (masked): covers what it shows beside its
   * actions (summary, warnings, unmanaged), which re-planning the actions does not check.
   */
  contentDigest?: string;
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
/** A plan's counts, from its actions and unmanaged list: a saved plan's own summary is never trusted. */
export function summarizePlan(plan: Pick<Plan, "actions" | "unmanaged">, unchanged: number): PlanSummary {
  const count = (op: Plan["actions"][number]["op"]) =>
    plan.actions.filter((action) => action.op === op).length;
  return {
    create: count("create"),
    update: count("update"),
    unverified: count("unverified"),
    notApplicable: count("not-applicable"),
    uncertain: count("uncertain"),
    unchanged,
    unmanaged: plan.unmanaged.length,
  };
}

export function hasChanges(plan: Plan): boolean {
  return plan.actions.some((action) => action.op !== "not-applicable");
}
