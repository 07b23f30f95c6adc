// Ctrl-C (and SIGTERM) during a run that changes the server (apply, promote): the first asks to
// start nothing new and let what runs finish, the second aborts requests in flight. The report
// and the state are written either way; the exit code is the caller's.
import type { CommandContext } from "./command.js";

export async function withStopSignals<T>(
  context: CommandContext,
  /** Said on the first signal. */
  stopping: string,
  run: (stop: AbortSignal, abort: AbortSignal) => Promise<T>,
): Promise<T> {
  const stop = new AbortController();
  const abort = new AbortController();
  const onSignal = () => {
    if (stop.signal.aborted) {
      abort.abort();
      return;
    }
    stop.abort();
    context.terminal.err(stopping);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    return await run(stop.signal, abort.signal);
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}
