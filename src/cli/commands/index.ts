// The command registry: one module per command, listed here and nowhere else.
import type { Argv } from "yargs";
import type { CommandContext } from "../main.js";
import { applyCommand } from "./apply.js";
import { emulatorCommand } from "./emulator.js";
import { exportCommand } from "./export.js";
import { forceUnlockCommand } from "./force-unlock.js";
import { planCommand } from "./plan.js";
import { promoteCommand } from "./promote.js";
import { validateCommand } from "./validate.js";
import { whoamiCommand } from "./whoami.js";

export interface Command {
  command: string;
  describe: string;
  // biome-ignore lint/suspicious/noExplicitAny: yargs builders refine argv types that the registry does not need to know.
  builder: (yargs: Argv<any>) => Argv<any>;
  // biome-ignore lint/suspicious/noExplicitAny: each command parses its own flags into a typed options object.
  run: (args: any, context: CommandContext) => Promise<number>;
}

export const commands: Command[] = [
  validateCommand,
  planCommand,
  applyCommand,
  promoteCommand,
  exportCommand,
  whoamiCommand,
  forceUnlockCommand,
  emulatorCommand,
];
