// The plan as it leaves the process: its digests keyed under the run's API key.
import { KEY_CHECK_TEXT, type KeyedDigest } from "../secrets/keyed-digest.js";
import type { Plan } from "./model.js";

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
