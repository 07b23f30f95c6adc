// The worker side of loadConfigBeside (load-beside.ts): loads the config on its own thread and
// posts back each file's section counts as it parses, then the result or the error, as plain data.
// A large result goes back in parts, each after the main thread took the one before: one message
// of 15,000 entries would hold the main thread (and the answers of its reads) for ~60 ms. Each
// part's sources are packed (packed-entries.ts): cloned as objects, they were most of that time.
import { parentPort, workerData } from "node:worker_threads";
import { serializeLoadError } from "../config/load-messages.js";
import type { DesiredState, LoadOptions } from "../config/model.js";
import type { Problem } from "../errors.js";
import { loadConfig } from "./index.js";
import { packEntries } from "./packed-entries.js";

/** Entries per part. */
const PART = 1000;

const port = parentPort;
if (port === null) throw new Error("load-worker.js runs only as a worker thread");
const options = workerData as Omit<LoadOptions, "onParsed">;

/** Resolves when the main thread asks for the next part. */
function taken(): Promise<void> {
  return new Promise((resolve) => port?.once("message", () => resolve()));
}

async function answer(result: { desired: DesiredState; warnings: Problem[] }): Promise<void> {
  const resources: Record<string, unknown[]> = {};
  for (const [kind, entries] of Object.entries(result.desired.resources) as [string, unknown[]][]) {
    resources[kind] = [];
    for (let start = 0; start < entries.length; start += PART) {
      const part = entries.slice(start, start + PART);
      const packed = packEntries(part);
      port?.postMessage(
        packed === undefined ? { type: "entries", kind, entries: part } : { type: "packed", kind, packed },
      );
      await taken();
    }
  }
  port?.postMessage({ type: "loaded", result: { ...result, desired: { ...result.desired, resources } } });
}

loadConfig({
  ...options,
  onParsed: (counts, file) => port.postMessage({ type: "parsed", counts, file }),
}).then(answer, (error: unknown) => port.postMessage({ type: "failed", error: serializeLoadError(error) }));
