// Ctrl-C (and SIGTERM, SIGHUP) during a run that changes the server (apply, promote): the first
// asks to start nothing new and let what runs finish, the second aborts requests in flight. The
// report and the state are written either way; the exit code is the caller's. A closed output
// (stdout or stderr whose reader went away) stops the run like a first signal: nobody is
// watching any more, and dying on the next write would leave writes unrecorded. A server the
// CLI runs until stopped (emulator, preview --serve) waits for the first signal instead.
import type { CommandContext } from "./command.js";
import { OUTPUT_CLOSED } from "./terminal.js";

/** The signals that end a run cleanly (SIGHUP: the terminal or SSH session went away). */
export const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

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
  const onClosed = () => {
    if (!stop.signal.aborted) stop.abort();
  };
  for (const name of STOP_SIGNALS) process.on(name, onSignal);
  process.on(OUTPUT_CLOSED, onClosed);
  try {
    return await run(stop.signal, abort.signal);
  } finally {
    for (const name of STOP_SIGNALS) process.off(name, onSignal);
    process.off(OUTPUT_CLOSED, onClosed);
  }
}

/**
 * Resolves on the first SIGINT or SIGTERM (Ctrl-C, or a supervisor stopping us), so a server the
 * command runs (emulator, preview --serve) is closed by its caller instead of the process dying.
 */
export function waitForStopSignal(): Promise<void> {
  return new Promise((done) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      done();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}
