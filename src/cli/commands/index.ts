// The command registry: one module per command, listed here and nowhere else.
import type { Argv } from "yargs";
import type { CommandContext } from "../main.js";

export interface Command {
  command: string;
  describe: string;
  // biome-ignore lint/suspicious/noExplicitAny: yargs builders refine argv types that the registry does not need to know.
  builder: (yargs: Argv<any>) => Argv<any>;
  // biome-ignore lint/suspicious/noExplicitAny: each command parses its own flags into a typed options object.
  run: (args: any, context: CommandContext) => Promise<number>;
}

export const commands: Command[] = [];
