// What a kind's planning produces: one action per resource with its field changes and the typed
// operations apply will send, plus the unmanaged resources and warnings it finds. These live
// beside the kinds (the planner in src/plan/ assembles them into a Plan, src/plan/model.ts), so
// a kind never imports from the layers above it.

import type { JsonValue } from "../canonical.js";
import type { Position } from "../errors.js";
import type { Kind } from "./kinds.js";
import type { Operation, PlannedRequest } from "./operations.js";

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
