// Waits that a Ctrl-C (the call's AbortSignal) ends at once: the injected sleep is raced with the
// signal, so an interrupted run never sits out a backoff, a rate-limit hold or a queue.
import { NotiformError } from "../errors.js";

export function interrupted(): NotiformError {
  return new NotiformError("INTERRUPTED", "the request was interrupted");
}

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/**
 * The real sleep: a timer that an abort clears, so an interrupted run does not stay alive until a
 * long wait would have ended.
 */
export const timerSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });

/** Sleep `ms`, or throw INTERRUPTED as soon as `signal` aborts (before or during the sleep). */
export async function abortableSleep(
  sleep: Sleep,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  if (signal === undefined) return sleep(ms);
  if (signal.aborted) throw interrupted();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<void>((resolve) => {
    onAbort = () => resolve();
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    // The race also covers an injected sleep that ignores the signal.
    await Promise.race([sleep(ms, signal), aborted]);
  } finally {
    if (onAbort) signal.removeEventListener("abort", onAbort);
  }
  if (signal.aborted) throw interrupted();
}
