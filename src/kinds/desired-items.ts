// A kind's desired items, built once per desired state. A plan asks for them several times: the
// reads (which entries to read), the shared-object check, the planner and a kind's unmanaged
// listing. For content-heavy kinds (workflow steps) each build costs tens of milliseconds, and
// the planner's call comes after the last answer, where every millisecond is the user's wait.
// Keyed by the desired state object: resolving identifiers makes a new one, so nothing stale is
// served. The items are shared, so they are read-only (callers copy before sorting).
import type { DesiredState } from "../config/model.js";
import type { DesiredItem, KindModule } from "./kind.js";
import type { Kind } from "./kinds.js";

const built = new WeakMap<DesiredState, Map<Kind, readonly DesiredItem[]>>();

/** The items built so far for this desired state, by kind. */
function cacheOf(desired: DesiredState): Map<Kind, readonly DesiredItem[]> {
  let byKind = built.get(desired);
  if (byKind === undefined) {
    byKind = new Map();
    built.set(desired, byKind);
  }
  return byKind;
}

export function desiredItemsOf<K extends Kind>(
  module: KindModule<K>,
  desired: DesiredState,
): readonly DesiredItem[] {
  const byKind = cacheOf(desired);
  let items = byKind.get(module.kind);
  if (items === undefined) {
    items = module.desiredItems(desired);
    byKind.set(module.kind, items);
  }
  return items;
}

/**
 * desiredItemsOf, built a slice of the kind's entries at a time with `turn` awaited between
 * slices, for work that runs while the reads are in flight on the same thread (a content-heavy
 * kind's items take tens of ms in one go, with every connection left idle). Fills the same cache.
 * Sound because a kind builds each item from its own entry (KindModule.desiredItems).
 */
export async function desiredItemsInTurns<K extends Kind>(
  module: KindModule<K>,
  desired: DesiredState,
  turn: () => Promise<unknown>,
  slice = SLICE,
): Promise<readonly DesiredItem[]> {
  const entries = desired.resources[module.kind] as readonly unknown[];
  if (entries.length <= slice || built.get(desired)?.has(module.kind) === true)
    return desiredItemsOf(module, desired);
  const items: DesiredItem[] = [];
  for (let start = 0; start < entries.length; start += slice) {
    if (start > 0) await turn();
    const part = { ...desired.resources, [module.kind]: entries.slice(start, start + slice) };
    for (const item of module.desiredItems({ ...desired, resources: part } as DesiredState)) items.push(item);
  }
  const byKind = cacheOf(desired);
  // Built meanwhile by a caller that did not wait (the same items): keep that one.
  const earlier = byKind.get(module.kind);
  if (earlier !== undefined) return earlier;
  byKind.set(module.kind, items);
  return items;
}

/** Entries per slice in desiredItemsInTurns: a few ms of work for the heaviest kind. */
const SLICE = 200;
