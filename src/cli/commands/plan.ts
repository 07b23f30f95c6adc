// `notiform plan`: show what apply would change. Thin: parse flags, prepare the plan, hand it
// to a renderer, choose the exit code.
import { resolve } from "node:path";
import { maskDeep } from "../../mask.js";
import { hasChanges } from "../../plan/model.js";
import { renderPlanJson } from "../../plan/render-json.js";
import { renderPlanMarkdown } from "../../plan/render-markdown.js";
import { renderPlanText } from "../../plan/render-text.js";
import { writeFileAtomic } from "../../state/state-store.js";
import { defineCommand } from "../command.js";
import { API_OPTIONS, CONFIG_OPTIONS, PLAN_OPTIONS } from "../common.js";
import { EXIT } from "../exit-codes.js";
import { preparePlan } from "../prepare-plan.js";

export const planCommand = defineCommand({
  command: "plan",
  describe: "Show what apply would change (reads the API, writes nothing on the server)",
  builder: (yargs) =>
    yargs
      .options(CONFIG_OPTIONS)
      .options(API_OPTIONS)
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
      .option("detailed-exitcode", {
        type: "boolean",
        default: false,
        describe: "Exit 0 when there are no changes, 2 when there are, 1 on error",
      }),
  run: async (args, context) => {
    const { session, plan } = await preparePlan(args, context);
    try {
      if (args.out !== undefined)
        await writeFileAtomic(resolve(context.cwd, args.out), renderPlanJson(plan, context.masker));
      const visible = maskDeep(plan, context.masker);
      if (args.output === "json") context.terminal.out(renderPlanJson(plan, context.masker));
      else if (args.output === "markdown") context.terminal.out(renderPlanMarkdown(visible));
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
