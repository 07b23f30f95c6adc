// `notiform show plan.json`: render a saved plan offline, with the renderers `plan` uses. Needs
// no config, no API key and no network: it reads the file, checks it is a notiform plan (the same
// checks `apply plan.json` makes before anything else), and prints it. It never contacts a server.
import { resolve } from "node:path";
import { checkSavedPlanContent, readSavedPlan } from "../../apply/saved-plan.js";
import { NotiformError } from "../../errors.js";
import { maskPlan } from "../../plan/mask-plan.js";
import { hasChanges } from "../../plan/model.js";
import { renderPlanJson } from "../../plan/render-json.js";
import { renderPlanMarkdown } from "../../plan/render-markdown.js";
import { renderPlanText } from "../../plan/render-text.js";
import { defineCommand } from "../command.js";
import { VERBOSE_OPTIONS } from "../common.js";
import { EXIT } from "../exit-codes.js";

export const showCommand = defineCommand({
  command: "show <plan>",
  describe: "Show a plan saved with `plan --out FILE` (offline: no config, key or network needed)",
  builder: (yargs) =>
    yargs
      .positional("plan", {
        type: "string",
        demandOption: true,
        describe: "A plan saved with `plan --out FILE`",
      })
      .options(VERBOSE_OPTIONS)
      .option("output", {
        alias: "o",
        choices: ["text", "json", "markdown"] as const,
        default: "text" as const,
        describe: "text for people, json for machines (schemas/plan.schema.json), markdown for a PR comment",
      })
      .option("commit", {
        type: "string",
        describe: "The commit to name in the markdown comment (default: $GITHUB_SHA)",
      })
      .option("color", {
        type: "boolean",
        default: true,
        describe: "Colour output on a TTY (--no-color to disable)",
      })
      .option("detailed-exitcode", {
        type: "boolean",
        default: false,
        describe: "Exit 0 when the plan has no changes, 2 when it has, 1 on error",
      }),
  run: async (args, context) => {
    const plan = await readSavedPlan(resolve(context.cwd, args.plan));
    // The counts are recomputed from the actions; warnings and the unmanaged list are the file's
    // and can be checked only under the key the plan was made with.
    const content = checkSavedPlanContent(plan, context.env.NOTIFORM_API_KEY);
    if (content === "edited")
      throw new NotiformError(
        "PLAN_INVALID",
        `the plan ${args.plan} was edited: its summary, warnings or unmanaged list are not the ones notiform saved`,
        { hint: "Run `notiform plan --out FILE` again." },
      );
    if (content === "unchecked" && (plan.warnings.length > 0 || plan.unmanaged.length > 0))
      context.terminal.err(
        "note: the warnings and unmanaged resources below are as the plan file says; with the API key it was made with in NOTIFORM_API_KEY, show checks them (apply always does)\n",
      );
    // The file was masked when it was saved; masking again keeps `show` safe on a hand-made file.
    if (args.output === "json") context.terminal.out(renderPlanJson(plan, context.masker));
    else if (args.output === "markdown")
      context.terminal.out(
        renderPlanMarkdown(maskPlan(plan, context.masker), { commit: args.commit ?? context.env.GITHUB_SHA }),
      );
    else
      context.terminal.out(
        renderPlanText(maskPlan(plan, context.masker), {
          color: context.terminal.color && args.color,
          verbose: args.verbose,
        }),
      );
    return args["detailed-exitcode"] && hasChanges(plan) ? EXIT.changes : EXIT.ok;
  },
});
