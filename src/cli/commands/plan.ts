// `notiform plan`: show what apply would change. Thin: parse flags, prepare the plan, hand it
// to a renderer, choose the exit code.
import { resolve } from "node:path";
import { preparePlan } from "../../pipeline/prepare-plan.js";
import { sealPlanContent } from "../../plan/key-plan-digests.js";
import { maskPlan } from "../../plan/mask-plan.js";
import { hasChanges } from "../../plan/model.js";
import { renderPlanJson } from "../../plan/render-json.js";
import { renderPlanMarkdown } from "../../plan/render-markdown.js";
import { changesMessages } from "../../plan/render-messages.js";
import { renderPlanText } from "../../plan/render-text.js";
import { defaultStatePath, writeFileAtomic } from "../../state/state-store.js";
import { defineCommand } from "../command.js";
import { API_OPTIONS, CONFIG_OPTIONS, PLAN_OPTIONS, VERBOSE_OPTIONS } from "../common.js";
import { EXIT } from "../exit-codes.js";
import { checkOutputDirectory, checkPlanOut, managedFiles } from "../plan-out.js";
import { runContext } from "../run-context.js";

export const planCommand = defineCommand({
  command: "plan",
  describe: "Show what apply would change (reads the API, writes nothing on the server)",
  builder: (yargs) =>
    yargs
      .options(CONFIG_OPTIONS)
      .options(API_OPTIONS)
      .options(VERBOSE_OPTIONS)
      .options(PLAN_OPTIONS)
      .option("output", {
        alias: "o",
        choices: ["text", "json", "markdown"] as const,
        default: "text" as const,
        describe: "text for people, json for machines (schemas/plan.schema.json), markdown for a PR comment",
      })
      .option("out", {
        type: "string",
        describe: "Also save the plan as JSON to this file (for `apply FILE`)",
      })
      .option("force", {
        type: "boolean",
        default: false,
        describe: "Let --out replace an existing file that is not a saved plan",
      })
      .option("commit", {
        type: "string",
        describe: "The commit to name in the markdown comment (default: $GITHUB_SHA)",
      })
      .option("detailed-exitcode", {
        type: "boolean",
        default: false,
        describe: "Exit 0 when there are no changes, 2 when there are, 1 on error",
      }),
  run: async (args, context) => {
    // Before any API call: a typo in --out should not cost a whole plan.
    if (args.out !== undefined) {
      const out = resolve(context.cwd, args.out);
      checkOutputDirectory(out, args.out, "plan");
      const config = resolve(context.cwd, args.config);
      const state =
        args.state !== undefined ? resolve(context.cwd, args.state) : defaultStatePath(config, args.env);
      await checkPlanOut(out, args.out, managedFiles(config, state), args.force);
    }
    const prepared = await preparePlan(args, runContext(context, args));
    const { session, plan } = prepared;
    try {
      // The renderer loads only for a comment on a plan that changes content.
      const messages =
        args.output === "markdown" && changesMessages(plan)
          ? await (await import("../../pipeline/plan-messages.js")).renderMessageChanges(
              prepared,
              context.masker,
            )
          : [];
      const visible = maskPlan(plan, context.masker);
      // As saved: masked, then sealed (the content digest covers what the file holds). Made only
      // when saved or shown, and once for both: sealing digests the whole unmanaged list.
      const json =
        args.out !== undefined || args.output === "json"
          ? renderPlanJson(sealPlanContent(visible, session.keyed), context.masker)
          : "";
      if (args.out !== undefined) await writeFileAtomic(resolve(context.cwd, args.out), json);
      if (args.output === "json") context.terminal.out(json);
      else if (args.output === "markdown")
        context.terminal.out(
          renderPlanMarkdown(visible, { commit: args.commit ?? context.env.GITHUB_SHA, messages }),
        );
      else
        context.terminal.out(
          renderPlanText(visible, { color: context.terminal.color && args.color, verbose: args.verbose }),
        );
      if (args.out !== undefined && args.output !== "json")
        context.terminal.err(`Saved the plan to ${args.out}\n`);
    } finally {
      await session.close();
    }
    return args["detailed-exitcode"] && hasChanges(plan) ? EXIT.changes : EXIT.ok;
  },
});
