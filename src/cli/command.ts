// What a command is and what it receives: kept apart from main.ts so commands never import the
// composition root (no import cycle between main and the commands it registers).
import type { ArgumentsCamelCase, Argv } from "yargs";
import type { Masker } from "../mask.js";
import type { Terminal } from "./terminal.js";

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

/** The parsed flags of a builder, as yargs infers them (kebab-case and camelCase keys). */
export type ArgsOf<B> = B extends Argv<infer T> ? ArgumentsCamelCase<T> : never;

/** A command as the registry holds it: its argument types are erased once checked by defineCommand. */
export interface Command {
  command: string;
  describe: string;
  builder: (yargs: Argv) => Argv<unknown>;
  run: CommandHandler<unknown>;
}

/**
 * Declare a command: the handler's argument type is derived from the builder, so flags are
 * declared once (in the builder) and never redeclared as an interface.
 */
export function defineCommand<B extends Argv<unknown>>(spec: {
  command: string;
  describe: string;
  builder: (yargs: Argv) => B;
  run: CommandHandler<ArgsOf<B>>;
}): Command {
  return spec as unknown as Command;
}
