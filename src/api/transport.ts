// The one HTTP path of notiform: every call goes through `send` here. It owns the key (it is
// only ever put in the Authorization header), the User-Agent, JSON bodies, the Idempotency-Key
// of POSTs, timeouts, the shared adaptive limiter, retries with backoff, and the mapping of every
// failure to ApiError / NetworkError. It never logs a key or an access token.
import { randomUUID } from "node:crypto";
import { Agent } from "undici";
import { NotiformError } from "../errors.js";
import { ApiError, badResponse, NetworkError } from "./errors.js";
import { AdaptiveLimiter } from "./limiter.js";
import {
  backoffDelay,
  isRetryable,
  type Outcome,
  parseRetryAfter,
  type RetryOptions,
} from "./retry-policy.js";

export type ClientLogEvent =
  | { type: "request"; method: string; path: string; attempt: number }
  | { type: "response"; method: string; path: string; status: number; attempt: number; durationMs: number }
  | { type: "retry"; method: string; path: string; attempt: number; delayMs: number; reason: string }
  | { type: "limit"; limit: number; reason: string };

export interface ClientStats {
  requests: number;
  retries: number;
  rateLimited: number;
  failures: number;
  byMethod: Record<string, number>;
}

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  apiKeyEnv: string | undefined;
  concurrency: number;
  userAgent: string;
  retry: RetryOptions;
  timeouts: { connectMs: number; headersMs: number; bodyMs: number };
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  random: () => number;
  log: ((event: ClientLogEvent) => void) | undefined;
  maxBodyBytes: number;
}

export interface Call {
  /** The NotificationApi method name, carried into errors. */
  endpoint: string;
  method: "GET" | "POST" | "PUT" | "PATCH";
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** An observed extension: a missing route means "unsupported", not "not found". */
  extension?: boolean;
  /** Jump the limiter's queue: a step of a sequential chain others are waiting on. */
  urgent?: boolean;
  signal?: AbortSignal | undefined;
}

export interface Reply {
  status: number;
  json: unknown;
}

/** Connection failures that happen before a request is sent: retrying cannot duplicate it. */
const NOT_SENT = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
]);

export class Transport {
  readonly stats: ClientStats = { requests: 0, retries: 0, rateLimited: 0, failures: 0, byMethod: {} };
  private readonly agent: Agent;
  private readonly limiter: AdaptiveLimiter;
  private readonly origin: string;
  private readonly basePath: string;
  private readonly options: TransportOptions;

  constructor(options: TransportOptions) {
    this.options = options;
    const url = new URL(options.baseUrl);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, "");
    this.agent = new Agent({
      connections: Math.max(1, options.concurrency) * 2,
      keepAliveTimeout: 10_000,
      connect: { timeout: options.timeouts.connectMs },
      headersTimeout: options.timeouts.headersMs,
      bodyTimeout: options.timeouts.bodyMs,
    });
    this.limiter = new AdaptiveLimiter({
      max: options.concurrency,
      now: options.now,
      sleep: options.sleep,
      onChange: (event) => options.log?.({ type: "limit", ...event }),
    });
  }

  async send(call: Call): Promise<Reply> {
    const { method } = call;
    const path = `${this.basePath}${call.path}`;
    const query = encodeQuery(call.query);
    const headers: Record<string, string> = {
      authorization: `ApiKey ${this.options.apiKey}`,
      accept: "application/json",
      "user-agent": this.options.userAgent,
    };
    let body: string | undefined;
    if (call.body !== undefined) {
      body = JSON.stringify(call.body);
      headers["content-type"] = "application/json";
    }
    // One key per logical write, the same across its retries (honoured by some servers only).
    if (method === "POST") headers["idempotency-key"] = randomUUID();

    const started = this.options.now();
    for (let attempt = 1; ; attempt += 1) {
      if (call.signal?.aborted) throw interrupted();
      await this.limiter.acquire(call.urgent === true);
      let outcome: Outcome;
      let retryAfterMs: number | undefined;
      let failure: Error;
      const sentAt = this.options.now();
      this.stats.requests += 1;
      this.stats.byMethod[method] = (this.stats.byMethod[method] ?? 0) + 1;
      this.options.log?.({ type: "request", method, path: call.path, attempt });
      try {
        const response = await this.agent.request({
          origin: this.origin,
          path: `${path}${query}`,
          method,
          headers,
          ...(body !== undefined ? { body } : {}),
          ...(call.signal ? { signal: call.signal } : {}),
        });
        const status = response.statusCode;
        const header = (name: string) => headerValue(response.headers[name]);
        this.observeRateLimit(header("ratelimit-remaining"), header("ratelimit-reset"));
        const text = await readLimited(response.body, this.options.maxBodyBytes);
        this.options.log?.({
          type: "response",
          method,
          path: call.path,
          status,
          attempt,
          durationMs: this.options.now() - sentAt,
        });
        if (text === undefined) {
          throw badResponse(
            method,
            call.path,
            call.endpoint,
            status,
            `body larger than ${this.options.maxBodyBytes} bytes`,
          );
        }
        if (status < 400) {
          this.limiter.onSuccess();
          return { status, json: parseJson(text, method, call.path, call.endpoint, status) };
        }
        if (status === 429) {
          this.stats.rateLimited += 1;
          retryAfterMs = parseRetryAfter(header("retry-after"), Date.now());
          // Hold every start until the window resets; RateLimit-Reset is finer than Retry-After.
          const reset = Number(header("ratelimit-reset"));
          this.limiter.onRateLimited(
            Number.isFinite(reset) && header("ratelimit-reset") !== undefined ? reset * 1000 : retryAfterMs,
          );
        }
        outcome = { kind: "status", status };
        failure = this.apiError(call, status, text, attempt);
      } catch (error) {
        if (error instanceof ApiError || error instanceof NotiformError) throw error;
        if (call.signal?.aborted) throw interrupted();
        const code = errorCode(error);
        const sent = !NOT_SENT.has(code);
        outcome = { kind: "network", sent };
        failure = new NetworkError({
          method,
          path: call.path,
          endpoint: call.endpoint,
          baseUrl: this.options.baseUrl,
          attempts: attempt,
          mayHaveBeenApplied: sent && method !== "GET",
          reason: describeNetworkError(code, error),
          cause: error,
        });
      } finally {
        this.limiter.release();
      }
      const delay = backoffDelay(attempt, this.options.retry, this.options.random, retryAfterMs);
      const elapsed = this.options.now() - started;
      if (
        !isRetryable(method, outcome) ||
        attempt >= this.options.retry.maxAttempts ||
        elapsed + delay > this.options.retry.maxElapsedMs
      ) {
        this.stats.failures += 1;
        throw failure;
      }
      this.stats.retries += 1;
      this.options.log?.({
        type: "retry",
        method,
        path: call.path,
        attempt,
        delayMs: delay,
        reason: reasonOf(outcome),
      });
      await this.options.sleep(delay);
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  private observeRateLimit(remaining: string | undefined, reset: string | undefined): void {
    if (remaining === undefined || reset === undefined) return;
    const r = Number(remaining);
    const s = Number(reset);
    if (Number.isFinite(r) && Number.isFinite(s)) this.limiter.onRateLimitHeaders(r, s);
  }

  private apiError(call: Call, status: number, text: string, attempt: number): ApiError {
    const { message, validation } = serverMessageOf(text);
    return new ApiError({
      method: call.method,
      path: call.path,
      endpoint: call.endpoint,
      status,
      serverMessage: message,
      validation,
      attempts: attempt,
      // A 5xx to a write leaves it unknown whether the write happened; 4xx are refusals.
      mayHaveBeenApplied: call.method !== "GET" && status >= 500,
      extension: call.extension === true,
      ...(this.options.apiKeyEnv !== undefined ? { apiKeyEnv: this.options.apiKeyEnv } : {}),
    });
  }
}

function interrupted(): NotiformError {
  return new NotiformError("INTERRUPTED", "the request was interrupted");
}

function encodeQuery(query: Call["query"]): string {
  if (query === undefined) return "";
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text === "" ? "" : `?${text}`;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Read a body, giving up (undefined) past `limit` bytes rather than holding it all. */
async function readLimited(
  body: AsyncIterable<Buffer> & { destroy(): void },
  limit: number,
): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) {
      body.destroy();
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function parseJson(text: string, method: string, path: string, endpoint: string, status: number): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw badResponse(
      method,
      path,
      endpoint,
      status,
      `not JSON (starts with ${JSON.stringify(text.slice(0, 40))})`,
    );
  }
}

/** The server's message from an error body (`message` string or array), or the raw text. */
function serverMessageOf(text: string): { message: string; validation: boolean } {
  try {
    const parsed = JSON.parse(text) as { message?: unknown; error?: unknown };
    if (Array.isArray(parsed.message))
      return { message: parsed.message.map(String).join("; "), validation: true };
    if (typeof parsed.message === "string") return { message: parsed.message, validation: false };
    if (typeof parsed.error === "string") return { message: parsed.error, validation: false };
  } catch {
    // Not JSON: show the start of what came back.
  }
  const snippet = text.trim().slice(0, 200);
  return { message: snippet === "" ? "(no message)" : snippet, validation: false };
}

function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : "UNKNOWN";
}

function describeNetworkError(code: string, error: unknown): string {
  switch (code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "host not found";
    case "UND_ERR_CONNECT_TIMEOUT":
      return "timed out connecting";
    case "UND_ERR_HEADERS_TIMEOUT":
      return "timed out waiting for the response";
    case "UND_ERR_BODY_TIMEOUT":
      return "timed out reading the response";
    case "ECONNRESET":
    case "UND_ERR_SOCKET":
    case "EPIPE":
      return "the connection was closed before a response arrived";
    default:
      return error instanceof Error ? error.message : String(error);
  }
}

function reasonOf(outcome: Outcome): string {
  return outcome.kind === "status" ? `status ${outcome.status}` : "network error";
}
