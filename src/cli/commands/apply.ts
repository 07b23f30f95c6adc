// `notiform apply [plan.json]`: make the server match the config. Thin: wires the plan (fresh
// or saved), the confirmation, the engine, the progress view and the report, and maps the
// outcome to an exit code. The whole run holds the state file's lock, taken before the state
// is read and before anything is read from the server, so a second apply waits for (or is
// refused by) the first rather than planning from a state file or a server about to change.
// When the lock is free at once it is taken before the config loads, and the reads run beside
// the load as in plan; otherwise the config loads first and the wait follows.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Argv } from "yargs";
import { executePlan } from "../../apply/execute-plan.js";
import type { ApplyReport } from "../../apply/model.js";
import { lineProgress, listrProgress, type ProgressView, silentProgress } from "../../apply/progress.js";
import { renderReportJson, renderReportText } from "../../apply/render-report.js";
import {
  checkPlanBeforeConnecting,
  checkPlanTarget,
  readSavedPlan,
  refreshSavedPlan,
} from "../../apply/saved-plan.js";
import { StateRecorder } from "../../apply/state-recorder.js";
import type { DesiredState } from "../../config/model.js";
import { InternalError, NotiformError, type Problem } from "../../errors.js";
import { maskDeep } from "../../mask.js";
import {
  environmentOption,
  preparePlan,
  resolveSession,
  withIdentifiers,
} from "../../pipeline/prepare-plan.js";
import {
  describeMalformedKey,
  loadDesired,
  loadDesiredOfSavedPlan,
  openSession,
  organizationOf,
  planTargetOf,
  resolveApiUrl,
  type Session,
} from "../../pipeline/session.js";
import { heldSecretsBeforeApply, secretValuesBeforeApply } from "../../plan/held-secrets.js";
import { maskPlan } from "../../plan/mask-plan.js";
import { hasChanges, type Plan } from "../../plan/model.js";
import { renderPlanText } from "../../plan/render-text.js";
import { visibleText } from "../../sanitize.js";
import { keyedDigest, secretHolder } from "../../secrets/keyed-digest.js";
import { acquireStateLock, type LockOptions, type StateLock, withStateLock } from "../../state/lock.js";
import type { StateFile } from "../../state/model.js";
import { checkStateEnvironment, defaultStatePath, readState } from "../../state/state-store.js";
import { type ArgsOf, type CommandContext, defineCommand } from "../command.js";
import { API_OPTIONS, CONFIG_OPTIONS, PLAN_OPTIONS, VERBOSE_OPTIONS } from "../common.js";
import { confirmOrRefuse } from "../confirm.js";
import { parseDuration } from "../duration.js";
import { EXIT } from "../exit-codes.js";
import { withStopSignals } from "../interrupts.js";
import { runContext } from "../run-context.js";

const builder = (yargs: Argv) =>
  yargs
    .options(CONFIG_OPTIONS)
    .options(API_OPTIONS)
    .options(VERBOSE_OPTIONS)
    .options(PLAN_OPTIONS)
    .positional("plan", { type: "string", describe: "A plan saved with `plan --out FILE`" })
    .option("auto-approve", {
      type: "boolean",
      default: false,
      describe: "Apply without asking (needed without a TTY)",
    })
    .option("continue-on-error", {
      type: "boolean",
      default: false,
      describe: "On a failure, skip only what depends on it and carry on",
    })
    .option("output", {
      alias: "o",
      choices: ["text", "json"] as const,
      default: "text" as const,
      describe: "json: print a machine-readable result (per action: status, error, duration)",
    })
    .option("lock-timeout", {
      type: "string",
      default: "0s",
      describe:
        "Wait this long (e.g. 30s, 5m) for another apply's lock on the state file instead of refusing",
    })
    // A saved plan is applied whole, as reviewed: narrowing it silently would apply less than
    // asked (Terraform refuses the same combination).
    .check((argv) => {
      const targets = argv.target as string[] | undefined;
      if (argv.plan !== undefined && targets !== undefined && targets.length > 0) {
        throw new NotiformError(
          "USAGE",
          "--target cannot be used with a saved plan: the plan's targets were fixed when it was made",
          {
            hint: "Run `notiform plan --target ... --out FILE` and apply that plan, or apply without a plan file.",
          },
        );
      }
      return true;
    });

type ApplyArgs = ArgsOf<ReturnType<typeof builder>>;
type Loaded = { desired: DesiredState; warnings: Problem[] };

export const applyCommand = defineCommand({
  command: "apply [plan]",
  describe: "Make the server match the config (or apply a saved plan without prompting)",
  builder,
  run: async (args, context) => {
    const timeoutMs = parseDuration(args.lockTimeout);
    if (timeoutMs === undefined) {
      throw new NotiformError("USAGE", `--lock-timeout: not a duration: "${args.lockTimeout}"`, {
        hint: "Use e.g. 30s, 5m or 500ms.",
      });
    }
    const lockOptions = {
      command: "notiform apply",
      timeoutMs,
      onWait: (text: string) => context.terminal.err(`${text} (up to --lock-timeout)\n`),
      onWarning: (text: string) => context.terminal.err(`warning: ${text}\n`),
    };
    // The lock free now: held from before the config loads, the live reads run beside the load
    // (as in plan), and every read is still made under the lock.
    const early = args.plan === undefined ? await lockIfFree(args, context, lockOptions) : undefined;
    if (early !== undefined) {
      try {
        return await applyLocked(args, context, early.path);
      } finally {
        await early.lock.release();
      }
    }
    const loaded =
      args.plan === undefined
        ? await loadDesired(args, runContext(context, args))
        : await loadDesiredOfSavedPlan(args, runContext(context, args));
    const statePath = args.state ?? defaultStatePath(loaded.desired.rootFile, loaded.desired.environment);
    return withStateLock(statePath, lockOptions, () => applyLocked(args, context, statePath, loaded));
  },
});

/**
 * The state file's lock, when it can be taken at once before the config loads: the state path
 * follows from the flags alone (--state, else beside the root file, named by --env). Undefined
 * when the lock is held or cannot be made, or the root file is missing: then the config loads
 * first, so its errors come before any wait for the lock, as they always have.
 */
async function lockIfFree(
  args: ApplyArgs,
  context: CommandContext,
  options: LockOptions,
): Promise<{ lock: StateLock; path: string } | undefined> {
  const rootFile = resolve(context.cwd, args.config ?? "notiform.yaml");
  if (!existsSync(rootFile)) return undefined;
  const path = args.state ?? defaultStatePath(rootFile, args.env);
  try {
    return { lock: await acquireStateLock(path, { ...options, timeoutMs: 0 }), path };
  } catch (error) {
    if (error instanceof NotiformError && ["STATE_LOCKED", "STATE_WRITE_FAILED"].includes(error.code))
      return undefined;
    throw error;
  }
}

async function applyLocked(
  args: ApplyArgs,
  context: CommandContext,
  lockedPath: string,
  loaded?: Loaded,
): Promise<number> {
  const prepared =
    args.plan === undefined
      ? await planNow(args, context, lockedPath, loaded)
      : await loadSaved(
          args,
          context,
          loaded ?? (await loadDesiredOfSavedPlan(args, runContext(context, args))),
        );
  if (prepared === undefined) return EXIT.ok;
  const { session, plan, state, alreadyApplied = [] } = prepared;
  try {
    const recorder = new StateRecorder(state, session.statePath, session.protect, session.keyed);
    await recordFindings(recorder, session, plan, prepared.complete === true);
    const report = await runWithSignals(context, plan, args, (progress, stop, abort) =>
      executePlan({
        client: session.client,
        plan,
        recorder,
        concurrency: args.concurrency,
        continueOnError: args["continue-on-error"],
        stopSignal: stop,
        abortSignal: abort,
        onEvent: (event) => progress.onEvent(event),
      }),
    );
    if (alreadyApplied.length > 0) report.alreadyApplied = alreadyApplied;
    const stateFailure = await recorder.persist().then(
      () => recorder.failure,
      (error: unknown) => {
        if (error instanceof NotiformError && error.code === "STATE_WRITE_FAILED") return error;
        throw error;
      },
    );
    // Masked before it is JSON: a server's message may quote a value in JSON of its own, which
    // JSON escapes again, a form the mask of the finished text does not know.
    context.terminal.out(
      args.output === "json" ? renderReportJson(maskDeep(report, context.masker)) : renderReportText(report),
    );
    if (stateFailure !== undefined) reportUnrecorded(context, stateFailure, recorder.unrecorded());
    return exitCodeOf(report, stateFailure !== undefined);
  } finally {
    await session.close();
  }
}

/** The server holds changes the state file could not take: name them, so nothing is lost silently. */
function reportUnrecorded(context: CommandContext, failure: NotiformError, unrecorded: readonly string[]) {
  const lines = [`error: ${failure.message}`];
  if (unrecorded.length > 0) {
    lines.push("Applied on the server but missing from the state file:");
    for (const item of unrecorded) lines.push(`  ${item}`);
  }
  lines.push(
    "hint: Make the state file's directory writable and run apply again; it matches groups by name and records them.",
  );
  context.terminal.err(`${lines.join("\n")}\n`);
}

interface Prepared {
  session: Session;
  plan: Plan;
  state: StateFile;
  /** A saved plan's actions already as desired (an interrupted run of it applied them). */
  alreadyApplied?: string[];
  /** The plan covers every resource of the config (planned now, without --target). */
  complete?: boolean;
}

/** Plan now, show it, and get a confirmation; undefined when there is nothing to do. */
async function planNow(
  args: ApplyArgs,
  context: CommandContext,
  lockedPath: string,
  loaded: Loaded | undefined,
): Promise<Prepared | undefined> {
  const { session, plan, state } = await preparePlan(args, runContext(context, args), loaded);
  try {
    if (session.statePath !== lockedPath) {
      throw new InternalError(
        `the state file planned (${session.statePath}) is not the one locked (${lockedPath})`,
      );
    }
    const visible = maskPlan(plan, context.masker);
    const show = renderPlanText(visible, {
      color: context.terminal.color && args.color,
      verbose: args.verbose,
    });
    if (args.output === "json") context.terminal.err(show);
    else context.terminal.out(show);
    if (!hasChanges(plan)) {
      const recorder = new StateRecorder(state, session.statePath, session.protect, session.keyed);
      await recordFindings(recorder, session, plan, args.target.length === 0);
      if (args.output === "json") context.terminal.out(renderReportJson(emptyReport()));
      else context.terminal.out("No changes. Nothing to apply.\n");
      await session.close();
      return undefined;
    }
    if (!args["auto-approve"]) await confirm(context);
    return { session, plan, state, complete: args.target.length === 0 };
  } catch (error) {
    await session.close();
    throw error;
  }
}

function confirm(context: CommandContext): Promise<void> {
  return confirmOrRefuse(context, {
    verb: "apply",
    question: "\nApply these changes? Only 'yes' is accepted: ",
    hint: "Pass --auto-approve (as CI does), or apply a reviewed plan file: notiform apply plan.json",
    cancelled: "apply cancelled; nothing was changed",
  });
}

async function loadSaved(args: ApplyArgs, context: CommandContext, loaded: Loaded): Promise<Prepared> {
  const saved = await readSavedPlan(resolve(context.cwd, args.plan ?? ""));
  // Before any request: what the flags, the config and the key alone decide. (A missing or
  // malformed key is left to openSession, which names it, also before any request.)
  const { desired } = loaded;
  const key = context.env[desired.apiKeyEnv];
  if (key !== undefined && key.trim() !== "" && describeMalformedKey(key) === undefined) {
    const run = {
      apiUrl: resolveApiUrl(args, desired, context.env),
      environment: desired.environment ?? null,
    };
    checkPlanBeforeConnecting(saved, run, desired, keyedDigest(key));
  }
  const session = await openSession(args, runContext(context, args), loaded);
  try {
    // The organization and environment the key reaches, read before any write.
    checkPlanTarget(saved, planTargetOf(session));
    const state = await readState(session.statePath, session.stateTarget);
    checkStateEnvironment(session.statePath, state, session.serverEnvironment);
    // Resolved afresh, never taken from the plan file: apply records them in the state file.
    const identifiers = await resolveSession(session, state);
    const organization = organizationOf(session);
    const refreshed = await refreshSavedPlan({
      saved,
      desired: session.desired,
      state,
      client: session.client,
      organization,
      ...environmentOption(session),
      masker: context.masker,
      keyed: session.keyed,
      protect: session.protect,
    });
    return {
      session,
      plan: withIdentifiers(refreshed.plan, identifiers),
      state,
      alreadyApplied: refreshed.alreadyApplied,
    };
  } catch (error) {
    await session.close();
    throw error;
  }
}

/** What the plan found before anything is sent: group bindings, settled intents, the environment. */
async function recordFindings(
  recorder: StateRecorder,
  session: Session,
  plan: Plan,
  /** The plan covers every resource of the config (no --target, not a saved plan). */
  complete: boolean,
): Promise<void> {
  const names = new Map(session.desired.resources.notificationGroup.map((g) => [g.spec.key, g.spec.name]));
  await recorder.recordPlanFindings(plan, names);
  await recorder.recordEnvironment(session.serverEnvironment, plan.bindings.identifiers);
  // Before anything is sent: the fields (and names) about to hold a value from the environment.
  const holds = secretHolder(session.desired.sensitive);
  const { state } = recorder;
  await recorder.recordHeldSecrets(
    heldSecretsBeforeApply(
      state.heldSecrets,
      session.desired,
      holds,
      complete ? plan : undefined,
      session.protect,
    ),
    secretValuesBeforeApply(state.secretValues, session.desired, holds, session.keyed),
  );
}

/** First Ctrl-C: start nothing new, let running actions finish. Second: abort them. */
async function runWithSignals(
  context: CommandContext,
  plan: Plan,
  args: ApplyArgs,
  run: (progress: ProgressView, stop: AbortSignal, abort: AbortSignal) => Promise<ApplyReport>,
): Promise<ApplyReport> {
  const progress =
    args.output === "json"
      ? silentProgress()
      : // listr2 draws in place: it needs a terminal that says how wide it is.
        context.terminal.isTTY && (context.terminal.width ?? 0) >= 40
        ? listrProgress(plan, (text) => visibleText(context.masker.mask(text)))
        : lineProgress((text) => context.terminal.err(text), plan.actions.length);
  return withStopSignals(
    context,
    "\nStopping: starting nothing new, finishing running actions (Ctrl-C again to abort them).\n",
    async (stop, abort) => {
      const report = await run(progress, stop, abort);
      await progress.done();
      return report;
    },
  );
}

/** Exit 3 whenever the server changed before a failure, including writes the state file missed. */
function exitCodeOf(report: ApplyReport, stateFailed: boolean): number {
  if (report.interrupted) return EXIT.interrupted;
  const unrecorded = report.results.filter((r) => r.error?.code === "STATE_WRITE_FAILED").length;
  // A create sent whose answer was lost may have changed the server too (not one the plan held
  // back as uncertain: that one was not sent).
  const maybeCreated = report.results.filter(
    (r) => r.error?.code === "CREATE_UNCERTAIN" && r.op !== "uncertain",
  ).length;
  const changed = report.counts.applied + unrecorded + maybeCreated > 0;
  if (report.counts.failed > 0 || stateFailed) return changed ? EXIT.partial : EXIT.error;
  return EXIT.ok;
}

function emptyReport(): ApplyReport {
  return { formatVersion: 1, results: [], counts: { applied: 0, failed: 0, skipped: 0 }, interrupted: false };
}
