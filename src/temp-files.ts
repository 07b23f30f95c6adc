// Temporary files of atomic writes (a file written beside its target, then renamed over it),
// removed when the run is stopped by a signal while one exists. Ctrl-C during `plan --out` or
// `export` otherwise left `.NAME.1a2b3c.tmp` files behind. Only where nothing else handles the
// signal: a run that stops gracefully on one (apply, promote: interrupts.ts) finishes its writes,
// so their temporary files are renamed as usual. A kill -9 cannot be handled; such a file is
// then left, named after its target and hidden, and harmless.
import { unlinkSync } from "node:fs";

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
const temps = new Set<string>();

function onSignal(signal: NodeJS.Signals): void {
  // Another listener stops the run gracefully: the write in flight completes and is renamed.
  if (process.listenerCount(signal) > 1) return;
  for (const temp of temps) {
    try {
      unlinkSync(temp);
    } catch {
      // Already renamed or removed.
    }
  }
  temps.clear();
  uninstall();
  // Then end as the signal would have ended the run (a shell reads 130 for Ctrl-C).
  process.kill(process.pid, signal);
}

function uninstall(): void {
  for (const signal of SIGNALS) process.off(signal, onSignal);
}

/** Run `write` with `temp` removed should a signal stop the run meanwhile. */
export async function withTempFile<T>(temp: string, write: () => Promise<T>): Promise<T> {
  if (temps.size === 0) for (const signal of SIGNALS) process.on(signal, onSignal);
  temps.add(temp);
  try {
    return await write();
  } finally {
    temps.delete(temp);
    if (temps.size === 0) uninstall();
  }
}
