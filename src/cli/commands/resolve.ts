// `notiform resolve KIND/KEY --id ID | --not-created`: say what became of a create that an
// interrupted apply left in flight (an "uncertain" action in the plan). With --id the resource
// exists and is bound to that server id; with --not-created it does not, and the next apply may
// create it. Offline: it only edits the state file, under the apply lock, atomically.
import { NotiformError } from "../../errors.js";
import { resolveInterruptedCreate } from "../../pipeline/resolve.js";
import { defineCommand } from "../command.js";
import { CONFIG_OPTIONS, VERBOSE_OPTIONS } from "../common.js";
import { EXIT } from "../exit-codes.js";
import { runContext } from "../run-context.js";

export const resolveCommand = defineCommand({
  command: "resolve <resource>",
  describe: "Say what became of an interrupted create (an uncertain plan action): --id ID or --not-created",
  builder: (yargs) =>
    yargs
      .options(CONFIG_OPTIONS)
      .options(VERBOSE_OPTIONS)
      .positional("resource", {
        type: "string",
        demandOption: true,
        describe: "KIND/KEY, as the plan names it",
      })
      .option("id", { type: "string", describe: "It was created: the server id to bind it to" })
      .option("not-created", {
        type: "boolean",
        describe: "It was not created: let the next apply create it",
      })
      .option("state", {
        type: "string",
        describe: "State file (default: notiform[.ENV].state.json beside the config)",
      })
      .conflicts("id", "not-created")
      .check((argv) => {
        if (argv.id === undefined && argv["not-created"] !== true)
          throw new NotiformError("USAGE", "say which: --id ID (it exists) or --not-created (it does not)");
        return true;
      }),
  run: async (args, context) => {
    context.terminal.err(await resolveInterruptedCreate(args, runContext(context, args)));
    return EXIT.ok;
  },
});
