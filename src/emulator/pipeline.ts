// One API request, in the order a real server (and the network in front of it) would treat it:
// log it, read the body, (optionally) look up its Idempotency-Key, add latency, apply the rate
// limiter and the injected faults, refuse a too large body, match the route (an unknown route is
// 404 before authentication, as on a real server), authenticate, run the handler, answer or lose
// the answer. Handlers never see a request the faults decided to drop.
import type { IncomingMessage, ServerResponse } from "node:http";
import { nestsDeeperThan } from "../nesting.js";
import type { Faults } from "./faults.js";
import type { Flavor, HandlerContext } from "./handlers/context.js";
import { badRequest, errorBody, HttpError, internalError } from "./http-error.js";
import { header, JSON_TYPE, readBody, sendJson, sendText } from "./http-io.js";
import type { IdempotencyStore } from "./idempotency.js";
import { matchRoute } from "./routes.js";
import type { EmulatorData, EnvironmentName, StoreIndex } from "./store.js";

/** One request as the emulator log records it (the log lives here so index.ts can import it without a cycle). */
export interface RequestLogEntry {
  method: string;
  /** The path with its query string. */
  path: string;
  /** null: the connection was dropped without an answer. */
  status: number | null;
  fault?: string;
  idempotencyKey?: string;
  /** The JSON body the request carried, as parsed (for tests that compare what was sent). */
  body?: unknown;
  /** performance.now() when the request arrived, and how long it took to answer. */
  at: number;
  durationMs?: number;
}

export interface PipelineState {
  data(): EmulatorData;
  index(environment: EnvironmentName): StoreIndex;
  faults: Faults;
  requests: RequestLogEntry[];
  /** Present only when Idempotency-Key is honoured. */
  idempotency: IdempotencyStore | undefined;
  save(): void;
  now(): Date;
  strictSpec: boolean;
  flavor: Flavor;
  slowBodyMs: number;
}

const BODY_LIMIT = 100 * 1024;
const WORKFLOW_BODY_LIMIT = 20 * 1024 * 1024;
/**
 * How deep a body may nest (the body itself level 1): a real server's database stores no document
 * nested more than 100 levels, and a few thousand overflow the stack of whatever copies or diffs
 * the body, so the emulator refuses it whole before any handler runs. A config never comes near
 * it (src/nesting.ts: 80 levels with the document around it).
 */
const MAX_BODY_DEPTH = 100;

type Settled = { status: number; body: string } | undefined;

export async function answerApiRequest(
  req: IncomingMessage,
  res: ServerResponse,
  state: PipelineState,
): Promise<void> {
  const method = req.method ?? "GET";
  const url = new URL(req.url ?? "/", "http://emulator");
  const entry: RequestLogEntry = {
    method,
    path: `${url.pathname}${url.search}`,
    status: null,
    at: performance.now(),
  };
  const idempotencyKey = header(req, "idempotency-key");
  if (idempotencyKey !== undefined) entry.idempotencyKey = idempotencyKey;
  state.requests.push(entry);
  res.on("close", () => {
    entry.durationMs = performance.now() - entry.at;
  });

  const limit = url.pathname.startsWith("/v1/workflows") ? WORKFLOW_BODY_LIMIT : BODY_LIMIT;
  const raw = await readBody(req, limit);
  if (raw !== undefined && raw !== "") {
    try {
      entry.body = JSON.parse(raw);
    } catch {
      // Not JSON: the handler answers it; the log keeps no body.
    }
  }
  const scope =
    state.idempotency !== undefined &&
    idempotencyKey !== undefined &&
    (method === "POST" || method === "PATCH")
      ? `${header(req, "authorization") ?? ""} ${method} ${url.pathname} ${idempotencyKey}`
      : undefined;
  if (scope === undefined || state.idempotency === undefined) {
    await answerFresh(req, res, state, entry, url, raw);
    return;
  }
  const store = state.idempotency;
  const verdict = store.begin(scope, raw ?? "");
  if (verdict.kind === "new") {
    let settled: Settled;
    try {
      settled = await answerFresh(req, res, state, entry, url, raw);
    } finally {
      store.settle(scope, settled);
    }
    return;
  }
  const timestamp = state.now().toISOString();
  const refuse = (error: HttpError) => {
    entry.status = error.status;
    sendJson(res, error.status, errorBody(error, entry.path, timestamp), error.headers);
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
  sendText(res, verdict.status, verdict.body, { "idempotency-replay": "true" });
}

/** Faults, routing, authentication and the handler; returns the answer a replay would repeat. */
async function answerFresh(
  req: IncomingMessage,
  res: ServerResponse,
  state: PipelineState,
  entry: RequestLogEntry,
  url: URL,
  raw: string | undefined,
): Promise<Settled> {
  const { faults } = state;
  const method = entry.method;
  const path = url.pathname;
  const delay = faults.delayMs();
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));

  const timestamp = state.now().toISOString();
  const rate = faults.rateLimit();
  const rateHeaders = rate?.headers ?? {};
  const fail = (error: HttpError): undefined => {
    entry.status = error.status;
    sendJson(res, error.status, errorBody(error, entry.path, timestamp), {
      ...rateHeaders,
      ...error.headers,
    });
    return undefined;
  };
  if (rate !== undefined && !rate.allowed) {
    entry.fault = "rate-limit";
    return fail(
      new HttpError(429, "API rate limit exceeded", undefined, { "retry-after": String(rate.retryAfter) }),
    );
  }
  const decision = faults.decide(method, path);
  if (decision.kind === "drop") {
    entry.fault = "drop";
    req.socket.destroy();
    return undefined;
  }
  if (decision.kind === "status") {
    if (decision.body !== undefined) {
      entry.fault = "canned";
      entry.status = decision.status;
      sendJson(res, decision.status, decision.body, rateHeaders);
      return undefined;
    }
    entry.fault = `status ${decision.status}`;
    const retryAfter =
      decision.retryAfter !== undefined ? { "retry-after": String(decision.retryAfter) } : {};
    const message =
      decision.status === 500
        ? "Internal server error, contact support and provide them with the errorId"
        : decision.status === 429
          ? "API rate limit exceeded"
          : "Service temporarily unavailable";
    return fail(new HttpError(decision.status, message, undefined, retryAfter));
  }
  if (raw === undefined) return fail(new HttpError(413, "request entity too large"));

  let matched: ReturnType<typeof matchRoute>;
  try {
    matched = matchRoute(method, path, state.strictSpec);
  } catch (error) {
    // A path segment that is no valid percent-escape (/v1/topics/%E0%A4%A) cannot be decoded:
    // answered as a real server's crash, in its 500 shape, not as a failure of the emulator.
    if (error instanceof URIError) return fail(internalError());
    throw error;
  }
  if (matched === undefined) return fail(new HttpError(404, `Cannot ${method} ${path}`));

  const data = state.data();
  const auth = header(req, "authorization");
  if (auth === undefined || auth === "") return fail(new HttpError(401, "Missing authorization header"));
  const space = auth.indexOf(" ");
  const scheme = space < 0 ? auth : auth.slice(0, space);
  if (scheme !== "ApiKey") return fail(new HttpError(401, `Invalid authentication scheme: "${scheme}"`));
  const environment = data.apiKeys[auth.slice(space + 1).trim()];
  if (environment === undefined) return fail(new HttpError(401, "API Key not found"));

  let body: unknown;
  if (raw.trim() !== "") {
    try {
      body = JSON.parse(raw);
    } catch {
      return fail(new HttpError(400, "Unexpected token in JSON body"));
    }
    if (nestsDeeperThan(body, MAX_BODY_DEPTH))
      return fail(badRequest([`body must not be nested more than ${MAX_BODY_DEPTH} levels deep`]));
  }
  const context: HandlerContext = {
    data,
    store: data.environments[environment],
    index: state.index(environment),
    params: matched.params,
    query: url.searchParams,
    body,
    flavor: state.flavor,
    now: timestamp,
    environment,
  };
  let answer: Awaited<ReturnType<typeof matched.route.handler>>;
  try {
    answer = await matched.route.handler(context);
  } catch (error) {
    if (error instanceof HttpError) return fail(error);
    throw error;
  }
  if (answer.wrote === true) state.save();
  const text = JSON.stringify(answer.body);
  const settled = { status: answer.status, body: text };
  if (decision.kind === "lost-response") {
    // The write happened; the answer never arrives.
    entry.fault = "lost-response";
    req.socket.destroy();
    return settled;
  }
  entry.status = answer.status;
  res.writeHead(answer.status, { "content-type": JSON_TYPE, ...rateHeaders });
  if (state.slowBodyMs > 0 && text.length > 1) {
    res.write(text.slice(0, text.length >> 1));
    await new Promise((resolve) => setTimeout(resolve, state.slowBodyMs));
    res.end(text.slice(text.length >> 1));
  } else {
    res.end(text);
  }
  return settled;
}
