// Which Development entities the config manages, kind by kind: each promotable kind finds its
// own (a workflow by its resolved `id`, a group through the state file, a layout by identifier),
// read in parallel. What the config names but Development lacks comes back as warnings.
import type { DesiredState } from "../config/model.js";
import type { Change } from "../kinds/endpoints/wire.js";
import type { NotificationApi } from "../kinds/notification-api.js";
import type { ManagedHandles } from "../kinds/promotion.js";
import { registry } from "../kinds/registry.js";
import type { StateFile } from "../state/model.js";
import { kindOfChange, PROMOTABLE_KINDS } from "./promotable.js";

/** Development ids of what the config manages, with the handles to name them by. */
export interface ManagedEntities {
  kinds: ManagedHandles;
  /** Config entries that could not be resolved to Development ids, said in words. */
  warnings?: readonly string[];
}

/** Which Development entities the config manages, kind by kind (each kind's promotion finds its own). */
export async function resolveManagedEntities(
  desired: DesiredState,
  state: StateFile,
  client: NotificationApi,
): Promise<ManagedEntities> {
  const found = await Promise.all(
    PROMOTABLE_KINDS.map(async (kind) => {
      const promotion = registry[kind].promotion;
      const managed = await promotion?.managed(desired, state, client);
      return [kind, managed] as const;
    }),
  );
  const kinds: ManagedHandles = {};
  const warnings: string[] = [];
  for (const [kind, managed] of found) {
    if (managed === undefined) continue;
    kinds[kind] = managed.handles;
    // A loop, not push(...): one warning per entity, and a large organization overflows the stack.
    for (const warning of managed.warnings) warnings.push(warning);
  }
  return { kinds, warnings };
}

/**
 * The managed entities plus what those with a pending change require in Production (a
 * workflow's layouts): required entities are promoted with them, in an earlier phase, never
 * after (a workflow promoted before its layout points at no layout in Production).
 */
export async function withRequired(
  managed: ManagedEntities,
  pending: readonly Change[],
  client: NotificationApi,
): Promise<ManagedEntities> {
  const kinds: ManagedHandles = { ...managed.kinds };
  const required = await Promise.all(
    PROMOTABLE_KINDS.map((kind) => {
      const requires = registry[kind].promotion?.requires;
      const handles = kinds[kind];
      if (requires === undefined || handles === undefined) return [];
      const ids = pending
        .filter((change) => kindOfChange(change.type) === kind && handles.has(change._entityId))
        .map((change) => change._entityId);
      return ids.length === 0 ? [] : requires([...new Set(ids)], client);
    }),
  );
  for (const { kind, entityId, handle } of required.flat()) {
    const handles = new Map(kinds[kind] ?? []);
    if (!handles.has(entityId)) handles.set(entityId, handle);
    kinds[kind] = handles;
  }
  return { ...managed, kinds };
}
