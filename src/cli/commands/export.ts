// `notiform export`: write the live state as config files, to adopt notiform on an existing
// organization (src/pipeline/export.ts). Refuses to overwrite any file unless --force.
import { defineCommand } from "../command.js";
import { API_OPTIONS, CONFIG_OPTIONS, VERBOSE_OPTIONS } from "../common.js";
import { EXIT } from "../exit-codes.js";
import { runContext } from "../run-context.js";
import { schemaReference } from "../schema-reference.js";

export const exportCommand = defineCommand({
  command: "export",
  describe: "Write the live state as config files (bootstrap a repository)",
  builder: (yargs) =>
    yargs
      .options(CONFIG_OPTIONS)
      .options(API_OPTIONS)
      .options(VERBOSE_OPTIONS)
      .option("env", {
        type: "string",
        describe:
          "Export this environment of a config with several: its own topics, tenants and overrides under env/NAME/, the shared base (written by the first one), its entry in environments: and its state file",
      })
      .option("output", {
        alias: "o",
        choices: ["text", "json"] as const,
        default: "text" as const,
        describe: "json: errors as one JSON object on stdout (schemas/error.schema.json)",
      })
      .option("dir", {
        type: "string",
        default: ".",
        describe: "Directory to write notiform.yaml and its includes into",
      })
      .option("force", { type: "boolean", default: false, describe: "Overwrite files that already exist" }),
  run: async (args, context) => {
    // Loaded when run: export writes YAML, and no other command's start-up should compile that.
    const { runExport } = await import("../../pipeline/export.js");
    const summary = await runExport(args, runContext(context, args), schemaReference);
    context.terminal.err(summary);
    return EXIT.ok;
  },
});
