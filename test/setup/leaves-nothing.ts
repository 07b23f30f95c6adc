// Each vitest worker runs its test files one after another in one process (vitest.config.ts,
// isolate: false), so what a file changes in the process would reach the files after it, and
// only in some orders. Run before each test file: it notes the process's environment and signal
// listeners, and fails the file that leaves either changed, or fake timers on, naming what.
import { afterAll, vi } from "vitest";

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP", "exit"] as const;
const environment = { ...process.env };
const listeners = SIGNALS.map((signal) => process.listenerCount(signal));

afterAll(() => {
  const names = new Set([...Object.keys(environment), ...Object.keys(process.env)]);
  const changed = [...names].filter((name) => environment[name] !== process.env[name]);
  const left = SIGNALS.filter((signal, i) => process.listenerCount(signal) !== listeners[i]);
  const problems = [
    ...(changed.length > 0 ? [`process.env changed: ${changed.join(", ")}`] : []),
    ...(left.length > 0 ? [`process listeners left on: ${left.join(", ")}`] : []),
    ...(vi.isFakeTimers() ? ["fake timers left on"] : []),
  ];
  if (problems.length > 0)
    throw new Error(`this test file leaves the process changed for the next one: ${problems.join("; ")}`);
});
