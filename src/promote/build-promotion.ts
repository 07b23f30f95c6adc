// The pure core of promotion: (pending changes, what the config manages) -> Promotion. No I/O,
// no clock: the caller passes the target, the creator and how to mask values that came from
// the environment. Changes of entities the config does not manage are listed as unmanaged and
// left out of what is applied, unless `all`.

import { digestOf } from "../canonical.js";
import type { Change, ChangeOp } from "../kinds/endpoints/wire.js";
import {
  PROMOTION_FORMAT_VERSION,
  type PromotedField,
  type Promotion,
  type PromotionEntityKind,
  type PromotionEntry,
  type PromotionTarget,
} from "./model.js";

/** Development ids of what the config manages, with the handles to name them by. */
export interface ManagedEntities {
  /** Development workflow id -> config key and trigger identifier (when known). */
  workflows: ReadonlyMap<string, { key: string; identifier?: string }>;
  /** Development notification group id -> config key. */
  groups: ReadonlyMap<string, string>;
  /**
   * Development layout id -> identifier, for the layouts the config names (declared, or named by
   * a managed step's `template.layout`): Production needs them before the workflows that use them.
   */
  layouts?: ReadonlyMap<string, string>;
  /** Config entries that could not be resolved to Development ids, said in words. */
  warnings?: readonly string[];
}

export interface BuildPromotionInput {
  /** Every pending (top-level) change, as listed. */
  changes: readonly Change[];
  managed: ManagedEntities;
  all: boolean;
  target: PromotionTarget;
  createdBy: string;
  /** Masks values that came from the environment (applied to shown values and digests alike). */
  mask: <T>(value: T) => T;
}

/** Workflow fields shown as Production will receive them; others (ids, dates, triggers) are not. */
const WORKFLOW_FIELDS = new Set(["name", "description", "active", "tags", "critical", "preferenceSettings"]);
const KIND_ORDER: Record<PromotionEntityKind, number> = {
  notificationGroup: 0,
  layout: 1,
  workflow: 2,
  other: 3,
};

export function buildPromotion(input: BuildPromotionInput): Promotion {
  const described = input.changes.map((change) => describeChange(change, input.managed, input.mask));
  const sorted = [...described].sort(compareEntries);
  const entries = sorted.filter((entry) => entry.managed || input.all);
  const unmanaged = sorted.filter((entry) => !entry.managed && !input.all);
  return {
    formatVersion: PROMOTION_FORMAT_VERSION,
    createdBy: input.createdBy,
    target: input.target,
    all: input.all,
    entries,
    unmanaged,
    summary: { promote: entries.length, unmanaged: unmanaged.length, pending: described.length },
    warnings: [...(input.managed.warnings ?? [])].sort(),
  };
}

/** Dependency order (groups before the workflows that use them), then by handle: stable output. */
function compareEntries(a: PromotionEntry, b: PromotionEntry): number {
  return (
    KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
    (a.key ?? a.name).localeCompare(b.key ?? b.name) ||
    a.changeId.localeCompare(b.changeId)
  );
}

/**
 * What a saved promotion compares: the change's type, entity, operations (masked: no digest of
 * a secret is ever written) and updatedAt, which moves whenever the server rewrites the change,
 * even to a value masked here.
 */
export function digestOfChange(change: Change, mask: <T>(value: T) => T): string {
  return digestOf({
    type: change.type,
    entity: change._entityId,
    ops: mask(change.change),
    updatedAt: change.updatedAt ?? null,
  });
}

function kindOf(change: Change): PromotionEntityKind {
  if (change.type === "NotificationTemplate") return "workflow";
  if (change.type === "NotificationGroup") return "notificationGroup";
  // A fresh organization's default layout is a DefaultLayout record (r3-q1-01b).
  if (change.type === "Layout" || change.type === "DefaultLayout") return "layout";
  return "other";
}

function describeChange(change: Change, managed: ManagedEntities, mask: <T>(value: T) => T): PromotionEntry {
  const kind = kindOf(change);
  const ops = mask(change.change);
  const entry: PromotionEntry = {
    changeId: change._id,
    changeType: change.type,
    kind,
    entityId: change._entityId,
    name: mask(change.templateName ?? ""),
    managed: false,
    fields: [],
    digest: digestOfChange(change, mask),
  };
  if (kind === "workflow") {
    const handle = managed.workflows.get(change._entityId);
    if (handle !== undefined) {
      entry.managed = true;
      entry.key = handle.key;
      if (handle.identifier !== undefined) entry.identifier = handle.identifier;
    }
    describeWorkflowOps(entry, ops, managed);
  } else if (kind === "layout") {
    const key = managed.layouts?.get(change._entityId);
    if (key !== undefined) {
      entry.managed = true;
      entry.key = key;
    }
  } else if (kind === "notificationGroup") {
    const key = managed.groups.get(change._entityId);
    if (key !== undefined) {
      entry.managed = true;
      entry.key = key;
    }
    entry.fields = ops.flatMap((op) => (topField(op) === "name" ? [fieldOf("name", op)] : []));
  }
  return entry;
}

function describeWorkflowOps(entry: PromotionEntry, ops: readonly ChangeOp[], managed: ManagedEntities) {
  const fields: PromotedField[] = [];
  for (const op of ops) {
    const field = topField(op);
    if (WORKFLOW_FIELDS.has(field)) fields.push(fieldOf(field, op));
    else if (field === "_notificationGroupId") {
      if (typeof op.val === "string") entry.groupEntityId = op.val;
      const key = typeof op.val === "string" ? managed.groups.get(op.val) : undefined;
      fields.push(fieldOf("group", { ...op, val: key ?? op.val }));
    } else if (field === "steps" && op.op !== "remove") {
      // A first recording adds the (possibly empty) step list: nothing to say when it is empty.
      const count = Array.isArray(op.val) ? op.val.length : 0;
      if (count > 0 || op.op === "replace") entry.stepsChanged = count;
    } else if (field === "triggers" && entry.identifier === undefined) {
      const identifier = (op.val as { identifier?: unknown }[] | undefined)?.[0]?.identifier;
      if (typeof identifier === "string") entry.identifier = identifier;
    }
  }
  entry.fields = fields.sort((a, b) => a.field.localeCompare(b.field));
}

function topField(op: ChangeOp): string {
  return String(op.path[0] ?? "");
}

/** A nested op (path ["preferenceSettings", "sms"]) names its full path. */
function fieldOf(top: string, op: ChangeOp): PromotedField {
  const field = [top, ...op.path.slice(1).map(String)].join(".");
  return op.op === "remove" ? { field, op: "remove" } : { field, op: "set", value: op.val };
}
