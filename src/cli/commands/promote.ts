// `notiform promote [FILE]`: carry Development's pending changes to Production, reviewed like a
// plan. Thin: reads the environment and the pending changes, builds the Promotion (pure), shows
// or saves it, asks, applies it and maps the outcome to an exit code. Writes no state file, so
// it takes no apply lock. With --detailed-exitcode, --out, or --output markdown without
// --auto-approve it only previews.
import { resolve } from "node:path";
import type { Argv } from "yargs";
import { NotiformError } from "../../errors.js";
import { maskDeep } from "../../mask.js";
import { withProductionDiff } from "../../pipeline/production.js";
import { preparePromotion, promotionTarget, refreshSavedPromotion } from "../../pipeline/promote.js";
import { openSession, type Session } from "../../pipeline/session.js";
import { executePromotion } from "../../promote/execute-promotion.js";
import { withholdPromotionSecrets } from "../../promote/held-secrets.js";
import {
  labelOf,
  PROMOTION_FORMAT_VERSION,
  type Promotion,
  type PromotionReport,
  type PromotionTarget,
} from "../../promote/model.js";
import { promotionAheadOfProduction } from "../../promote/production-diff.js";
import {
  renderPromotionJson,
  renderPromotionMarkdown,
  renderPromotionReportJson,
  renderPromotionReportText,
  renderPromotionText,
} from "../../promote/render.js";
import { checkPromotionTarget, readSavedPromotion } from "../../promote/saved-promotion.js";
import { writeFileAtomic } from "../../state/state-store.js";
import { type ArgsOf, type CommandContext, defineCommand } from "../command.js";
import { API_OPTIONS, CONFIG_OPTIONS, VERBOSE_OPTIONS } from "../common.js";
import { confirmOrRefuse } from "../confirm.js";
import { EXIT } from "../exit-codes.js";
import { withStopSignals } from "../interrupts.js";
import { checkOutputDirectory } from "../plan-out.js";
import { runContext } from "../run-context.js";

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
        "text for people; json for machines: the preview (schemas/promotion.schema.json) with --detailed-exitcode or --out, else the report of the promotion (schemas/promotion-result.schema.json); markdown for a PR or release comment",
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
    .option("production-env", {
      type: "string",
      default: "production",
      describe:
        "The config environment whose key reads Production, so the preview shows each workflow as a diff against Production",
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
    if (args.out !== undefined) checkOutputDirectory(resolve(context.cwd, args.out), args.out, "promotion");
    const session = await openSession(args, runContext(context, args));
    try {
      const target = await promotionTarget(session);
      if (args.promotion !== undefined) return await promoteSaved(args, context, session, target);
      const promotion = await previewNow(args, context, session, target);
      if (previewOnly(args)) {
        // A markdown preview (a pull request comment, a job summary) never prompts: like
        // --detailed-exitcode it exits 2 while changes are pending; with --out it saves, as always.
        const detailed = args["detailed-exitcode"] || (args.output === "markdown" && args.out === undefined);
        // Exit 2 only while Production lacks something: not for changes whose content it has.
        return detailed && promotionAheadOfProduction(promotion) ? EXIT.changes : EXIT.ok;
      }
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

async function previewNow(
  args: PromoteArgs,
  context: CommandContext,
  session: Session,
  target: PromotionTarget,
): Promise<Promotion> {
  const prepared = await preparePromotion(session, target, { all: args.all, masker: context.masker });
  // Production's old side of a field that held a secret the config no longer names: withheld.
  const promotion = withholdPromotionSecrets(
    await withProductionDiff(
      session,
      prepared.promotion,
      args,
      runContext(context, args),
      args["production-env"],
    ),
    prepared.state,
    session.keyed,
  );
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

/** Only a preview: --detailed-exitcode, --out, or a markdown rendering without --auto-approve. */
function previewOnly(args: PromoteArgs): boolean {
  const markdown = args.output === "markdown" && !args["auto-approve"] && args.promotion === undefined;
  return args["detailed-exitcode"] || args.out !== undefined || markdown;
}

/** Preview on stdout; when a JSON report follows (promoting with -o json), the text goes to stderr. */
function show(args: PromoteArgs, context: CommandContext, unmasked: Promotion): void {
  // Masked before it is rendered, as a plan is: markdown escapes a value (`|` as `\|` in a table
  // cell), a form the mask of the finished text does not know.
  const promotion = maskDeep(unmasked, context.masker);
  if (args.output === "json" && previewOnly(args)) context.terminal.out(renderPromotionJson(promotion));
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
  const fresh = await refreshSavedPromotion(session, saved, context.masker);
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
    // Masked before it is JSON, as apply's report is (a server's message quoting JSON).
    args.output === "json"
      ? renderPromotionReportJson(maskDeep(report, context.masker))
      : renderPromotionReportText(report),
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
