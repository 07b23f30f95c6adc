// `notiform validate`: offline check of the files, schema, references and interpolation.
// Exit 0 when valid (warnings allowed), 1 otherwise; every problem as `file:line:col  message`.
import { renderValidateJson, renderValidateText, validateConfig } from "../../config/validate-config.js";
import { EXIT } from "../exit-codes.js";
import type { Command } from "./index.js";

interface ValidateArgs {
  config: string;
  env: string | undefined;
  output: "text" | "json";
}

export const validateCommand: Command = {
  command: "validate",
  describe: "Check the config offline: files, schema, references, interpolation",
  builder: (yargs) =>
    yargs.option("output", {
      alias: "o",
      choices: ["text", "json"] as const,
      default: "text" as const,
      describe: "json: the problems as objects",
    }),
  run: async (args: ValidateArgs, context) => {
    const result = await validateConfig({
      configPath: args.config,
      // Without --env: the base and every environment layered over it.
      ...(args.env !== undefined ? { env: args.env } : { allEnvironments: true }),
      vars: context.env,
      cwd: context.cwd,
    });
    context.masker.addAll(result.sensitive);
    if (args.output === "json") {
      context.terminal.out(renderValidateJson(result));
    } else {
      const { out, err } = renderValidateText(result);
      if (out !== "") context.terminal.out(out);
      if (err !== "") context.terminal.err(err);
    }
    return result.valid ? EXIT.ok : EXIT.error;
  },
};
