// The promotable kinds, as the registry declares them: a kind with a `promotion` part receives
// the change types it names, in the registry's (phase) order, so groups and layouts reach
// Production before the workflows that use them. A change of a type no kind names is "other":
// shown, and promoted only with --all, after every kind's.
import type { PromotableKind } from "../kinds/kinds.js";
import { KINDS, type Kind, registry } from "../kinds/registry.js";
import type { PromotionEntityKind } from "./model.js";

/** The kinds promotion carries, in the order their changes are applied. */
export const PROMOTABLE_KINDS: readonly PromotableKind[] = KINDS.filter(isPromotable);

/** A kind's module has a promotion part only where its types declare it promotable (kind.ts). */
function isPromotable(kind: Kind): kind is PromotableKind {
  return registry[kind].promotion !== undefined;
}

/** Phases of applying a promotion: every promotable kind in order, then the other changes. */
export const PROMOTION_PHASES: readonly PromotionEntityKind[] = [...PROMOTABLE_KINDS, "other"];

const KIND_OF_CHANGE = new Map(
  PROMOTABLE_KINDS.flatMap((kind) =>
    (registry[kind].promotion?.changeTypes ?? []).map((type) => [type, kind] as const),
  ),
);

/** The kind a change of this type promotes ("other": none the registry names). */
export function kindOfChange(type: string): PromotionEntityKind {
  return KIND_OF_CHANGE.get(type) ?? "other";
}

/** Where a kind's changes are applied among the phases. */
export function phaseOf(kind: PromotionEntityKind): number {
  return PROMOTION_PHASES.indexOf(kind);
}
