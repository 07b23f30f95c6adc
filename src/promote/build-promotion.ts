// The pure core of promotion: (pending changes, what the config manages) -> Promotion. No I/O,
// no clock: the caller passes the target, the creator and how to mask values that came from
// the environment. Changes of entities the config does not manage are listed as unmanaged and
// left out of what is applied, unless `all`.

import { digestOf } from "../canonical.js";
import type { Change } from "../kinds/endpoints/wire.js";
import { registry } from "../kinds/registry.js";
import type { ManagedEntities } from "./managed.js";
import {
  PROMOTION_FORMAT_VERSION,
  type Promotion,
  type PromotionEntry,
  type PromotionTarget,
} from "./model.js";
import { kindOfChange, phaseOf } from "./promotable.js";

export type { ManagedEntities };

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

/** Dependency order (the registry's: groups before the workflows that use them), then by handle: stable output. */
function compareEntries(a: PromotionEntry, b: PromotionEntry): number {
  return (
    phaseOf(a.kind) - phaseOf(b.kind) ||
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

function describeChange(change: Change, managed: ManagedEntities, mask: <T>(value: T) => T): PromotionEntry {
  const kind = kindOfChange(change.type);
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
  if (kind === "other") return entry;
  const handle = managed.kinds[kind]?.get(change._entityId);
  if (handle !== undefined) {
    entry.managed = true;
    entry.key = handle.key;
  }
  const details = registry[kind].promotion?.describe?.(mask(change.change), managed.kinds);
  const identifier = handle?.identifier ?? details?.identifier;
  if (identifier !== undefined) entry.identifier = identifier;
  if (details?.groupEntityId !== undefined) entry.groupEntityId = details.groupEntityId;
  entry.fields = details?.fields ?? [];
  if (details?.stepsChanged !== undefined) entry.stepsChanged = details.stepsChanged;
  return entry;
}
