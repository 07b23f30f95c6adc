// The composition root of the CLI: parse argv with yargs, run one command, and decide the exit.
// This file is the ONE place that maps outcomes and typed errors to exit codes and messages;
// it sets process.exitCode and never calls process.exit, so pending output is flushed.
import yargs from "yargs";
import { ConfigError, isNotiformError, type NotiformError } from "../errors.js";
import { Masker } from "../mask.js";
import { terminalText } from "../sanitize.js";
import { VERSION } from "../version.js";
import { commands } from "./commands/index.js";
import { withCommonOptions } from "./common.js";
import { EXIT } from "./exit-codes.js";
import { createProcessTerminal, type Terminal } from "./terminal.js";

export { EXIT } from "./exit-codes.js";

/** What every command handler receives besides its parsed flags. */
export interface CommandContext {
  terminal: Terminal;
  /** Register secrets here (API key, interpolated values); every output is passed through it. */
  masker: Masker;
  /** Process environment (variables for interpolation and the API key). */
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
}

/** A command handler returns the exit code of its outcome; errors are thrown as NotiformError. */
export type CommandHandler<A> = (args: A, context: CommandContext) => Promise<number>;

export async function runMain(argv: string[]): Promise<void> {
  const masker = new Masker();
  const noColor = argv.includes("--no-color") || argv.includes("--color=false");
  const raw = createProcessTerminal({ noColor });
  const terminal: Terminal = {
    ...raw,
    // Mask first: escaping could turn a secret into a form the masker must then recognise.
    out: (text) => raw.out(terminalText(masker.mask(text), raw.color)),
    err: (text) => raw.err(terminalText(masker.mask(text), raw.color)),
    prompt: (question) => raw.prompt(terminalText(masker.mask(question), raw.color)),
  };
  const context: CommandContext = { terminal, masker, env: process.env, cwd: process.cwd() };
  const verbose = argv.includes("--verbose") || argv.includes("-v");
  let exitCode: number = EXIT.ok;

  try {
    let parser = withCommonOptions(yargs(argv))
      .scriptName("notiform")
      .version(VERSION)
      .usage(
        "$0 <command> [options]\n\nNotification configuration as code: plan and apply against a Novu-compatible API.",
      )
      .strict()
      .demandCommand(1, "Name a command (see --help).")
      .recommendCommands()
      .wrap(Math.min(110, process.stdout.columns ?? 110))
      .exitProcess(false)
      .fail((message, error) => {
        // yargs rethrows a failed flag check (coerce) as its own YError: a usage error too.
        if (error !== undefined && error !== null && error.name !== "YError") throw error;
        throw new UsageError(message ?? error?.message ?? "invalid usage");
      });
    for (const command of commands) {
      parser = parser.command(
        command.command,
        command.describe,
        command.builder,
        async (args: Record<string, unknown>) => {
          exitCode = await command.run(args, context);
        },
      );
    }
    await parser.parseAsync();
  } catch (error) {
    exitCode = reportError(error, terminal, verbose);
  }
  process.exitCode = exitCode;
}

class UsageError extends Error {}

/** Render a failure on stderr and choose its exit code. */
export function reportError(error: unknown, terminal: Terminal, verbose: boolean): number {
  if (error instanceof UsageError) {
    terminal.err(`error: ${error.message}\nRun with --help for usage.\n`);
    return EXIT.error;
  }
  if (error instanceof ConfigError) {
    terminal.err(formatConfigError(error));
    return EXIT.error;
  }
  if (isNotiformError(error)) {
    terminal.err(formatNotiformError(error, verbose));
    return error.code === "INTERRUPTED" ? EXIT.interrupted : EXIT.error;
  }
  const detail =
    error instanceof Error ? (verbose ? (error.stack ?? error.message) : error.message) : String(error);
  terminal.err(
    `internal error: ${detail}\nThis is a bug in notiform; please report it with the command you ran${verbose ? "" : " and its --verbose output"}.\n`,
  );
  return EXIT.error;
}

function formatConfigError(error: ConfigError): string {
  const lines = error.problems.map(
    (p) => `${p.pos.file}:${p.pos.line}:${p.pos.col}  ${p.severity}  ${p.message}`,
  );
  return `${lines.join("\n")}\n${error.message}\n`;
}

function formatNotiformError(error: NotiformError, verbose: boolean): string {
  const where = error.pos ? `${error.pos.file}:${error.pos.line}:${error.pos.col}  ` : "";
  let text = `error: ${where}${error.message}\n`;
  if (error.hint) text += `hint: ${error.hint}\n`;
  if (verbose && error.stack) text += `${error.stack}\n`;
  return text;
}
