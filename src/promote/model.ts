// The Promotion value: what `notiform promote` shows, saves (`--out`) and applies. Like a plan,
// one serializable, versioned object is the preview, the saved file and the input of applying;
// applying promotes its entries and nothing else. schemas/promotion.schema.json mirrors it.

import type { PromotableKind } from "../kinds/kinds.js";
import type { PromotedField } from "../kinds/promotion.js";
import { describeKind } from "../kinds/registry.js";
import type { FieldChange } from "../plan/model.js";

export type { PromotedField };

export const PROMOTION_FORMAT_VERSION = 1;

/** What an entry's entity is, as far as notiform understands it: a promotable kind, or not. */
export type PromotionEntityKind = PromotableKind | "other";

export interface PromotionEntry {
  /** The pending change's `_id`: what is applied. */
  changeId: string;
  /** The change's type as the server says it (NotificationTemplate, NotificationGroup, ...). */
  changeType: string;
  kind: PromotionEntityKind;
  /** The Development id of the changed entity. */
  entityId: string;
  /** The config key, for a managed entity. */
  key?: string;
  /** The workflow's trigger identifier (or the layout's identifier), when known. */
  identifier?: string;
  /** The entity's name as the server lists it. */
  name: string;
  /** Whether the config manages the entity. */
  managed: boolean;
  /** The Development group id a workflow change moves to (applied after that group's change). */
  groupEntityId?: string;
  fields: PromotedField[];
  /** Steps replaced by the change (summarised, never listed). */
  stepsChanged?: number;
  /**
   * A workflow's or layout's Development record against Production's current one, field by
   * field (old: Production's value, new: what Production receives), where Production was read.
   */
  diff?: FieldChange[];
  /** sha256 of the change's type, entity and operations: a saved promotion refuses when it moved. */
  digest: string;
}

export interface PromotionTarget {
  apiUrl: string;
  organization: string;
  /** The config's environment name (--env), when one was selected. */
  environment: string | null;
  /** The Development environment's id, as the server named it. */
  environmentId: string;
}

export interface Promotion {
  formatVersion: typeof PROMOTION_FORMAT_VERSION;
  createdBy: string;
  target: PromotionTarget;
  /** --all: unmanaged changes are promoted too. */
  all: boolean;
  /** What applying promotes, in dependency order (groups before workflows). */
  entries: PromotionEntry[];
  /** Pending changes the config does not manage, left pending (empty with --all). */
  unmanaged: PromotionEntry[];
  summary: { promote: number; unmanaged: number; pending: number };
  /** What the config names but could not be matched in Development. */
  warnings: string[];
  /**
   * Where a workflow is promoted: every Development layout with no change of its own listed. A
   * real server nests a layout's pending change in the change of the last workflow written with a
   * step naming it, lists it no more, and promotes it with that workflow, without saying which.
   */
  carried?: CarriedLayout[];
}

/** A layout whose pending change, if it has one, may travel unlisted with a promoted workflow's. */
export interface CarriedLayout {
  /** The layout's Development id. */
  entityId: string;
  /** Its identifier (the same in both environments). */
  key: string;
  /**
   * The promoted workflows whose steps use it, each by config key, else its server name quoted;
   * empty when none does (or Production was not read): a workflow that used it may still hold it.
   */
  workflows: string[];
  /**
   * Where Production was read: Development's layout against Production's, field by field (empty:
   * Production has it already; then no change of it is pending, or one that changes nothing).
   */
  diff?: FieldChange[];
  /** sha256 of Development's layout as compared: a saved promotion refuses when it moved. */
  digest: string;
}

export type PromotionStatus = "applied" | "already-promoted" | "failed" | "skipped";

export interface PromotionResult {
  changeId: string;
  kind: PromotionEntityKind;
  label: string;
  status: PromotionStatus;
  reason?: string;
  error?: { code: string; message: string };
}

export interface PromotionReport {
  formatVersion: typeof PROMOTION_FORMAT_VERSION;
  results: PromotionResult[];
  counts: { applied: number; alreadyPromoted: number; failed: number; skipped: number };
  interrupted: boolean;
}

/** A server's text as it is when a plain slug (letters, digits, `_.:-`), else as a JSON string. */
export function plainOrQuoted(text: string): string {
  return /^[\w.:-]+$/.test(text) ? text : JSON.stringify(text);
}

/** How an entry names itself in text: kind, key or name, identifier. */
export function labelOf(entry: PromotionEntry): string {
  const kind = entry.kind === "other" ? `${entry.changeType} change` : describeKind(entry.kind);
  const handle = entry.key ?? JSON.stringify(entry.name);
  // The identifier comes from the server: quoted unless a plain slug, so a line break in it
  // cannot print what reads as another entry.
  const identifier =
    entry.identifier !== undefined && entry.identifier !== entry.key
      ? ` (${plainOrQuoted(entry.identifier)})`
      : "";
  return `${kind} ${handle}${identifier}`;
}

/** How a carried layout names itself: its identifier and the promoted workflows using it (three at most). */
export function carriedLabel(layout: CarriedLayout): string {
  // The identifier comes from the server's list: quoted unless it is a plain slug (no line break
  // or space can make it read as another line of the preview).
  const key = plainOrQuoted(layout.key);
  if (layout.workflows.length === 0) return `layout ${key}`;
  const shown = layout.workflows.slice(0, 3).join(", ");
  const more = layout.workflows.length > 3 ? ` and ${layout.workflows.length - 3} more` : "";
  const noun = layout.workflows.length === 1 ? "workflow" : "workflows";
  return `layout ${key}, used by ${noun} ${shown}${more}`;
}
