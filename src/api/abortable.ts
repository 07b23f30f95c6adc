// Waits that a Ctrl-C (the call's AbortSignal) ends at once: the injected sleep is raced with the
// signal, so an interrupted run never sits out a backoff, a rate-limit hold or a queue.
import { NotiformError } from "../errors.js";

export function interrupted(): NotiformError {
  return new NotiformError("INTERRUPTED", "the request was interrupted");
}

/** Sleep `ms`, or throw INTERRUPTED as soon as `signal` aborts (before or during the sleep). */
export async function abortableSleep(
  sleep: (ms: number) => Promise<void>,
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
    await Promise.race([sleep(ms), aborted]);
  } finally {
    if (onAbort) signal.removeEventListener("abort", onAbort);
  }
  if (signal.aborted) throw interrupted();
}
