// The pipeline's view of a command's context: notes go to stderr, the client's request log with
// --verbose, read progress where a person watches a terminal.
import { formatClientEvent, type RunContext } from "../pipeline/context.js";
import type { CommandContext } from "./command.js";
import { readProgress, wantsReadProgress } from "./read-progress.js";

export function runContext(
  context: CommandContext,
  args: { verbose?: boolean | undefined; output?: unknown },
): RunContext {
  const { terminal } = context;
  return {
    masker: context.masker,
    env: context.env,
    cwd: context.cwd,
    note: (text) => terminal.err(text),
    ...(args.verbose === true ? { log: (event) => terminal.err(`${formatClientEvent(event)}\n`) } : {}),
    ...(wantsReadProgress(terminal, args) ? { onPage: readProgress(terminal) } : {}),
  };
}
