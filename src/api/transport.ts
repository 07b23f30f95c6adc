// The one HTTP path of notiform: every call goes through `send` here. It owns the key (only
// ever put in the Authorization header), the User-Agent, JSON bodies, the Idempotency-Key of
// POSTs, the shared adaptive limiter, retries with backoff, stats, log events, and the mapping
// of every failure to ApiError / NetworkError. It never logs a key, a header or an access token.
import { randomUUID } from "node:crypto";
import type { Masker } from "../mask.js";
import { visibleText } from "../sanitize.js";
import { abortableSleep, interrupted, type Sleep } from "./abortable.js";
import { ApiError, badResponse, htmlPage, NetworkError, parseErrorBody } from "./errors.js";
import { ConnectionPool, type Timeouts } from "./http-exchange.js";
import { AdaptiveLimiter, describeWait, parseRateLimitPolicy } from "./limiter.js";
import { type ClientLogEvent, type ClientStats, emptyStats } from "./log-events.js";
import { describeNetworkFailure, isTotalTimeout, wasNotSent } from "./network-failure.js";
import type { ProxyRoute } from "./proxy-route.js";
import { redactForLog } from "./redaction.js";
import {
  backoffDelay,
  isRetryable,
  type Outcome,
  parseRateLimitReset,
  parseRetryAfter,
  type RetryOptions,
} from "./retry-policy.js";

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  apiKeyEnv: string | undefined;
  concurrency: number;
  userAgent: string;
  retry: RetryOptions;
  timeouts: Timeouts;
  sleep: Sleep;
  now: () => number;
  random: () => number;
  log: ((event: ClientLogEvent) => void) | undefined;
  /** The proxy every request goes through (undefined: straight to the API). */
  proxy: ProxyRoute | undefined;
  maxBodyBytes: number;
  /** Most response bytes held over the whole run (every body of every call). */
  maxTotalBodyBytes: number;
  /** Longest wait the server may ask for (Retry-After, RateLimit-Reset); longer fails the call. */
  maxWaitMs: number;
  /** Holds at least the key; server text passes through it before it is cut or kept. */
  masker: Masker;
}

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH";

export interface Call {
  /** The NotificationApi method name, carried into errors and log events. */
  endpoint: string;
  method: HttpMethod;
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** An observed extension: a missing route means "unsupported", not "not found". */
  extension?: boolean;
  /** Jump the limiter's queue: a step of a sequential chain others are waiting on. */
  urgent?: boolean;
  /** A POST that may be sent twice with the same outcome: retried like a PUT (see retry-policy). */
  repeatable?: boolean;
  signal?: AbortSignal | undefined;
}

export interface Reply {
  status: number;
  /** Attempts it took (1 unless retried). */
  attempts: number;
  /** The parsed body; undefined when the body was empty. */
  json: unknown;
}

/** What one attempt came to, when it did not succeed. */
interface Failed {
  outcome: Outcome;
  /** For the retry log event: "status 503", "connection refused"... */
  reason: string;
  /** Trying again cannot help (an untrusted certificate, a proxy asking for credentials). */
  final?: boolean;
  error: ApiError | NetworkError;
  retryAfterMs: number | undefined;
}

export class Transport {
  readonly stats: ClientStats = emptyStats();
  /** Response body characters received so far, all calls together. */
  private bodyChars = 0;
  private readonly pool: ConnectionPool;
  private readonly limiter: AdaptiveLimiter;
  private readonly basePath: string;
  private readonly options: TransportOptions;

  constructor(options: TransportOptions) {
    this.options = options;
    const url = new URL(options.baseUrl);
    this.basePath = url.pathname.replace(/\/+$/, "");
    this.pool = new ConnectionPool(url.origin, options.concurrency, options.timeouts, options.proxy);
    this.limiter = new AdaptiveLimiter({
      max: options.concurrency,
      now: options.now,
      sleep: options.sleep,
      onChange: (event) => options.log?.({ type: "limit", ...event }),
      onHold: (event) => options.log?.({ type: "hold", ...event }),
      maxWaitMs: options.maxWaitMs,
    });
  }

  async send(call: Call): Promise<Reply> {
    const headers: Record<string, string> = {
      authorization: `ApiKey ${this.options.apiKey}`,
      accept: "application/json",
      "user-agent": this.options.userAgent,
    };
    const body = call.body === undefined ? undefined : JSON.stringify(call.body);
    if (body !== undefined) headers["content-type"] = "application/json";
    // One key per logical write, the same across its retries (honoured by some servers only).
    if (call.method === "POST") headers["idempotency-key"] = randomUUID();
    const path = `${this.basePath}${call.path}${encodeQuery(call.query)}`;

    const started = this.options.now();
    // Once one attempt may have reached the server, the write may have been applied, whatever
    // a later attempt meets (a refused connection, a 400): every error after it says so.
    let uncertain = false;
    for (let attempt = 1; ; attempt += 1) {
      if (call.signal?.aborted) throw interrupted();
      await this.limiter.acquire(call.urgent === true, {
        endpoint: call.endpoint,
        method: call.method,
        path: call.path,
        signal: call.signal,
      });
      let failed: Failed;
      try {
        const reply = await this.attempt(call, attempt, { path, headers, body }, uncertain);
        if ("json" in reply) return reply;
        failed = reply;
        uncertain ||= failed.error.mayHaveBeenApplied;
      } catch (error) {
        this.stats.failures += 1;
        throw error;
      } finally {
        this.limiter.release();
      }
      const delay = backoffDelay(attempt, this.options.retry, this.options.random, failed.retryAfterMs);
      const elapsed = this.options.now() - started;
      if (
        isRetryable(call.method, failed.outcome, call.repeatable === true) &&
        failed.retryAfterMs !== undefined &&
        failed.retryAfterMs > this.options.maxWaitMs
      ) {
        this.stats.failures += 1;
        throw this.waitRefused(call, failed, attempt);
      }
      if (
        failed.final === true ||
        !isRetryable(call.method, failed.outcome, call.repeatable === true) ||
        attempt >= this.options.retry.maxAttempts ||
        elapsed + delay > this.options.retry.maxElapsedMs
      ) {
        this.stats.failures += 1;
        throw failed.error;
      }
      this.stats.retries += 1;
      this.log({
        type: "retry",
        endpoint: call.endpoint,
        method: call.method,
        path: call.path,
        attempt,
        delayMs: delay,
        reason: failed.reason,
      });
      await abortableSleep(this.options.sleep, delay, call.signal);
    }
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  /** One request: a Reply on success, a Failed to maybe retry, or a throw that ends the call. */
  private async attempt(
    call: Call,
    attempt: number,
    wire: { path: string; headers: Record<string, string>; body: string | undefined },
    uncertain: boolean,
  ): Promise<Reply | Failed> {
    const { method, endpoint } = call;
    this.stats.requests += 1;
    this.stats.byMethod[method] = (this.stats.byMethod[method] ?? 0) + 1;
    this.log({
      type: "request",
      endpoint,
      method,
      path: call.path,
      attempt,
      ...(call.body !== undefined && this.options.log ? { body: this.redact(call.body) } : {}),
    });
    const sentAt = this.options.now();
    let result: Awaited<ReturnType<ConnectionPool["exchange"]>>;
    try {
      result = await this.pool.exchange(
        { method, ...wire, signal: call.signal, totalMs: this.options.timeouts.totalMs },
        this.options.maxBodyBytes,
      );
    } catch (error) {
      if (call.signal?.aborted) throw interrupted();
      const failure = isTotalTimeout(error)
        ? {
            sent: !wasNotSent(error),
            final: false,
            reason: `no complete response within ${this.options.timeouts.totalMs / 1000} s${wasNotSent(error) ? " (nothing was sent)" : ""}`,
          }
        : describeNetworkFailure(error, this.options.proxy);
      return {
        outcome: { kind: "network", sent: failure.sent },
        reason: failure.reason,
        final: failure.final,
        retryAfterMs: undefined,
        error: new NetworkError({
          method,
          path: call.path,
          endpoint,
          baseUrl: this.options.baseUrl,
          attempts: attempt,
          mayHaveBeenApplied: (failure.sent || uncertain) && method !== "GET",
          reason: failure.reason,
          ...(failure.hint !== undefined ? { hint: failure.hint } : {}),
          cause: error,
        }),
      };
    }
    const { status, header, text } = result;
    // Each body is capped, and so are the pages of a list, but a hostile server can still send
    // thousands of pages of tens of MB: held together they exhaust memory (a V8 abort, the lock
    // left behind). The run stops with a clear error instead.
    this.bodyChars += text?.length ?? 0;
    if (this.bodyChars > this.options.maxTotalBodyBytes)
      throw badResponse(
        { method, path: call.path, endpoint, status, attempts: attempt },
        `the server's answers in this run passed ${this.options.maxTotalBodyBytes} bytes in all; refusing to hold more`,
      );
    this.observeRateLimit(
      header("ratelimit-remaining"),
      header("ratelimit-reset"),
      header("ratelimit-policy"),
    );
    const json =
      status >= 200 && status < 300 && text !== undefined
        ? this.parse(call, status, text, attempt)
        : undefined;
    this.log({
      type: "response",
      endpoint,
      method,
      path: call.path,
      status,
      attempt,
      durationMs: this.options.now() - sentAt,
      ...(json !== undefined && this.options.log ? { body: this.redact(json) } : {}),
    });
    if (text === undefined) {
      throw badResponse(
        { method, path: call.path, endpoint, status, attempts: attempt },
        `body larger than ${this.options.maxBodyBytes} bytes`,
      );
    }
    if (status >= 200 && status < 300) {
      this.limiter.onSuccess();
      return { status, attempts: attempt, json };
    }
    const retryAfterMs = parseRetryAfter(header("retry-after"), Date.now());
    if (status === 429) {
      this.stats.rateLimited += 1;
      // Hold every start until the window resets; RateLimit-Reset is finer than Retry-After.
      const reset = parseRateLimitReset(header("ratelimit-reset"), Date.now());
      this.limiter.onRateLimited(reset !== undefined ? reset * 1000 : retryAfterMs);
    }
    return {
      outcome: { kind: "status", status },
      reason: `status ${status}`,
      retryAfterMs,
      error: this.apiError(call, status, text, attempt, uncertain),
    };
  }

  private parse(call: Call, status: number, text: string, attempt: number): unknown {
    if (text === "") return undefined;
    try {
      return JSON.parse(text);
    } catch {
      const at = { method: call.method, path: call.path, endpoint: call.endpoint, status, attempts: attempt };
      if (text.trimStart().startsWith("<")) throw htmlPage(at, this.options.baseUrl);
      // Mask before cutting: a cut secret is no longer recognisable as one.
      const start = this.options.masker.mask(text).slice(0, 40);
      throw badResponse(
        { method: call.method, path: call.path, endpoint: call.endpoint, status, attempts: attempt },
        `not JSON (starts with ${JSON.stringify(start)})`,
      );
    }
  }

  private observeRateLimit(
    remaining: string | undefined,
    reset: string | undefined,
    policy: string | undefined,
  ): void {
    if (remaining === undefined || remaining.trim() === "") return;
    const r = Number(remaining);
    const s = parseRateLimitReset(reset, Date.now());
    if (Number.isFinite(r) && s !== undefined)
      this.limiter.onRateLimitHeaders(r, s, parseRateLimitPolicy(policy));
  }

  private apiError(call: Call, status: number, text: string, attempt: number, uncertain: boolean): ApiError {
    // Masked as parseErrorBody reads it: a JSON body's message once parsed (masking the JSON text
    // could take half of an escape with a value ending in a backslash, so that it no longer parsed
    // and its raw text was shown, where a value quoted in JSON of the server's own is escaped
    // twice), other text before it is cut short.
    const { message, validation } = parseErrorBody(text, (part) => this.options.masker.mask(part));
    return new ApiError({
      method: call.method,
      path: call.path,
      endpoint: call.endpoint,
      status,
      // Server text is kept as text: control characters and escape sequences made visible.
      serverMessage: visibleText(message),
      validation,
      attempts: attempt,
      // A 5xx to a write leaves it unknown whether the write happened; 3xx/4xx are refusals.
      mayHaveBeenApplied: call.method !== "GET" && (status >= 500 || uncertain),
      extension: call.extension === true,
      ...(this.options.apiKeyEnv !== undefined ? { apiKeyEnv: this.options.apiKeyEnv } : {}),
    });
  }

  /** A retryable answer whose Retry-After is longer than the run may wait: fail, naming both. */
  private waitRefused(call: Call, failed: Failed, attempt: number): ApiError {
    const status = failed.outcome.kind === "status" ? failed.outcome.status : 0;
    return new ApiError(
      {
        method: call.method,
        path: call.path,
        endpoint: call.endpoint,
        status,
        serverMessage: `${describeWait(failed.retryAfterMs ?? 0, this.options.maxWaitMs, "Retry-After")} (${call.endpoint})`,
        validation: false,
        attempts: attempt,
        mayHaveBeenApplied: failed.error.mayHaveBeenApplied,
        extension: call.extension === true,
      },
      "API_WAIT_TOO_LONG",
    );
  }

  private redact(value: unknown): unknown {
    return redactForLog(value, this.options.apiKey);
  }

  private log(event: ClientLogEvent): void {
    this.options.log?.(event);
  }
}

function encodeQuery(query: Call["query"]): string {
  if (query === undefined) return "";
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text === "" ? "" : `?${text}`;
}
