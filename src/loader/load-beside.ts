// loadConfig on a worker thread, for a plan whose live reads run beside the load: parsing and
// validating a large config is CPU work that would otherwise hold up the answers to the reads
// on the main thread. The same result or error as loadConfig, with onParsed told each file's
// section counts as it parses, and told first a lower bound read from the root file's text
// (scanSectionCounts), so the reads start before the parse is done.
import { resolve } from "node:path";
import { Worker } from "node:worker_threads";
import { readBoundedFile } from "../bounded-file.js";
import { deserializeLoadError, type LoadFailure } from "../config/load-messages.js";
import type { DesiredState, LoadOptions } from "../config/model.js";
import { scanSectionCounts } from "../config/section-scan.js";
import type { Problem } from "../errors.js";
import { type PackedEntries, unpackEntries } from "./packed-entries.js";

type Message =
  | { type: "parsed"; counts: Map<string, number>; file: string }
  | { type: "entries"; kind: string; entries: unknown[] }
  | { type: "packed"; kind: string; packed: PackedEntries }
  | { type: "loaded"; result: { desired: DesiredState; warnings: Problem[] } }
  | { type: "failed"; error: LoadFailure };

export async function loadConfigBeside(
  options: LoadOptions & { onParsed: NonNullable<LoadOptions["onParsed"]> },
): Promise<{ desired: DesiredState; warnings: Problem[] }> {
  const { onParsed, ...rest } = options;
  const rootPath = resolve(rest.cwd, rest.configPath ?? "notiform.yaml");
  const told = new Set<string>();
  const loaded = new Promise<{ desired: DesiredState; warnings: Problem[] }>((resolve, reject) => {
    // Only what the load needs crosses over (the variables are read for ${VAR} interpolation).
    const worker = new Worker(new URL("./load-worker.js", import.meta.url), {
      workerData: { ...rest, vars: { ...rest.vars } },
    });
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
      void worker.terminate();
    };
    // The desired entries, by kind, as the parts arrive (see load-worker.ts).
    const parts = new Map<string, unknown[][]>();
    worker.on("message", (message: Message) => {
      if (message.type === "parsed") {
        told.add(message.file);
        onParsed(message.counts, message.file);
      } else if (message.type === "entries" || message.type === "packed") {
        const list = parts.get(message.kind) ?? [];
        list.push(message.type === "packed" ? unpackEntries(message.packed) : message.entries);
        parts.set(message.kind, list);
        worker.postMessage("next");
      } else if (message.type === "loaded") {
        const resources = message.result.desired.resources as unknown as Record<string, unknown[]>;
        for (const [kind, list] of parts) resources[kind] = list.flat();
        settle(() => resolve(message.result));
      } else settle(() => reject(deserializeLoadError(message.error)));
    });
    worker.on("error", (error) => settle(() => reject(error)));
    worker.on("exit", (code) =>
      settle(() => reject(new Error(`the config loader stopped (exit ${code}) before it answered`))),
    );
  });
  // Never an unhandled rejection while the scan below runs; the caller gets it from the return.
  loaded.catch(() => undefined);
  const read = await readBoundedFile(rootPath);
  if (read.ok && !told.has(rootPath)) onParsed(scanSectionCounts(read.bytes.toString("utf8")), rootPath);
  return loaded;
}
