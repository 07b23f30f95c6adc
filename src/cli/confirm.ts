// The confirmation before a command changes the server (apply, promote): only "yes" on a
// terminal goes ahead; without a terminal the command needs --auto-approve. Ctrl-C at the prompt
// exits 130 as any interrupt does, Ctrl-D (end of input) exits 1 as a "no" does.
import { NotiformError } from "../errors.js";
import type { CommandContext } from "./command.js";
import { PromptAborted } from "./terminal.js";

export interface ConfirmWording {
  /** "apply", "promote". */
  verb: string;
  question: string;
  /** What to do without a terminal. */
  hint: string;
  /** Said when the answer is not "yes". */
  cancelled: string;
}

export async function confirmOrRefuse(context: CommandContext, wording: ConfirmWording): Promise<void> {
  if (!context.terminal.stdinIsTTY) {
    throw new NotiformError(
      "NOT_CONFIRMED",
      `refusing to ${wording.verb} without confirmation: there is no terminal to ask`,
      { hint: wording.hint },
    );
  }
  const answer = await context.terminal.prompt(wording.question).catch((error: unknown) => {
    if (error instanceof PromptAborted)
      throw new NotiformError(error.code, "Aborted; nothing was applied", { cause: error });
    throw error;
  });
  if (answer.trim() !== "yes") throw new NotiformError("NOT_CONFIRMED", wording.cancelled);
}
