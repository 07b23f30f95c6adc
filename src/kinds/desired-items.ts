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

export function desiredItemsOf<K extends Kind>(
  module: KindModule<K>,
  desired: DesiredState,
): readonly DesiredItem[] {
  let byKind = built.get(desired);
  if (byKind === undefined) {
    byKind = new Map();
    built.set(desired, byKind);
  }
  let items = byKind.get(module.kind);
  if (items === undefined) {
    items = module.desiredItems(desired);
    byKind.set(module.kind, items);
  }
  return items;
}
