// A saved plan applied again after part of it was applied: a run of it interrupted (a cancelled
// CI job, a kill), or a change made meanwhile by other means. Its actions that are now already
// as desired are not sent again; each other action must still be the reviewed one, except that
// where the plan said "the id of the resource that action X creates" (`<id of X>`, X now
// applied) the fresh plan has that id. Pure: the refresh (saved-plan.ts) decides with it.

import { canonicalJson } from "../canonical.js";
import { escapeRegExp } from "../escape-regexp.js";
import type { PlanAction } from "../kinds/plan-action.js";

const PLACEHOLDER = /<id of ([^<>]+)>/g;

/**
 * Whether `fresh` (masked like the saved plan) is `saved` with the ids of the `applied` actions'
 * resources filled in. `ids` (action id -> server id) is shared across the whole plan: one action's
 * resource must have the same id everywhere, and the ids found are added to it.
 */
export function sameButResolved(
  saved: PlanAction,
  fresh: PlanAction,
  applied: ReadonlySet<string>,
  ids: Map<string, string>,
): boolean {
  const { operations: _so, requests: savedRequests, dependsOn: savedDeps, ...savedRest } = saved;
  const { operations: _fo, requests: freshRequests, dependsOn: freshDeps, ...freshRest } = fresh;
  if (canonicalJson(savedRest) !== canonicalJson(freshRest)) return false;
  const pending = savedDeps.filter((id) => !applied.has(id)).sort();
  if (canonicalJson(pending) !== canonicalJson([...freshDeps].sort())) return false;
  if (savedRequests.length !== freshRequests.length) return false;
  return savedRequests.every((request, index) => {
    const other = freshRequests[index];
    if (other === undefined || request.method !== other.method || request.when !== other.when) return false;
    const refs = (request.refs ?? []).filter((ref) => !applied.has(ref.action));
    return (
      canonicalJson(refs) === canonicalJson(other.refs ?? []) &&
      sameText(request.path, other.path, applied, ids) &&
      sameValue(request.body, other.body, applied, ids)
    );
  });
}

/**
 * Whether `now` is what is left of `saved` once its sendable changes were sent: not applicable
 * (the server cannot take the rest, e.g. an emptied layout description), and fewer fields. An
 * action that became not applicable whole (a change now arriving by promotion) is not.
 */
export function partlySentRest(saved: PlanAction, now: PlanAction): boolean {
  if (now.op !== "not-applicable" || saved.op === "not-applicable") return false;
  const fields = new Set(saved.changes.map((change) => change.field));
  return now.changes.length < fields.size && now.changes.every((change) => fields.has(change.field));
}

/** A binding the fresh plan has where the saved plan had none: the group its own create made. */
export function boundByApplied(
  key: string,
  actual: string | undefined,
  applied: ReadonlySet<string>,
  ids: Map<string, string>,
): boolean {
  const action = `notificationGroup/${key}`;
  if (actual === undefined || !applied.has(action)) return false;
  return bind(ids, action, actual);
}

function bind(ids: Map<string, string>, action: string, id: string): boolean {
  const known = ids.get(action);
  if (known !== undefined) return known === id;
  ids.set(action, id);
  return true;
}

function sameValue(
  saved: unknown,
  fresh: unknown,
  applied: ReadonlySet<string>,
  ids: Map<string, string>,
): boolean {
  if (typeof saved === "string") return typeof fresh === "string" && sameText(saved, fresh, applied, ids);
  if (Array.isArray(saved))
    return (
      Array.isArray(fresh) &&
      saved.length === fresh.length &&
      saved.every((item, index) => sameValue(item, fresh[index], applied, ids))
    );
  if (saved !== null && typeof saved === "object") {
    if (fresh === null || typeof fresh !== "object" || Array.isArray(fresh)) return false;
    const keys = Object.keys(saved).sort();
    if (canonicalJson(keys) !== canonicalJson(Object.keys(fresh).sort())) return false;
    return keys.every((key) =>
      sameValue(
        (saved as Record<string, unknown>)[key],
        (fresh as Record<string, unknown>)[key],
        applied,
        ids,
      ),
    );
  }
  return saved === fresh;
}

/**
 * `saved` with each `<id of X>` (X applied) standing for an id: a path segment or a whole body
 * value. The fresh text must have an id there, the same one wherever X appears.
 */
function sameText(
  saved: string,
  fresh: string,
  applied: ReadonlySet<string>,
  ids: Map<string, string>,
): boolean {
  const placeholders = [...saved.matchAll(PLACEHOLDER)].filter((match) => applied.has(match[1] as string));
  if (placeholders.length === 0) return saved === fresh;
  let pattern = "^";
  let at = 0;
  for (const match of placeholders) {
    pattern += `${escapeRegExp(saved.slice(at, match.index))}([^/<>\\s]+)`;
    at = (match.index ?? 0) + match[0].length;
  }
  pattern += `${escapeRegExp(saved.slice(at))}$`;
  const found = new RegExp(pattern).exec(fresh);
  if (found === null) return false;
  return placeholders.every((match, index) => bind(ids, match[1] as string, found[index + 1] as string));
}
