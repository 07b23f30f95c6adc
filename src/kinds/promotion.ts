// A kind's part in `notiform promote`: which of the server's change types carry it from
// Development to Production, how the config's entities of the kind are found among Development's
// ids, and what a change's operations say Production will receive. Promotion (src/promote/)
// iterates the registry for these and names no kind; a kind without one is not promoted (its
// changes, if the server records any, are listed as "other").
import type { DesiredState } from "../config/model.js";
import type { StateFile } from "../state/model.js";
import type { ChangeOp } from "./endpoints/wire.js";
import type { PromotableKind } from "./kinds.js";
import type { NotificationApi } from "./notification-api.js";

/** How the config names a Development entity: its config key, and a trigger identifier when known. */
export interface PromotionHandle {
  key: string;
  identifier?: string;
}

/** Development id -> handle, for the entities of each kind the config manages. */
export type ManagedHandles = { [K in PromotableKind]?: ReadonlyMap<string, PromotionHandle> };

/** One field Production will receive, as the change's operations say it. */
export interface PromotedField {
  /** name, active, tags, critical, preferenceSettings, group, description, ... */
  field: string;
  op: "set" | "remove";
  /** The value (a group is named by its config key when the config has it). */
  value?: unknown;
}

/** What a change's operations say, for people and for the order of applying. */
export interface PromotedDetails {
  fields: PromotedField[];
  /** Steps replaced by the change (summarised, never listed). */
  stepsChanged?: number;
  /** The (trigger) identifier the operations carry, for an entity the config does not name. */
  identifier?: string;
  /** The Development id of the entity this one moves to (applied after that entity's change). */
  groupEntityId?: string;
}

export interface KindPromotion {
  /** The server's change types (a change's `type`) whose promotion brings this kind to Production. */
  changeTypes: readonly string[];
  /**
   * Development id -> handle of the entities the config manages (I/O edge: a kind may list the
   * server), and, in words, the config entries that could not be matched in Development.
   */
  managed(
    desired: DesiredState,
    state: StateFile,
    client: NotificationApi,
  ): Promise<{ handles: ReadonlyMap<string, PromotionHandle>; warnings: string[] }>;
  /** Pure: the fields a change's operations give Production; without it, none are shown. */
  describe?(ops: readonly ChangeOp[], managed: ManagedHandles): PromotedDetails;
  /**
   * I/O edge: the Development entities of other kinds that these (about to be promoted) need in
   * Production first, e.g. the layouts a workflow's steps use, whatever the config names: their
   * pending changes are promoted too, in an earlier phase.
   */
  requires?(entityIds: readonly string[], client: NotificationApi): Promise<RequiredEntity[]>;
}

/** An entity another one needs in Production, with the handle to name it by. */
export interface RequiredEntity {
  kind: PromotableKind;
  entityId: string;
  handle: PromotionHandle;
}

/** A change op's top-level field. */
export function topField(op: ChangeOp): string {
  return String(op.path[0] ?? "");
}

/** Whether the op takes its path away: `delete` on real servers, `remove` in JSON-patch terms. */
export function removes(op: ChangeOp): boolean {
  return op.op === "delete" || op.op === "remove";
}

/** A nested op (path ["preferenceSettings", "sms"]) names its full path. */
export function promotedField(top: string, op: ChangeOp): PromotedField {
  const field = [top, ...op.path.slice(1).map(String)].join(".");
  return removes(op) ? { field, op: "remove" } : { field, op: "set", value: op.val };
}
