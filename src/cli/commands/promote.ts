// `notiform promote [FILE]`: carry Development's pending changes to Production, reviewed like a
// plan. Thin: reads the environment and the pending changes, builds the Promotion (pure), shows
// or saves it, asks, applies it and maps the outcome to an exit code. Writes no state file, so
// it takes no apply lock. With --detailed-exitcode or --out it only previews.
import { resolve } from "node:path";
import type { Argv } from "yargs";
import { isNotiformError, NotiformError } from "../../errors.js";
import type { ApiClient } from "../../kinds/client.js";
import type { Change, Environment } from "../../kinds/endpoints/wire.js";
import { maskDeep } from "../../mask.js";
import { buildPromotion } from "../../promote/build-promotion.js";
import { executePromotion } from "../../promote/execute-promotion.js";
import { resolveManagedEntities } from "../../promote/managed.js";
import {
  labelOf,
  PROMOTION_FORMAT_VERSION,
  type Promotion,
  type PromotionReport,
  type PromotionTarget,
} from "../../promote/model.js";
import {
  renderPromotionJson,
  renderPromotionMarkdown,
  renderPromotionReportJson,
  renderPromotionReportText,
  renderPromotionText,
} from "../../promote/render.js";
import {
  checkPromotionFresh,
  checkPromotionManaged,
  checkPromotionTarget,
  readSavedPromotion,
} from "../../promote/saved-promotion.js";
import { readState, writeFileAtomic } from "../../state/state-store.js";
import { VERSION } from "../../version.js";
import { type ArgsOf, type CommandContext, defineCommand } from "../command.js";
import { API_OPTIONS, CONFIG_OPTIONS, VERBOSE_OPTIONS } from "../common.js";
import { confirmOrRefuse } from "../confirm.js";
import { EXIT } from "../exit-codes.js";
import { withStopSignals } from "../interrupts.js";
import { resolveSession } from "../prepare-plan.js";
import { openSession, type Session } from "../session.js";

const builder = (yargs: Argv) =>
  yargs
    .options(CONFIG_OPTIONS)
    .options(API_OPTIONS)
    .options(VERBOSE_OPTIONS)
    .positional("promotion", { type: "string", describe: "A promotion saved with `promote --out FILE`" })
    .option("all", {
      type: "boolean",
      default: false,
      describe: "Also promote pending changes of resources the config does not manage",
    })
    .option("output", {
      alias: "o",
      choices: ["text", "json", "markdown"] as const,
      default: "text" as const,
      describe:
        "text for people, json for machines (schemas/promotion.schema.json), markdown for a PR or release comment",
    })
    .option("out", {
      type: "string",
      describe: "Save the promotion as JSON to this file (for `promote FILE`); preview only",
    })
    .option("detailed-exitcode", {
      type: "boolean",
      default: false,
      describe: "Preview only: exit 0 when nothing is pending, 2 when Development is ahead of Production",
    })
    .option("auto-approve", {
      type: "boolean",
      default: false,
      describe: "Promote without asking (needed without a TTY)",
    })
    .option("state", {
      type: "string",
      describe: "State file (default: notiform[.ENV].state.json beside the config)",
    })
    // A preview never promotes, and a saved promotion is promoted as it was saved.
    .check((argv) => {
      const preview = argv["detailed-exitcode"] === true || argv.out !== undefined;
      if (preview && argv["auto-approve"] === true)
        throw new NotiformError(
          "USAGE",
          "--auto-approve cannot be used with --detailed-exitcode or --out: they only preview",
          {
            hint: "Preview first, then run `notiform promote --auto-approve` or `notiform promote FILE`.",
          },
        );
      if (argv.promotion !== undefined && (preview || argv.all === true))
        throw new NotiformError(
          "USAGE",
          "a saved promotion is promoted as saved: --out, --detailed-exitcode and --all do not apply to it",
        );
      return true;
    });

type PromoteArgs = ArgsOf<ReturnType<typeof builder>>;

export const promoteCommand = defineCommand({
  command: "promote [promotion]",
  describe: "Promote Development's pending changes of what the config manages to Production (real servers)",
  builder,
  run: async (args, context) => {
    const session = await openSession(args, context);
    try {
      const target = await promotionTarget(session);
      if (args.promotion !== undefined) return await promoteSaved(args, context, session, target);
      const promotion = await previewNow(args, context, session, target);
      const previewOnly = args["detailed-exitcode"] || args.out !== undefined;
      if (previewOnly)
        return args["detailed-exitcode"] && promotion.entries.length > 0 ? EXIT.changes : EXIT.ok;
      if (promotion.entries.length === 0) {
        if (args.output === "json") context.terminal.out(renderPromotionReportJson(emptyReport()));
        else context.terminal.err("Nothing to promote.\n");
        return EXIT.ok;
      }
      if (!args["auto-approve"]) await confirm(context);
      const report = await runPromotion(args, context, session, promotion);
      return exitCodeOf(report);
    } finally {
      await session.close();
    }
  },
});

/** The Development environment the key reaches; a Production key or a spec-only server is refused. */
async function promotionTarget(session: Session): Promise<PromotionTarget> {
  let environment: Environment;
  try {
    environment = await session.client.getCurrentEnvironment();
  } catch (error) {
    throw unsupported(error);
  }
  if (environment.name.toLowerCase() === "production") {
    throw new NotiformError(
      "WRONG_ENVIRONMENT",
      "promote needs the Development environment's key: this key reaches Production, which receives promotions and has none pending",
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

async function previewNow(
  args: PromoteArgs,
  context: CommandContext,
  session: Session,
  target: PromotionTarget,
): Promise<Promotion> {
  const state = await readState(session.statePath, session.target);
  await resolveSession(session, state);
  // Read everything before showing anything: an incomplete preview is never shown or applied.
  const [managed, changes] = await Promise.all([
    resolveManagedEntities(session.desired, state, session.client),
    listPending(session.client),
  ]);
  const promotion = buildPromotion({
    changes,
    managed,
    all: args.all,
    target,
    createdBy: `notiform ${VERSION}`,
    mask: (value) => maskDeep(value, context.masker),
  });
  // Values were masked as they were read; the config's own handles (keys) are masked here too.
  if (args.out !== undefined)
    await writeFileAtomic(
      resolve(context.cwd, args.out),
      renderPromotionJson(maskDeep(promotion, context.masker)),
    );
  show(args, context, promotion);
  if (args.out !== undefined && args.output !== "json")
    context.terminal.err(`Saved the promotion to ${args.out}\n`);
  return promotion;
}

/** Preview on stdout; when a JSON report follows (promoting with -o json), the text goes to stderr. */
function show(args: PromoteArgs, context: CommandContext, promotion: Promotion): void {
  const previewOnly = args["detailed-exitcode"] || args.out !== undefined;
  if (args.output === "json" && previewOnly) context.terminal.out(renderPromotionJson(promotion));
  else if (args.output === "json")
    context.terminal.err(renderPromotionText(promotion, { verbose: args.verbose }));
  else if (args.output === "markdown") context.terminal.out(renderPromotionMarkdown(promotion));
  else context.terminal.out(renderPromotionText(promotion, { verbose: args.verbose }));
}

/** `promote FILE`: the saved promotion, exactly, or nothing when a change it carries moved. */
async function promoteSaved(
  args: PromoteArgs,
  context: CommandContext,
  session: Session,
  target: PromotionTarget,
): Promise<number> {
  const saved = await readSavedPromotion(resolve(context.cwd, args.promotion ?? ""));
  checkPromotionTarget(saved, target);
  if (!saved.all) {
    // The file's own "managed" flags are not trusted: an edited file could add any change.
    const state = await readState(session.statePath, session.target);
    await resolveSession(session, state);
    checkPromotionManaged(saved, await resolveManagedEntities(session.desired, state, session.client));
  }
  const pending = await listPending(session.client);
  const pendingIds = new Set(pending.map((c) => c._id));
  const gone = saved.entries.some((e) => !pendingIds.has(e.changeId));
  const promotedIds = gone
    ? new Set((await session.client.listAllChanges({ promoted: true })).map((c) => c._id))
    : new Set<string>();
  const fresh = checkPromotionFresh(saved, pending, promotedIds, (value) => maskDeep(value, context.masker));
  const promotion: Promotion = { ...saved, entries: fresh.current };
  show(args, context, saved);
  const report = await runPromotion(args, context, session, promotion);
  const already = fresh.alreadyPromoted.map((entry) => ({
    changeId: entry.changeId,
    kind: entry.kind,
    label: labelOf(entry),
    status: "already-promoted" as const,
    reason: "promoted since the promotion was saved",
  }));
  const merged: PromotionReport = {
    ...report,
    results: [...already, ...report.results],
    counts: { ...report.counts, alreadyPromoted: report.counts.alreadyPromoted + already.length },
  };
  printReport(args, context, merged);
  return exitCodeOf(merged);
}

function confirm(context: CommandContext): Promise<void> {
  return confirmOrRefuse(context, {
    verb: "promote",
    question: "\nPromote these changes to Production? Only 'yes' is accepted: ",
    hint: "Pass --auto-approve (as CI does), or promote a reviewed file: notiform promote promotion.json",
    cancelled: "promotion cancelled; nothing was promoted",
  });
}

/** First Ctrl-C: start nothing new; second: abort requests in flight. Progress on stderr. */
async function runPromotion(
  args: PromoteArgs,
  context: CommandContext,
  session: Session,
  promotion: Promotion,
): Promise<PromotionReport> {
  return withStopSignals(
    context,
    "\nStopping: promoting nothing new (Ctrl-C again to abort requests in flight).\n",
    async (stop, abort) => {
      const report = await executePromotion({
        client: session.client,
        promotion,
        concurrency: args.concurrency,
        stopSignal: stop,
        abortSignal: abort,
        onEvent: (event) => {
          if (args.output === "json" || event.type !== "finish") return;
          const r = event.result;
          const status = r.status === "applied" ? "promoted" : r.status;
          context.terminal.err(`${status}: ${r.label}${r.error ? ` (${r.error.message})` : ""}\n`);
        },
      });
      if (args.promotion === undefined) printReport(args, context, report);
      return report;
    },
  );
}

function printReport(args: PromoteArgs, context: CommandContext, report: PromotionReport): void {
  context.terminal.out(
    args.output === "json" ? renderPromotionReportJson(report) : renderPromotionReportText(report),
  );
}

/** As for apply: 130 interrupted; 3 failures after something was promoted; 1 failures only. */
function exitCodeOf(report: PromotionReport): number {
  if (report.interrupted) return EXIT.interrupted;
  if (report.counts.failed > 0) return report.counts.applied > 0 ? EXIT.partial : EXIT.error;
  return EXIT.ok;
}

function emptyReport(): PromotionReport {
  return {
    formatVersion: PROMOTION_FORMAT_VERSION,
    results: [],
    counts: { applied: 0, alreadyPromoted: 0, failed: 0, skipped: 0 },
    interrupted: false,
  };
}
