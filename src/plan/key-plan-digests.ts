// The plan as it leaves the process: its digests keyed under the run's API key, and a keyed
// digest of what it shows beside its actions (sealPlanContent), so an edited summary, warning or
// unmanaged list is refused by apply rather than shown as notiform's own.
import { canonicalJson } from "../canonical.js";
import { KEY_CHECK_TEXT, type KeyedDigest } from "../secrets/keyed-digest.js";
import type { Plan } from "./model.js";

/** What the content digest covers: everything a plan shows that is not an action. */
export function planContentText(plan: Plan): string {
  return canonicalJson({
    summary: plan.summary,
    warnings: plan.warnings,
    unmanaged: plan.unmanaged,
    unmanagedNotListed: plan.unmanagedNotListed ?? null,
  });
}

/** The plan as saved (already masked: the digest covers what the file holds), sealed. */
export function sealPlanContent(plan: Plan, keyDigest: KeyedDigest): Plan {
  return { ...plan, contentDigest: keyDigest(planContentText(plan)) };
}

/** Whether a saved plan's content is what notiform sealed under this key. */
export function isPlanContentSealed(plan: Plan, keyDigest: KeyedDigest): boolean {
  return plan.contentDigest !== undefined && plan.contentDigest === keyDigest(planContentText(plan));
}

/**
 * A plan as it leaves the process: every digest it carries (the config's, each live object's) is
 * keyed, so a saved plan says nothing a reader could test guesses of a masked value against.
 */
export function keyPlanDigests(plan: Plan, keyDigest: KeyedDigest): Plan {
  // Each distinct digest is keyed once: many actions share one (every create's live digest is
  // the digest of nothing), and an HMAC per action was most of this step's time.
  const done = new Map<string, string>();
  const keyed = (digest: string): string => {
    let out = done.get(digest);
    if (out === undefined) {
      out = keyDigest(digest);
      done.set(digest, out);
    }
    return out;
  };
  return {
    ...plan,
    configDigest: keyed(plan.configDigest),
    keyCheck: keyed(KEY_CHECK_TEXT),
    ...(plan.configShapeDigest !== undefined ? { configShapeDigest: keyed(plan.configShapeDigest) } : {}),
    actions: plan.actions.map((action) => ({
      ...action,
      live: {
        ...action.live,
        digest: keyed(action.live.digest),
        ...(action.live.fields !== undefined
          ? {
              fields: Object.fromEntries(
                Object.entries(action.live.fields).map(([field, digest]) => [field, keyed(digest)]),
              ),
            }
          : {}),
      },
    })),
  };
}
