// Masking a plan for output (text, markdown, JSON, the --out file). Beyond masking every string,
// a field whose new value is or contains a secret has its old value masked too: the old value
// is usually the previous secret (a rotated value read back from the server), which the masker
// cannot know. The planner stays pure and unmasked; only what is shown or saved is masked.

import { setDataKey } from "../canonical.js";
import type { FieldChange, PlanAction } from "../kinds/plan-action.js";
import { MASK, type Masker, maskDeep } from "../mask.js";
import type { Plan } from "./model.js";

export function maskPlan(plan: Plan, masker: Masker): Plan {
  // Usually nothing in a plan needs masking (only the API key is registered): one search of its
  // JSON text shows that at a fraction of the cost of masking its thousands of strings one by one.
  if (masker.leavesUnchanged(plan)) return plan;
  // Each part is masked once: the actions (most of a plan) only by maskAction, their changes only
  // by maskChange. The spread keeps each key where it was, so the output's key order is unchanged.
  const { identifiers } = plan.bindings;
  return {
    ...maskDeep({ ...plan, actions: [] }, masker),
    actions: plan.actions.map((action) => maskAction(action, masker)),
    // Keyed by the config's keys and identifiers, which may come from the environment too.
    bindings: {
      notificationGroups: maskKeys(plan.bindings.notificationGroups, masker),
      ...(identifiers === undefined
        ? {}
        : {
            identifiers: Object.fromEntries(
              Object.entries(identifiers).map(([section, ids]) => [section, maskKeys(ids, masker)]),
            ),
          }),
    },
  };
}

/**
 * `record` with its keys masked (maskDeep masks values only), in sorted order: of keys that mask
 * alike (two groups keyed by values from the environment), the last by key is kept, the same
 * whenever a plan's bindings are masked (apply FILE compares fresh ones with the saved ones so).
 */
export function maskKeys(record: Readonly<Record<string, string>>, masker: Masker): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(record).sort()) setDataKey(out, masker.mask(key), record[key] as string);
  return out;
}

/** One action as it is shown and saved (apply compares a fresh action with the saved one this way). */
export function maskAction(action: PlanAction, masker: Masker): PlanAction {
  if (masker.leavesUnchanged(action)) return action;
  const masked = maskDeep({ ...action, changes: [] }, masker);
  return { ...masked, changes: action.changes.map((change) => maskChange(change, masker)) };
}

function maskChange(change: FieldChange, masker: Masker): FieldChange {
  const masked = maskDeep(change, masker);
  const newHoldsSecret = JSON.stringify(masked.new) !== JSON.stringify(change.new);
  if (newHoldsSecret && masked.old !== undefined) return { ...masked, old: MASK };
  return masked;
}
