// The composition root of a plan: files -> config -> desired; API -> live; state file; then the
// pure planner. The only I/O of planning happens here and in src/kinds/read-live.ts.
import type { DesiredState } from "../config/model.js";
import type { Problem } from "../errors.js";
import type { LiveSnapshot, ServerEnvironment } from "../kinds/kind.js";
import type { PlanWarning } from "../kinds/plan-action.js";
import { readLive, startReadAhead } from "../kinds/read-live.js";
import { type ResolvedIdentifiers, resolveDesired } from "../kinds/resolve-desired.js";
import type { LoadedOn } from "../loader/load-beside.js";
import { withholdAndMaskSecretValues } from "../plan/held-secrets.js";
import { keyPlanDigests } from "../plan/key-plan-digests.js";
import type { Plan } from "../plan/model.js";
import { type PlanInTurns, selectTargets, startPlan } from "../plan/plan-changes.js";
import { visibleText } from "../sanitize.js";
import type { StateFile } from "../state/model.js";
import { checkStateEnvironment, readState } from "../state/state-store.js";
import { VERSION } from "../version.js";
import type { RunContext } from "./context.js";
import {
  connectEarly,
  loadDesired,
  openSession,
  organizationOf,
  planTargetOf,
  type Session,
  type SessionArgs,
} from "./session.js";

export interface PreparedPlan {
  session: Session;
  state: StateFile;
  live: LiveSnapshot;
  plan: Plan;
}

export async function preparePlan(
  args: SessionArgs & { target: string[]; "list-unmanaged"?: boolean },
  context: RunContext,
  /** The config when the caller loaded it already (apply, to find the state file to lock). */
  loaded?: { desired: DesiredState; warnings: Problem[] },
): Promise<PreparedPlan> {
  const started = performance.now();
  // While the config loads, connect and ask who the key is (not with --target: a target that is
  // not in the config must fail before any request).
  const early = loaded === undefined && args.target.length === 0 ? connectEarly(args, context) : undefined;
  // ... and start the live reads as soon as a parsed file shows which kinds it manages.
  const ahead = early !== undefined ? startReadAhead(early.client, early) : undefined;
  let config: { desired: DesiredState; warnings: Problem[]; loadedOn?: LoadedOn };
  let selected: Set<string> | undefined;
  try {
    config = loaded ?? (await loadDesired(args, context, ahead?.onParsed));
    // A --target not in the config is an error before any request; the rest say what to read.
    selected = selectTargets(config.desired, args.target);
  } catch (error) {
    await early?.client.close();
    throw error;
  }
  const session = await openSession(args, context, config, { guard: true }, early);
  const opened = performance.now();
  // On stderr too, so it is seen whatever --output is (the plan itself may be JSON or markdown).
  if (session.desired.organization === undefined) {
    context.note(
      `warning: the config has no \`organization\` guard, so nothing checks that the key reaches the intended organization (it reaches "${visibleText(session.organization.name)}"); add \`organization: ${visibleText(session.organization.name)}\` to the root file.\n`,
    );
  }
  try {
    const state = await readState(session.statePath, session.stateTarget);
    checkStateEnvironment(session.statePath, state, session.serverEnvironment);
    // Identifiers resolve to this environment's ids before the reads that use them.
    const resolved = await resolveSession(session, state);
    // Each kind is planned as soon as its reads are in, in the turns the reads leave idle.
    // Planning only reads: whether the server serves the override update extension is not
    // probed (a probe would be a PUT); while unknown it is planned as a normal update, which
    // real servers serve, and a server without the route is found out by apply's first use.
    const planning = startPlan({
      desired: session.desired,
      live: { organization: organizationOf(session), ...environmentOption(session) },
      state,
      target: planTargetOf(session),
      createdBy: `notiform ${VERSION}`,
      targets: args.target,
      protect: session.protect,
    });
    const turns = stepInIdleTurns(planning);
    // Sorting each kind's items needs no read: it starts in the first idle turn.
    turns.wake();
    let live: LiveSnapshot;
    try {
      live = await readLive(session.client, session.desired, organizationOf(session), {
        ...environmentOption(session),
        ...(selected !== undefined ? { selected } : {}),
        listUnmanaged: args["list-unmanaged"] === true,
        // Only when the session kept the early connection the reads were started on.
        ...(ahead !== undefined && session.client === early?.client ? { readAhead: ahead.started } : {}),
        onRead: (kind, share) => {
          planning.take(kind, share);
          turns.wake();
        },
      });
    } finally {
      turns.stop();
    }
    const read = performance.now();
    const during = planning.progress();
    // Secrets the config no longer names, which the server still holds (the state's record).
    const planned = withSessionWarnings(
      withholdAndMaskSecretValues(
        keyPlanDigests(planning.finish(), session.keyed),
        state.secretValues,
        session.keyed,
        context.masker,
      ),
      session,
    );
    const plan = withIdentifiers(planned, resolved);
    if (args.verbose) {
      const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
      const stats = session.client.stats();
      context.note(
        `timing: config + organization ${s(opened - started)}${loadedOn(config)}, live reads ${s(read - opened)} (${stats.requests} requests, ${during.planned} of ${during.total} resources planned meanwhile), planning ${s(performance.now() - read)}\n`,
      );
    }
    return { session, state, live, plan };
  } catch (error) {
    await session.close();
    throw error;
  }
}

/**
 * Identifiers resolved to this environment's ids (workflows, tenants): the session's desired
 * state carries the ids from here on, so the planner, a saved plan's refresh and apply see them.
 */
export async function resolveSession(session: Session, state: StateFile): Promise<ResolvedIdentifiers> {
  const { desired, identifiers } = await resolveDesired(session.client, session.desired, {
    state,
    ...(session.serverEnvironment !== undefined ? { environment: session.serverEnvironment } : {}),
  });
  session.desired = desired;
  return identifiers;
}

export function environmentOption(session: Session): { environment?: ServerEnvironment } {
  return session.serverEnvironment !== undefined ? { environment: session.serverEnvironment } : {};
}

/** The plan's bindings with the identifiers resolved for it (apply records them in state). */
export function withIdentifiers(plan: Plan, identifiers: ResolvedIdentifiers): Plan {
  if (Object.keys(identifiers).length === 0) return plan;
  return { ...plan, bindings: { ...plan.bindings, identifiers } };
}

/**
 * Items a turn plans: under a millisecond of work on code running for the first time, so an
 * answer that comes in meanwhile waits no longer than that. (A kind's sort or unmanaged list is
 * one turn: a few milliseconds for 10,000 items.)
 */
const ITEMS_PER_TURN = 200;

/**
 * Runs the planning a turn at a time while the reads are in flight: woken by each read that
 * comes in, it plans until nothing more can be planned yet, yielding to the event loop between
 * turns so every answer is still taken in as it comes. Stopped once the reads end (or fail):
 * what is left is planned at once by finish.
 */
function stepInIdleTurns(planning: PlanInTurns): { wake(): void; stop(): void } {
  let pending: NodeJS.Immediate | undefined;
  let stopped = false;
  const turn = () => {
    pending = undefined;
    if (!stopped && planning.step(ITEMS_PER_TURN)) pending = setImmediate(turn);
  };
  return {
    wake: () => {
      if (!stopped && pending === undefined) pending = setImmediate(turn);
    },
    stop: () => {
      stopped = true;
      if (pending !== undefined) clearImmediate(pending);
    },
  };
}

/** Where the config was loaded beside the reads, for the timing line. */
function loadedOn(config: { loadedOn?: LoadedOn }): string {
  if (config.loadedOn === undefined) return "";
  return config.loadedOn === "worker"
    ? " (config loaded on a worker thread)"
    : " (config loaded in this thread)";
}

/** Config warnings (e.g. an include matching nothing) and a missing organization guard. */
function withSessionWarnings(plan: Plan, session: Session): Plan {
  const extra: PlanWarning[] = session.configWarnings.map((problem) => ({
    code: problem.rule,
    message: problem.message,
    source: problem.pos,
  }));
  if (session.desired.organization === undefined) {
    extra.push({
      code: "no-organization-guard",
      message: `the config names no organization, so nothing checks that the key reaches the intended one (it reaches "${visibleText(session.organization.name)}")`,
    });
  }
  return extra.length === 0 ? plan : { ...plan, warnings: [...extra, ...plan.warnings] };
}
