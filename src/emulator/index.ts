// The bundled emulator of the Notification Management API: a node:http server holding its data
// in memory (optionally loaded from and saved to a JSON file), serving the spec's endpoints and
// the observed extensions, with seeded fault injection and a request log for tests and the
// benchmark. Admin routes under /__emulator/ (no auth; loopback use) expose the log and state.
import { readFile, rename, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type FaultSettings, Faults, type ScriptedFault } from "./faults.js";
import type { Flavor, HandlerContext } from "./handlers/context.js";
import { errorBody, HttpError } from "./http-error.js";
import { IdempotencyStore } from "./idempotency.js";
import { matchRoute } from "./routes.js";
import { combineSeeds, dataFromSeed, loadSeedFile, type Seed } from "./seed.js";
import { type EmulatorData, type EmulatorStore, type EnvironmentName, StoreIndex } from "./store.js";

export type { Seed, SeedEnvironment } from "./seed.js";
export { checkSeed, loadSeedFile } from "./seed.js";
export type { EmulatorStore } from "./store.js";

export interface EmulatorOptions {
  port?: number;
  host?: string;
  seed?: Seed;
  seedFile?: string;
  dataFile?: string;
  strictSpec?: boolean;
  flavor?: Flavor;
  latencyMs?: number;
  jitterMs?: number;
  errorRate?: number;
  dropRate?: number;
  lostResponseRate?: number;
  rateLimit?: { perSecond: number; burst?: number };
  /** Honour Idempotency-Key on POST/PATCH as the hosted service does (default true). */
  honourIdempotencyKey?: boolean;
  /** Send each answer's body in two halves this many ms apart (client body timeouts). */
  slowBodyMs?: number;
  faultSeed?: number;
  now?: () => Date;
}

export interface RequestLogEntry {
  method: string;
  path: string;
  /** null: the connection was dropped without an answer. */
  status: number | null;
  fault?: string;
  idempotencyKey?: string;
  /** performance.now() when the request arrived, and how long it took to answer. */
  at: number;
  durationMs?: number;
}

export interface EmulatorHandle {
  url: string;
  port: number;
  apiKey: string;
  productionApiKey: string | undefined;
  requests: RequestLogEntry[];
  clearRequests(): void;
  setFaults(faults: Partial<FaultSettings>): void;
  injectFault(fault: ScriptedFault): void;
  store(environment?: EnvironmentName): EmulatorStore;
  close(): Promise<void>;
}

const BODY_LIMIT = 100 * 1024;
const WORKFLOW_BODY_LIMIT = 20 * 1024 * 1024;

export async function startEmulator(options: EmulatorOptions = {}): Promise<EmulatorHandle> {
  const now = options.now ?? (() => new Date());
  const fileSeed = options.seedFile !== undefined ? await loadSeedFile(options.seedFile) : undefined;
  let data: EmulatorData = dataFromSeed(combineSeeds(fileSeed, options.seed), now().toISOString());
  if (options.dataFile !== undefined) {
    // The data file holds no credentials: keys and the organization come from the seed.
    const saved = await loadData(options.dataFile);
    if (saved !== undefined) data = { ...saved, apiKeys: data.apiKeys, organization: data.organization };
  }
  const indexes = new Map<EnvironmentName, StoreIndex>();
  const indexOf = (env: EnvironmentName) => {
    let index = indexes.get(env);
    if (index === undefined) {
      index = new StoreIndex(data.environments[env]);
      indexes.set(env, index);
    }
    return index;
  };
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
  const idempotency = new IdempotencyStore();
  const honour = options.honourIdempotencyKey ?? true;
  let saving = Promise.resolve();
  const save = () => {
    if (options.dataFile === undefined) return;
    const file = options.dataFile;
    const { apiKeys: _keys, organization: _organization, ...rest } = data;
    const text = `${JSON.stringify(rest)}\n`;
    saving = saving.then(async () => {
      await writeFile(`${file}.tmp`, text);
      await rename(`${file}.tmp`, file);
    });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, { statusCode: 500, message: String(error) });
    });
  });
  server.keepAliveTimeout = 30_000;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? "GET";
    const url = new URL(req.url ?? "/", "http://emulator");
    const path = url.pathname;
    const fullPath = `${path}${url.search}`;
    if (path.startsWith("/__emulator/")) return admin(req, res, path);

    const entry: RequestLogEntry = { method, path: fullPath, status: null, at: performance.now() };
    const idempotencyKey = header(req, "idempotency-key");
    if (idempotencyKey !== undefined) entry.idempotencyKey = idempotencyKey;
    requests.push(entry);

    const limit = path.startsWith("/v1/workflows") ? WORKFLOW_BODY_LIMIT : BODY_LIMIT;
    const raw = await readBody(req, limit);
    res.on("close", () => {
      entry.durationMs = performance.now() - entry.at;
    });
    const scope =
      honour && idempotencyKey !== undefined && (method === "POST" || method === "PATCH")
        ? `${header(req, "authorization") ?? ""} ${method} ${path} ${idempotencyKey}`
        : undefined;
    if (scope !== undefined) {
      const verdict = idempotency.begin(scope, raw ?? "");
      if (verdict.kind !== "new") {
        const timestamp = now().toISOString();
        const refuse = (error: HttpError) => {
          entry.status = error.status;
          send(res, error.status, errorBody(error, fullPath, timestamp), error.headers);
        };
        if (verdict.kind === "other-body")
          return refuse(new HttpError(422, "Idempotency-Key reused with another body"));
        if (verdict.kind === "in-flight") {
          return refuse(
            new HttpError(409, "A request with this Idempotency-Key is in progress", undefined, {
              "retry-after": "1",
            }),
          );
        }
        entry.status = verdict.status;
        res.writeHead(verdict.status, {
          "content-type": "application/json; charset=utf-8",
          "idempotency-replay": "true",
        });
        res.end(verdict.body);
        return;
      }
    }
    let settled: { status: number; body: string } | undefined;
    try {
      settled = await answerRequest(req, res, entry, method, url, path, fullPath, raw);
    } finally {
      if (scope !== undefined) idempotency.settle(scope, settled);
    }
  }

  /** Faults, authentication, routing and the handler; returns the answer a replay would repeat. */
  async function answerRequest(
    req: IncomingMessage,
    res: ServerResponse,
    entry: RequestLogEntry,
    method: string,
    url: URL,
    path: string,
    fullPath: string,
    raw: string | undefined,
  ): Promise<{ status: number; body: string } | undefined> {
    const delay = faults.delayMs();
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));

    const timestamp = now().toISOString();
    const fail = (error: HttpError): undefined => {
      entry.status = error.status;
      send(res, error.status, errorBody(error, fullPath, timestamp), error.headers);
      return undefined;
    };
    const rate = faults.rateLimit();
    if (rate !== undefined && !rate.allowed) {
      entry.fault = "rate-limit";
      return fail(
        new HttpError(429, "API rate limit exceeded", undefined, {
          ...rate.headers,
          "retry-after": String(rate.retryAfter),
        }),
      );
    }
    const extraHeaders = rate?.headers ?? {};
    const decision = faults.decide(method, path);
    if (decision.kind === "drop") {
      entry.fault = "drop";
      req.socket.destroy();
      return;
    }
    if (decision.kind === "status" && decision.body !== undefined) {
      entry.fault = "canned";
      entry.status = decision.status;
      send(res, decision.status, decision.body, extraHeaders);
      return undefined;
    }
    if (decision.kind === "status") {
      entry.fault = `status ${decision.status}`;
      const headers = decision.retryAfter !== undefined ? { "retry-after": String(decision.retryAfter) } : {};
      return fail(
        new HttpError(
          decision.status,
          decision.status === 500
            ? "Internal server error, contact support and provide them with the errorId"
            : "Service temporarily unavailable",
          undefined,
          headers,
        ),
      );
    }
    if (raw === undefined) return fail(new HttpError(413, "request entity too large"));

    const auth = header(req, "authorization");
    if (auth === undefined) return fail(new HttpError(401, "Missing authorization header"));
    const [scheme, key] = auth.split(" ");
    if (scheme !== "ApiKey")
      return fail(new HttpError(401, `Invalid authentication scheme: "${scheme ?? ""}"`));
    const environment = data.apiKeys[key ?? ""];
    if (environment === undefined) return fail(new HttpError(401, "API Key not found"));

    const matched = matchRoute(method, path, options.strictSpec === true);
    if (matched === undefined) return fail(new HttpError(404, `Cannot ${method} ${path}`));

    let body: unknown;
    if (raw !== "") {
      try {
        body = JSON.parse(raw);
      } catch {
        return fail(new HttpError(400, "Unexpected token in JSON body"));
      }
    }
    const context: HandlerContext = {
      data,
      store: data.environments[environment],
      index: indexOf(environment),
      params: matched.params,
      query: url.searchParams,
      body,
      flavor: options.flavor ?? "spec",
      now: timestamp,
      environment,
    };
    let answer: ReturnType<typeof matched.route.handler>;
    try {
      answer = matched.route.handler(context);
    } catch (error) {
      if (error instanceof HttpError) return fail(error);
      throw error;
    }
    if (answer.wrote) save();
    const text = JSON.stringify(answer.body);
    const settled = { status: answer.status, body: text };
    if (decision.kind === "lost-response") {
      // The write happened; the answer never arrives.
      entry.fault = "lost-response";
      req.socket.destroy();
      return settled;
    }
    entry.status = answer.status;
    res.writeHead(answer.status, { "content-type": "application/json; charset=utf-8", ...extraHeaders });
    const slow = options.slowBodyMs ?? 0;
    if (slow > 0 && text.length > 1) {
      res.write(text.slice(0, text.length >> 1));
      await new Promise((resolve) => setTimeout(resolve, slow));
      res.end(text.slice(text.length >> 1));
    } else {
      res.end(text);
    }
    return settled;
  }

  async function admin(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const raw = (await readBody(req, WORKFLOW_BODY_LIMIT)) ?? "";
    if (path === "/__emulator/requests" && req.method === "GET") return send(res, 200, requests);
    if (path === "/__emulator/requests" && req.method === "DELETE") {
      requests.length = 0;
      return send(res, 200, { ok: true });
    }
    if (path === "/__emulator/state" && req.method === "GET") return send(res, 200, publicState(data));
    if (path === "/__emulator/faults" && req.method === "POST") {
      const body = JSON.parse(raw || "{}") as Partial<FaultSettings> & { inject?: ScriptedFault };
      if (body.inject) faults.inject(body.inject);
      const { inject: _inject, ...settings } = body;
      faults.update(settings);
      return send(res, 200, faults.settings);
    }
    if (path === "/__emulator/reset" && req.method === "POST") {
      data = dataFromSeed(combineSeeds(fileSeed, options.seed), now().toISOString());
      indexes.clear();
      requests.length = 0;
      save();
      return send(res, 200, { ok: true });
    }
    return send(res, 404, {
      statusCode: 404,
      message: `Cannot ${req.method ?? "GET"} ${path}`,
      error: "Not Found",
    });
  }

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
      indexes.get(environment)?.invalidate();
      return data.environments[environment];
    },
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      save();
      await saving;
    },
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The body as text; undefined when it is larger than `limit` (answered 413). */
function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooBig = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooBig = true;
      else chunks.push(chunk);
    });
    req.on("end", () => resolve(tooBig ? undefined : Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
  res.end(JSON.stringify(body));
}

/** The state without credentials: API keys and partner access tokens stay out of dumps. */
function publicState(data: EmulatorData): unknown {
  const { apiKeys: _keys, ...rest } = data;
  const organization = {
    ...data.organization,
    partnerConfigurations: data.organization.partnerConfigurations?.map((p) => ({
      ...p,
      accessToken: "********",
    })),
  };
  return { ...rest, organization };
}

async function loadData(file: string): Promise<Omit<EmulatorData, "apiKeys" | "organization"> | undefined> {
  try {
    return JSON.parse(await readFile(file, "utf8")) as Omit<EmulatorData, "apiKeys" | "organization">;
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return undefined;
    throw error;
  }
}
