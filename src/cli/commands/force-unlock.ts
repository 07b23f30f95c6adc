// `notiform force-unlock`: remove the apply lock a crashed run left beside the state file. It
// needs no config to load and no API key: it only reads and removes `<state>.lock`, after
// saying who held it. On a terminal it asks first unless --force; without one it needs --force.
import { hostname } from "node:os";
import { resolve } from "node:path";
import { NotiformError } from "../../errors.js";
import { describeHolder, isProcessAlive, lockPathOf, readLock, removeLock } from "../../state/lock.js";
import { defaultStatePath } from "../../state/state-store.js";
import { type CommandContext, defineCommand } from "../command.js";
import { CONFIG_OPTIONS, VERBOSE_OPTIONS } from "../common.js";
import { EXIT } from "../exit-codes.js";
import { PromptAborted } from "../terminal.js";

export const forceUnlockCommand = defineCommand({
  command: "force-unlock",
  describe: "Remove the apply lock beside the state file after a crash (says who held it)",
  builder: (yargs) =>
    yargs
      .options(CONFIG_OPTIONS)
      .options(VERBOSE_OPTIONS)
      .option("state", {
        type: "string",
        describe: "State file whose lock to remove (default: notiform[.ENV].state.json beside the config)",
      })
      .option("force", {
        type: "boolean",
        default: false,
        describe: "Remove without asking (needed without a TTY)",
      }),
  run: async (args, context) => {
    const statePath =
      args.state !== undefined
        ? resolve(context.cwd, args.state)
        : defaultStatePath(resolve(context.cwd, args.config), args.env);
    const path = lockPathOf(statePath);
    const found = await readLock(statePath);
    if (found === null) {
      context.terminal.err(`No lock at ${path}; nothing to remove.\n`);
      return EXIT.ok;
    }
    const { info } = found;
    context.terminal.err(`The lock at ${path} is held by ${describeHolder(info)}.\n`);
    if (info !== undefined && info.host === hostname() && isProcessAlive(info.pid)) {
      context.terminal.err(
        "warning: that process is still running on this host; removing its lock lets another apply run beside it.\n",
      );
    }
    if (!args.force) await confirmRemoval(context);
    const removed = await removeLock(statePath);
    if (removed === null) context.terminal.err(`The lock at ${path} was already gone.\n`);
    else context.terminal.err(`Removed the lock held by ${describeHolder(removed.info)}.\n`);
    return EXIT.ok;
  },
});

async function confirmRemoval(context: CommandContext): Promise<void> {
  if (!context.terminal.stdinIsTTY) {
    throw new NotiformError(
      "NOT_CONFIRMED",
      "refusing to remove the lock without confirmation: there is no terminal to ask",
      {
        hint: "Pass --force once you are sure no apply is running on this state file.",
      },
    );
  }
  const answer = await context.terminal
    .prompt("Remove this lock? Only 'yes' is accepted: ")
    .catch((error: unknown) => {
      if (error instanceof PromptAborted)
        throw new NotiformError(error.code, "Aborted; the lock was left in place", { cause: error });
      throw error;
    });
  if (answer.trim() !== "yes") throw new NotiformError("NOT_CONFIRMED", "the lock was left in place");
}
