// The promote stage: the Development environment the key reaches, and the promotion of what the
// config manages among Development's pending changes (read whole before anything is shown).
import { isNotiformError, NotiformError } from "../errors.js";
import type { ApiClient } from "../kinds/client.js";
import type { Change, Environment } from "../kinds/endpoints/wire.js";
import { type Masker, maskDeep } from "../mask.js";
import { buildPromotion } from "../promote/build-promotion.js";
import { resolveManagedEntities, withRequired } from "../promote/managed.js";
import type { Promotion, PromotionTarget } from "../promote/model.js";
import { checkCarriedFresh, checkPromotionFresh, checkPromotionManaged } from "../promote/saved-promotion.js";
import type { StateFile } from "../state/model.js";
import { readState } from "../state/state-store.js";
import { VERSION } from "../version.js";
import { resolveSession } from "./prepare-plan.js";
import type { Session } from "./session.js";

/** The Development environment the key reaches; a Production key or a spec-only server is refused. */
export async function promotionTarget(session: Session): Promise<PromotionTarget> {
  let environment: Environment;
  try {
    environment = await session.client.getCurrentEnvironment();
  } catch (error) {
    throw unsupported(error);
  }
  if (environment.name.toLowerCase() === "production") {
    throw new NotiformError(
      "WRONG_ENVIRONMENT",
      "promote needs the Development environment's key: this key reaches Production, which receives promotions (its own pending changes cannot be applied)",
      {
        hint: "Run promote with the Development key (e.g. --env development); check Production afterwards with `plan --env production`.",
      },
    );
  }
  return { ...session.target, environmentId: environment._id };
}

function unsupported(error: unknown): unknown {
  if (isNotiformError(error) && error.code === "API_UNSUPPORTED")
    return new NotiformError(
      "API_UNSUPPORTED",
      "this server has no promotion (no environments or changes routes: it serves the spec alone); nothing to promote",
    );
  return error;
}

async function listPending(client: ApiClient): Promise<Change[]> {
  return client.listAllChanges({ promoted: false }).catch((error: unknown) => {
    throw unsupported(error);
  });
}

/**
 * The promotion a preview shows and a run applies: every value masked as it is read. With the
 * state file it was resolved with (its held secrets: withholdPromotionSecrets, once the diff
 * against Production is in).
 */
export async function preparePromotion(
  session: Session,
  target: PromotionTarget,
  options: { all: boolean; masker: Masker },
): Promise<{ promotion: Promotion; state: StateFile }> {
  const state = await readState(session.statePath, session.stateTarget);
  await resolveSession(session, state);
  // Read everything before showing anything: an incomplete preview is never shown or applied.
  const [named, changes] = await Promise.all([
    resolveManagedEntities(session.desired, state, session.client),
    listPending(session.client),
  ]);
  const managed = await withRequired(named, changes, session.client);
  const promotion = buildPromotion({
    changes,
    managed,
    all: options.all,
    target,
    createdBy: `notiform ${VERSION}`,
    mask: (value) => maskDeep(value, options.masker),
  });
  return { promotion, state };
}

/**
 * A saved promotion checked against the server now: the changes it carries that are still
 * pending (`current`) and those promoted since (`alreadyPromoted`); refused when it names what the
 * config does not manage (the file's own "managed" flags are not trusted).
 */
export async function refreshSavedPromotion(session: Session, saved: Promotion, masker: Masker) {
  const pending = await listPending(session.client);
  const pendingIds = new Set(pending.map((c) => c._id));
  if (!saved.all) {
    // The file's own "managed" flags are not trusted: an edited file could add any change. Only
    // what is still pending is checked (and sent): a change promoted since is reported, never
    // sent, and what it required (a workflow's layout) is no longer required by anything pending.
    const state = await readState(session.statePath, session.stateTarget);
    await resolveSession(session, state);
    const named = await resolveManagedEntities(session.desired, state, session.client);
    const stillPending = { ...saved, entries: saved.entries.filter((e) => pendingIds.has(e.changeId)) };
    checkPromotionManaged(stillPending, await withRequired(named, pending, session.client));
  }
  const gone = saved.entries.some((e) => !pendingIds.has(e.changeId));
  const promotedIds = gone
    ? new Set((await session.client.listAllChanges({ promoted: true })).map((c) => c._id))
    : new Set<string>();
  const mask = <T>(value: T) => maskDeep(value, masker);
  const fresh = checkPromotionFresh(saved, pending, promotedIds, mask);
  // The layouts its workflows carry unlisted: their content, as reviewed, or nothing is promoted.
  const carried = saved.carried ?? [];
  if (carried.length > 0 && fresh.current.some((entry) => entry.kind === "workflow"))
    checkCarriedFresh(carried, await session.client.listAllLayouts(), mask);
  return fresh;
}
