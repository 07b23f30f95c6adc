// The worker side of loadConfigBeside (load-beside.ts): loads the config on its own thread and
// posts back each file's section counts as it parses, then the result or the error, as plain data.
import { parentPort, workerData } from "node:worker_threads";
import { loadConfig } from "./index.js";
import { serializeLoadError } from "./load-messages.js";
import type { LoadOptions } from "./model.js";

const port = parentPort;
if (port === null) throw new Error("load-worker.js runs only as a worker thread");
const options = workerData as Omit<LoadOptions, "onParsed">;
loadConfig({
  ...options,
  onParsed: (counts, file) => port.postMessage({ type: "parsed", counts, file }),
}).then(
  (result) => port.postMessage({ type: "loaded", result }),
  (error: unknown) => port.postMessage({ type: "failed", error: serializeLoadError(error) }),
);
