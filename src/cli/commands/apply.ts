// `notiform apply [plan.json]`: make the server match the config. Thin: wires the plan (fresh
// or saved), the confirmation, the engine, the progress view and the report, and maps the
// outcome to an exit code.
import { resolve } from "node:path";
import type { Argv } from "yargs";
import { executePlan } from "../../apply/execute-plan.js";
import type { ApplyReport } from "../../apply/model.js";
import { lineProgress, listrProgress, type ProgressView, silentProgress } from "../../apply/progress.js";
import { renderReportJson, renderReportText } from "../../apply/render-report.js";
import { checkPlanTarget, readSavedPlan, refreshSavedPlan } from "../../apply/saved-plan.js";
import { StateRecorder } from "../../apply/state-recorder.js";
import { NotiformError } from "../../errors.js";
import { maskDeep } from "../../mask.js";
import type { Plan } from "../../plan/model.js";
import { renderPlanText } from "../../plan/render-text.js";
import type { StateFile } from "../../state/model.js";
import { readState } from "../../state/state-store.js";
import { type ArgsOf, type CommandContext, defineCommand } from "../command.js";
import { API_OPTIONS, CONFIG_OPTIONS, PLAN_OPTIONS, VERBOSE_OPTIONS } from "../common.js";
import { EXIT } from "../exit-codes.js";
import { preparePlan } from "../prepare-plan.js";
import { openSession, organizationOf, type Session } from "../session.js";

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
    });

type ApplyArgs = ArgsOf<ReturnType<typeof builder>>;

export const applyCommand = defineCommand({
  command: "apply [plan]",
  describe: "Make the server match the config (or apply a saved plan without prompting)",
  builder,
  run: async (args, context) => {
    const prepared = args.plan === undefined ? await planNow(args, context) : await loadSaved(args, context);
    if (prepared === undefined) return EXIT.ok;
    const { session, plan, state } = prepared;
    try {
      const recorder = new StateRecorder(state, session.statePath);
      const names = new Map(session.desired.notificationGroups.map((g) => [g.spec.key, g.spec.name]));
      await recorder.recordBindings(plan.bindings.notificationGroups, names);
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
      await recorder.persist();
      context.terminal.out(args.output === "json" ? renderReportJson(report) : renderReportText(report));
      return exitCodeOf(report);
    } finally {
      await session.close();
    }
  },
});

interface Prepared {
  session: Session;
  plan: Plan;
  state: StateFile;
}

/** Plan now, show it, and get a confirmation; undefined when there is nothing to do. */
async function planNow(args: ApplyArgs, context: CommandContext): Promise<Prepared | undefined> {
  const { session, plan, state } = await preparePlan(args, context);
  try {
    const visible = maskDeep(plan, context.masker);
    const show = renderPlanText(visible, {
      color: context.terminal.color && args.color,
      verbose: args.verbose,
    });
    if (args.output === "json") context.terminal.err(show);
    else context.terminal.out(show);
    if (plan.actions.length === 0) {
      const recorder = new StateRecorder(state, session.statePath);
      const names = new Map(session.desired.notificationGroups.map((g) => [g.spec.key, g.spec.name]));
      await recorder.recordBindings(plan.bindings.notificationGroups, names);
      if (args.output === "json") context.terminal.out(renderReportJson(emptyReport()));
      else context.terminal.out("No changes. Nothing to apply.\n");
      await session.close();
      return undefined;
    }
    if (!args["auto-approve"]) await confirm(context);
    return { session, plan, state };
  } catch (error) {
    await session.close();
    throw error;
  }
}

async function confirm(context: CommandContext): Promise<void> {
  if (!context.terminal.stdinIsTTY) {
    throw new NotiformError(
      "NOT_CONFIRMED",
      "refusing to apply without confirmation: there is no terminal to ask",
      {
        hint: "Pass --auto-approve (as CI does), or apply a reviewed plan file: notiform apply plan.json",
      },
    );
  }
  const answer = await context.terminal.prompt("\nApply these changes? Only 'yes' is accepted: ");
  if (answer.trim() !== "yes")
    throw new NotiformError("NOT_CONFIRMED", "apply cancelled; nothing was changed");
}

async function loadSaved(args: ApplyArgs, context: CommandContext): Promise<Prepared> {
  const saved = await readSavedPlan(resolve(context.cwd, args.plan ?? ""));
  const session = await openSession(args, context);
  try {
    checkPlanTarget(saved, session.target, session.desired);
    const state = await readState(session.statePath, session.target);
    const organization = organizationOf(session);
    const plan = await refreshSavedPlan({
      saved,
      desired: session.desired,
      state,
      client: session.client,
      organization,
      masker: context.masker,
    });
    return { session, plan, state };
  } catch (error) {
    await session.close();
    throw error;
  }
}

/** First Ctrl-C: start nothing new, let running actions finish. Second: abort them. */
async function runWithSignals(
  context: CommandContext,
  plan: Plan,
  args: ApplyArgs,
  run: (progress: ProgressView, stop: AbortSignal, abort: AbortSignal) => Promise<ApplyReport>,
): Promise<ApplyReport> {
  const stop = new AbortController();
  const abort = new AbortController();
  const onSignal = () => {
    if (stop.signal.aborted) {
      abort.abort();
      return;
    }
    stop.abort();
    context.terminal.err(
      "\nStopping: starting nothing new, finishing running actions (Ctrl-C again to abort them).\n",
    );
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  const progress =
    args.output === "json"
      ? silentProgress()
      : // listr2 draws in place: it needs a terminal that says how wide it is.
        context.terminal.isTTY && (context.terminal.width ?? 0) >= 40
        ? listrProgress(plan)
        : lineProgress((text) => context.terminal.err(text));
  try {
    const report = await run(progress, stop.signal, abort.signal);
    await progress.done();
    return report;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

function exitCodeOf(report: ApplyReport): number {
  if (report.interrupted) return EXIT.interrupted;
  if (report.counts.failed > 0) return report.counts.applied > 0 ? EXIT.partial : EXIT.error;
  return EXIT.ok;
}

function emptyReport(): ApplyReport {
  return { formatVersion: 1, results: [], counts: { applied: 0, failed: 0, skipped: 0 }, interrupted: false };
}
