// The composition root of the CLI: parse argv with yargs, run one command, and decide the exit.
// Errors become exit codes and messages in ONE place, reportError (error-report.ts), called only
// from here; this sets process.exitCode and never calls process.exit, so pending output is flushed.
import yargs from "yargs";
import { closest } from "../config/did-you-mean.js";
import { NotiformError } from "../errors.js";
import { Masker } from "../mask.js";
import { terminalText } from "../sanitize.js";
import { VERSION } from "../version.js";
import type { CommandContext } from "./command.js";
import { commands } from "./commands/index.js";
import { reportError } from "./error-report.js";
import { EXIT } from "./exit-codes.js";
import { epilogueOf, examplesOf } from "./help-text.js";
import { checkRawFlags, type DeclaredOptions } from "./raw-flags.js";
import { createProcessTerminal, type Terminal } from "./terminal.js";

export type { CommandContext, CommandHandler } from "./command.js";
export { reportError } from "./error-report.js";
export { EXIT } from "./exit-codes.js";

export async function runMain(argv: string[]): Promise<void> {
  const masker = new Masker();
  const noColor = argv.includes("--no-color") || argv.includes("--color=false");
  const raw = createProcessTerminal({ noColor });
  const terminal: Terminal = {
    ...raw,
    // Mask first: escaping could turn a secret into a form the masker must then recognise.
    out: (text) => raw.out(terminalText(masker.mask(text), raw.color)),
    err: (text) => raw.err(terminalText(masker.mask(text), raw.color)),
    status: (line) => raw.status(masker.mask(line)),
    prompt: (question) => raw.prompt(terminalText(masker.mask(question), raw.color)),
  };
  const context: CommandContext = { terminal, masker, env: process.env, cwd: process.cwd() };
  const verbose = argv.includes("--verbose") || argv.includes("-v");
  let exitCode: number = EXIT.ok;

  // The options of the command being run, once yargs knows them: an unknown flag is named
  // against these, as the user typed it (yargs' message adds its camelCase twin).
  let declared: DeclaredOptions | undefined;
  try {
    let parser = yargs(argv)
      .scriptName("notiform")
      .version(VERSION)
      .usage(
        "$0 <command> [options]\n\nNotification configuration as code: plan and apply against a Novu-compatible API.",
      )
      .strict()
      .demandCommand(1, "Name a command (see --help).")
      .recommendCommands()
      // Every command honours --no-color (the terminal reads it from argv, before parsing): each
      // accepts it, not only those that draw a plan.
      .option("color", {
        type: "boolean",
        default: true,
        global: true,
        describe: "Colour output on a TTY (--no-color to disable)",
      })
      // A flag that only works with another (preview --port without --serve): say which is missing.
      .updateStrings({ "Implications failed:": "a flag given needs another (given -> needed):" })
      .wrap(Math.min(110, process.stdout.columns ?? 110))
      .exitProcess(false)
      // Before validation, per command: its declared options are known by then.
      // yargs hands its instance as the second argument (not in @types/yargs 17).
      .middleware((...params: unknown[]) => {
        declared = declaredOptions(params[1]);
        checkRawFlags(argv, declared);
      }, true)
      .fail((message, error, usage) => {
        // yargs rethrows a failed flag check (coerce) as its own YError: a usage error too.
        if (error !== undefined && error !== null && error.name !== "YError") throw error;
        throw usageError(message ?? error?.message ?? "invalid usage", argv, [
          ...knownFlags(usage),
          ...namesOf(declared),
        ]);
      });
    for (const command of commands) {
      const name = command.command.split(" ")[0] ?? "";
      const builder = (y: Parameters<typeof command.builder>[0]) => {
        let built = command.builder(y);
        for (const [example, what] of examplesOf(name)) built = built.example(example, what);
        const epilogue = epilogueOf(name);
        return epilogue === "" ? built : built.epilogue(epilogue);
      };
      parser = parser.command(command.command, command.describe, builder, async (args) => {
        exitCode = await command.run(args, context);
      });
    }
    skipHelpCache(parser);
    await parser.parseAsync();
  } catch (error) {
    exitCode = reportError(error, context, { json: wantsJson(argv), verbose });
  }
  process.exitCode = exitCode;
}

/**
 * yargs renders the whole help text of the command it runs, synchronously, right after the
 * command's handler starts (usage.cacheHelpMessage, kept for a help screen after a failure):
 * 20 ms of text layout that held back every command's first request. notiform never shows help
 * once a command runs, so the render is skipped. Internal to yargs, hence looked up with care:
 * a yargs without it simply renders as before.
 */
function skipHelpCache(parser: unknown): void {
  type Usage = { cacheHelpMessage?: () => void };
  const internal = (parser as { getInternalMethods?: () => { getUsageInstance?: () => Usage } })
    .getInternalMethods?.()
    .getUsageInstance?.();
  if (typeof internal?.cacheHelpMessage === "function") internal.cacheHelpMessage = () => undefined;
}

/** The options yargs knows for the command being run (getOptions() is missing from @types/yargs 17). */
function declaredOptions(instance: unknown): DeclaredOptions {
  const options =
    (
      instance as {
        getOptions?: () => Partial<DeclaredOptions> & { choices?: Readonly<Record<string, unknown>> };
      }
    ).getOptions?.() ?? {};
  const typed = new Set([...(options.boolean ?? []), ...(options.number ?? []), ...(options.array ?? [])]);
  // A flag of a few choices (--output, --flavor) declared without a type takes one text value:
  // checked like any string flag, so `-o` with nothing after it, or given twice, is refused.
  const choices = Object.keys(options.choices ?? {}).filter((name) => !typed.has(name));
  return {
    string: [...(options.string ?? []), ...choices],
    boolean: options.boolean ?? [],
    array: options.array ?? [],
    number: options.number ?? [],
    alias: options.alias ?? {},
  };
}

/** A usage mistake; an unknown --flag gets the nearest flag the command knows as a hint. */
function usageError(message: string, argv: readonly string[], known: readonly string[]): NotiformError {
  const first = argv[0];
  const names = commands.map((c) => c.command.split(" ")[0] ?? "");
  if (first !== undefined && !first.startsWith("-") && !names.includes(first)) {
    const match = closest(first, names);
    return new NotiformError("USAGE", `unknown command "${first}"`, {
      hint: match !== undefined ? `did you mean \`notiform ${match}\`?` : `commands: ${names.join(", ")}`,
    });
  }
  const knownSet = new Set(known);
  const longs = known.filter((name) => name.length > 1 && !/[A-Z]/.test(name));
  const unknown: string[] = [];
  const hints: [string, string][] = [];
  for (const token of argv) {
    if (token === "--") break;
    const long = /^--(?:no-)?([^=]+)/.exec(token)?.[1];
    const short = long === undefined ? /^-([A-Za-z])/.exec(token)?.[1] : undefined;
    const name = long ?? short;
    if (name === undefined || knownSet.has(name)) continue;
    const shown = long !== undefined ? `--${token.slice(2).split("=")[0] ?? name}` : `-${name}`;
    if (unknown.includes(shown)) continue;
    unknown.push(shown);
    const match = long !== undefined ? closest(name, longs) : undefined;
    const negated = token.startsWith("--no-") ? "no-" : "";
    if (match !== undefined) hints.push([`--${negated}${match}`, shown]);
  }
  if (unknown.length > 0) {
    // Only what the user typed: yargs names each unknown flag twice (as typed and camelCased).
    return new NotiformError(
      "USAGE",
      `unknown option${unknown.length === 1 ? "" : "s"} ${unknown.join(", ")}`,
      {
        hint:
          hints.length === 0
            ? "see --help for the options of this command"
            : `did you mean ${hints.map(([match, typed]) => (unknown.length === 1 ? match : `${match} (for ${typed})`)).join(", ")}?`,
      },
    );
  }
  return new NotiformError("USAGE", message);
}

/** Every name and alias the command declares. */
function namesOf(options: DeclaredOptions | undefined): string[] {
  if (options === undefined) return [];
  return [
    ...options.string,
    ...options.boolean,
    ...options.array,
    ...options.number,
    ...Object.keys(options.alias),
    ...Object.values(options.alias).flat(),
  ];
}

/**
 * The long flags the failing command knows. yargs 18 passes its usage object as fail()'s third
 * argument (typed as Argv by @types/yargs 17); without it, no suggestion is made.
 */
function knownFlags(usage: unknown): string[] {
  const descriptions = (usage as { getDescriptions?: () => Record<string, unknown> }).getDescriptions;
  return typeof descriptions === "function" ? Object.keys(descriptions.call(usage)) : [];
}

/** `--output json` (in any spelling yargs accepts), read before parsing so usage errors honour it too. */
function wantsJson(argv: readonly string[]): boolean {
  for (const [i, token] of argv.entries()) {
    if (token === "--") break;
    if (token === "--output=json" || token === "-o=json" || token === "-ojson") return true;
    if ((token === "--output" || token === "-o") && argv[i + 1] === "json") return true;
  }
  return false;
}
