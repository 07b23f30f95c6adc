// `notiform validate`: offline check of the files, schema, references and interpolation.
// Exit 0 when valid (warnings allowed), 1 otherwise; every problem as `file:line:col  message`.

import { ConfigError } from "../../errors.js";
import { maskDeep } from "../../mask.js";
import { defineCommand } from "../command.js";
import { CONFIG_OPTIONS, VERBOSE_OPTIONS } from "../common.js";
import { errorReport } from "../error-report.js";
import { EXIT } from "../exit-codes.js";

export const validateCommand = defineCommand({
  command: "validate",
  describe: "Check the config offline: files, schema, references, interpolation",
  builder: (yargs) =>
    yargs
      .options(CONFIG_OPTIONS)
      .options(VERBOSE_OPTIONS)
      .option("output", {
        alias: "o",
        choices: ["text", "json"] as const,
        default: "text" as const,
        describe: "json: the problems as objects",
      }),
  run: async (args, context) => {
    // Loaded when run, with the YAML parser: no other command's start-up compiles the loader.
    const { renderValidateJson, renderValidateText, validateConfig, validateJsonDocument } = await import(
      "../../loader/validate-config.js"
    );
    const result = await validateConfig({
      configPath: args.config,
      // Without --env: the base and every environment layered over it.
      ...(args.env !== undefined ? { env: args.env } : { allEnvironments: true }),
      vars: context.env,
      cwd: context.cwd,
      allowIncludeOutside: args["allow-include-outside"],
    });
    context.masker.addAll(result.sensitive);
    if (args.output === "json" && !result.valid) {
      // An invalid config is a failure: besides its own fields (valid, problems, summary), the
      // document carries the error object every failing command prints (schemas/error.schema.json).
      const report = {
        ...validateJsonDocument(result),
        ...errorReport(new ConfigError(result.problems), false),
      };
      context.terminal.out(`${JSON.stringify(maskDeep(report, context.masker), null, 2)}\n`);
    } else if (args.output === "json") {
      context.terminal.out(renderValidateJson(result));
    } else {
      const { out, err } = renderValidateText(result);
      if (out !== "") context.terminal.out(out);
      if (err !== "") context.terminal.err(err);
    }
    return result.valid ? EXIT.ok : EXIT.error;
  },
});
