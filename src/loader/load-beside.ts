// loadConfig beside a plan's live reads. A large config loads on a worker thread: parsing and
// validating it is CPU work that would otherwise hold up the answers to the reads on the main
// thread. A small one loads here: a worker's start (a second Node.js instance, the loader
// compiled again, the answer packed and unpacked) costs more than such a parse. The same result
// or error as loadConfig either way, with onParsed told each file's section counts as it parses,
// and told first a lower bound read from the root file's text (scanSectionCounts), so the reads
// start before the parse is done.
import module from "node:module";
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

/**
 * The largest root file loaded on this thread, when it includes no other file. Measured on the
 * bench machine (2 cores, 20 ms a request), this thread against a worker, in mean plan times:
 * the content example (1.4 KB, templates in files) 288 ms against 334 ms; 50 topics (1.9 KB)
 * 216 ms against 255 ms; 30 workflows of two steps each (11 KB) 313 ms against 335 ms; 500
 * topics (19 KB) 301 ms against 305 ms. The worker pays off once the parse is long and the reads
 * do not wait for it: 800 topics (30 KB) 406 ms here against 396 ms on a worker. A config that
 * includes files may be any size: it always loads on a worker.
 */
export const IN_THREAD_MAX_BYTES = 16 * 1024;

/** Where a config was loaded: on a worker thread, or on the thread that reads (--verbose says). */
export type LoadedOn = "worker" | "thread";

export async function loadConfigBeside(
  options: LoadOptions & { onParsed: NonNullable<LoadOptions["onParsed"]> },
): Promise<{ desired: DesiredState; warnings: Problem[]; loadedOn: LoadedOn }> {
  const { onParsed, ...rest } = options;
  const rootPath = resolve(rest.cwd, rest.configPath ?? "notiform.yaml");
  const small = await smallRootText(rootPath);
  if (small !== undefined) {
    onParsed(scanSectionCounts(small), rootPath);
    // Imported only now: the loader (and the YAML parser) is not compiled by a start-up that
    // loads its config on a worker.
    const { loadConfig } = await import("./index.js");
    return { ...(await loadConfig({ ...rest, onParsed })), loadedOn: "thread" };
  }
  return { ...(await loadOnWorker(rootPath, rest, onParsed)), loadedOn: "worker" };
}

/**
 * The root file's text when it is small enough to load on this thread and names no include
 * (the word anywhere, comments too: a false alarm only costs the worker it would have had).
 * Undefined otherwise, and when it cannot be read: the worker's load reports that as it would.
 */
async function smallRootText(path: string): Promise<string | undefined> {
  // Refused unread (by its size) when larger: nothing of a large root file is read twice here.
  const read = await readBoundedFile(path, IN_THREAD_MAX_BYTES);
  if (!read.ok) return undefined;
  const text = read.bytes.toString("utf8");
  return text.includes("include") ? undefined : text;
}

/**
 * The module compile cache bin/notiform.js turned on (Node 22.1+) holds for this thread only: a
 * worker uses it when NODE_COMPILE_CACHE names a folder at its start (Node's documented way, with
 * the folder getCompileCacheDir names; the worker keeps a folder of its own inside it). Nothing on
 * a Node without it, or with it off (NODE_DISABLE_COMPILE_CACHE).
 */
function workerCompileCache(): { env: NodeJS.ProcessEnv } | Record<string, never> {
  const directory = (module as { getCompileCacheDir?: () => string | undefined }).getCompileCacheDir?.();
  return directory === undefined ? {} : { env: { ...process.env, NODE_COMPILE_CACHE: directory } };
}

async function loadOnWorker(
  rootPath: string,
  rest: Omit<LoadOptions, "onParsed">,
  onParsed: NonNullable<LoadOptions["onParsed"]>,
): Promise<{ desired: DesiredState; warnings: Problem[] }> {
  const told = new Set<string>();
  const loaded = new Promise<{ desired: DesiredState; warnings: Problem[] }>((resolve, reject) => {
    // Only what the load needs crosses over (the variables are read for ${VAR} interpolation).
    const worker = new Worker(new URL("./load-worker.js", import.meta.url), {
      workerData: { ...rest, vars: { ...rest.vars } },
      ...workerCompileCache(),
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
