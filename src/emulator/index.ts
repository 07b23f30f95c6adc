// The bundled emulator of the Notification Management API: a node:http server holding its data
// in memory (optionally loaded from and saved to a JSON file), serving the spec's 17 endpoints and
// the observed extensions, with seeded fault injection and a request log for tests and the
// benchmark. This module wires the pieces and owns the server's life; request handling is in
// pipeline.ts. It never prints or logs anything, and never writes a credential to disk.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { answerAdmin } from "./admin.js";
import { type FaultSettings, Faults, type ScriptedFault } from "./faults.js";
import type { Flavor } from "./handlers/context.js";
import { EMULATOR_ERROR_ID } from "./http-error.js";
import { sendJson } from "./http-io.js";
import { IdempotencyStore } from "./idempotency.js";
import { DataSaver, loadDataFile } from "./persistence.js";
import { answerApiRequest, type PipelineState, type RequestLogEntry } from "./pipeline.js";
import { checkSeed, combineSeeds, loadSeedFile, type Seed } from "./seed.js";
import { dataFromSeed } from "./seed-data.js";

export type { RequestLogEntry } from "./pipeline.js";

import { type EmulatorData, type EmulatorStore, type EnvironmentName, StoreIndex } from "./store.js";

export type { FaultSettings, ScriptedFault, ScriptedKind } from "./faults.js";
export type { Flavor } from "./handlers/context.js";
export type { Seed, SeedEnvironment } from "./seed.js";
export { checkSeed, loadSeedFile } from "./seed.js";
export type { EmulatorStore, EnvironmentName, Subscriber, Tenant } from "./store.js";

export interface EmulatorOptions {
  /** Default 0: any free port (the CLI's default is 4010). */
  port?: number;
  /** Default "127.0.0.1". */
  host?: string;
  /** A parsed seed; combined with seedFile, this one wins per section. */
  seed?: Seed;
  /** A YAML or JSON seed file (relative to the working directory). */
  seedFile?: string;
  /** Load the state from this JSON file when it exists; save to it after every write and on close. */
  dataFile?: string;
  /** Serve only the spec's 17 endpoints: extensions answer 404 "Cannot GET ...". */
  strictSpec?: boolean;
  /** "spec" (default): the spec's envelopes and statuses; "real": a real server's where they differ. */
  flavor?: Flavor;
  latencyMs?: number;
  jitterMs?: number;
  /** Share of requests answered 500/502/503/504 before handling. */
  errorRate?: number;
  /** Share of requests whose connection is destroyed before handling. */
  dropRate?: number;
  /** Share of writes handled (the state changes), then the connection destroyed without an answer. */
  lostResponseRate?: number;
  /** Token bucket; 429 over it, and RateLimit-* headers on every answer while set. */
  rateLimit?: { perSecond: number; burst?: number };
  /** Replay POST/PATCH answers for a repeated Idempotency-Key like the hosted service (default false). */
  honourIdempotencyKey?: boolean;
  /** Send each answer's body in two halves this many ms apart (client body timeouts). */
  slowBodyMs?: number;
  /** Seed of the PRNG behind every random fault: the same seed, the same faults. */
  faultSeed?: number;
  now?: () => Date;
}

export interface EmulatorHandle {
  /** e.g. http://127.0.0.1:PORT */
  url: string;
  port: number;
  /** The first development key of the seed. */
  apiKey: string;
  productionApiKey: string | undefined;
  /** Live log, one entry per API request (admin routes excluded). */
  requests: RequestLogEntry[];
  clearRequests(): void;
  setFaults(faults: Partial<FaultSettings>): void;
  injectFault(fault: ScriptedFault): void;
  /** The live records of an environment (default development), for tests to read or change. */
  store(environment?: EnvironmentName): EmulatorStore;
  close(): Promise<void>;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<EmulatorHandle> {
  const now = options.now ?? (() => new Date());
  const fileSeed = options.seedFile !== undefined ? await loadSeedFile(options.seedFile) : undefined;
  const seed = combineSeeds(fileSeed, options.seed);
  if (options.seed !== undefined) {
    // The seed option may lean on the file's records (an override of a seeded workflow).
    checkSeed(options.seed, "(seed option)", { references: false });
    checkSeed(
      seed,
      options.seedFile !== undefined ? `${options.seedFile} with the seed option` : "(seed option)",
    );
  }
  const seeded = (): EmulatorData => dataFromSeed(seed, now().toISOString());

  let data = seeded();
  const saver = options.dataFile !== undefined ? new DataSaver(options.dataFile) : undefined;
  if (options.dataFile !== undefined) {
    const saved = await loadDataFile(options.dataFile);
    if (saved !== undefined) {
      // Data files written before promotion existed hold no changes.
      const changes = (saved as Partial<typeof saved>).changes ?? [];
      data = { ...saved, changes, apiKeys: data.apiKeys, organization: data.organization };
    }
  }
  const indexes = new Map<EnvironmentName, StoreIndex>();
  const faults = new Faults(
    {
      latencyMs: options.latencyMs ?? 0,
      jitterMs: options.jitterMs ?? 0,
      errorRate: options.errorRate ?? 0,
      dropRate: options.dropRate ?? 0,
      lostResponseRate: options.lostResponseRate ?? 0,
      rateLimit: options.rateLimit,
    },
    options.faultSeed ?? 1,
    () => performance.now(),
  );
  const requests: RequestLogEntry[] = [];
  const state: PipelineState = {
    data: () => data,
    index: (environment) => {
      let index = indexes.get(environment);
      if (index === undefined) {
        index = new StoreIndex(data.environments[environment]);
        indexes.set(environment, index);
      }
      return index;
    },
    faults,
    requests,
    idempotency: options.honourIdempotencyKey === true ? new IdempotencyStore() : undefined,
    save: () => saver?.save(data),
    now,
    strictSpec: options.strictSpec === true,
    flavor: options.flavor ?? "spec",
    slowBodyMs: options.slowBodyMs ?? 0,
  };

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://emulator").pathname;
    const answer = path.startsWith("/__emulator/")
      ? answerAdmin(req, res, path, {
          requests,
          data: () => data,
          faultSettings: () => faults.settings,
          updateFaults: (settings) => faults.update(settings),
          injectFault: (fault) => faults.inject(fault),
          reset: () => {
            data = seeded();
            indexes.clear();
            requests.length = 0;
            state.save();
          },
        })
      : answerApiRequest(req, res, state);
    answer.catch((error: unknown) => {
      // A bug in the emulator: answer like a real server's unexpected failure, never hang.
      if (res.headersSent) res.destroy();
      // The real 500 shape (with an errorId), the message saying what failed in the emulator.
      else
        sendJson(res, 500, {
          statusCode: 500,
          timestamp: now().toISOString(),
          path: req.url ?? "/",
          message: `Emulator failure: ${error instanceof Error ? error.message : String(error)}`,
          errorId: EMULATOR_ERROR_ID,
        });
    });
  });
  server.keepAliveTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, options.host ?? "127.0.0.1", () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const keys = Object.entries(data.apiKeys);
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    apiKey: keys.find(([, env]) => env === "development")?.[0] ?? keys[0]?.[0] ?? "",
    productionApiKey: keys.find(([, env]) => env === "production")?.[0],
    requests,
    clearRequests: () => {
      requests.length = 0;
    },
    setFaults: (partial) => faults.update(partial),
    injectFault: (fault) => faults.inject(fault),
    store: (environment = "development") => {
      // The caller may change the records directly: lookups are rebuilt on next use.
      indexes.get(environment)?.invalidate();
      return data.environments[environment];
    },
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      state.save();
      await saver?.flush();
    },
  };
}
