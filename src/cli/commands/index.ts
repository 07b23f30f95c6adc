// The command registry: one module per command, listed here and nowhere else.
import type { Command } from "../command.js";
import { applyCommand } from "./apply.js";
import { emulatorCommand } from "./emulator.js";
import { exportCommand } from "./export.js";
import { forceUnlockCommand } from "./force-unlock.js";
import { planCommand } from "./plan.js";
import { previewCommand } from "./preview.js";
import { promoteCommand } from "./promote.js";
import { resolveCommand } from "./resolve.js";
import { showCommand } from "./show.js";
import { validateCommand } from "./validate.js";
import { whoamiCommand } from "./whoami.js";

export const commands: Command[] = [
  validateCommand,
  planCommand,
  applyCommand,
  showCommand,
  promoteCommand,
  exportCommand,
  whoamiCommand,
  forceUnlockCommand,
  resolveCommand,
  previewCommand,
  emulatorCommand,
];
