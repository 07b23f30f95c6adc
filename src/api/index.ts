// The transport's public face: openConnection(options) -> Connection, the Requester every
// endpoint group sends through (the typed client is composed in src/kinds/client.ts). Everything
// else in src/api is internal. The base URL must be HTTPS unless it is loopback (the emulator) or the user
// passed --insecure-http: the key travels in a header. The key is handed to the transport and
// kept nowhere else. The environment (the CLI passes the process's) says which proxy, if any,
// the requests go through (proxy-route.ts); without it, none.

import { Masker } from "../mask.js";
import { VERSION } from "../version.js";
import { timerSleep } from "./abortable.js";
import { checkBaseUrl } from "./base-url.js";
import type { ClientLogEvent, ClientStats, PageProgress } from "./log-events.js";
import { routeFor } from "./proxy-route.js";
import { Requester } from "./requester.js";
import { DEFAULT_RETRY } from "./retry-policy.js";
import { Transport } from "./transport.js";

export { isInsecureUrl, isLoopbackHost } from "./base-url.js";
export { ApiError, NetworkError } from "./errors.js";
export type { ClientLogEvent, ClientStats, PageProgress } from "./log-events.js";
export { formatClientEvent } from "./log-events.js";
export { REDACTED, redactForLog } from "./redaction.js";

export const DEFAULT_MAX_WAIT_MS = 60_000;
export const DEFAULT_MAX_PAGES = 10_000;

export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  /** The variable the key came from, for hints (never the key). */
  apiKeyEnv?: string;
  /** Most requests in flight at once, shared by every call of this client (default 8). */
  concurrency?: number;
  /**
   * The variables that choose a proxy: HTTPS_PROXY, HTTP_PROXY, NO_PROXY (either case). The CLI
   * passes the process's environment; without it, requests go straight to the API.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /** Allow plain http to a non-loopback host. */
  insecureHttp?: boolean;
  /** Default `notiform/<version>`. */
  userAgent?: string;
  retry?: { maxAttempts?: number; maxElapsedMs?: number; baseDelayMs?: number; maxDelayMs?: number };
  /** Defaults 10 s / 30 s / 30 s per chunk of the body / 120 s for a whole exchange. */
  timeouts?: { connectMs?: number; headersMs?: number; bodyMs?: number; totalMs?: number; idleMs?: number };
  /** Longest wait a server may ask for (Retry-After, RateLimit-Reset); default 60 s. Longer fails. */
  maxWaitMs?: number;
  /** Most pages one whole-list read may take (default 10,000); more fails with API_PAGINATION. */
  maxPages?: number;
  /** Injected for tests: backoff and pacing sleep through this. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** A monotonic clock in ms (default performance.now). */
  now?: () => number;
  /** Jitter source in [0, 1) (default Math.random). */
  random?: () => number;
  log?: (event: ClientLogEvent) => void;
  /** Called after each page of a whole-list read (the CLI draws read progress from it). */
  onPage?: (progress: PageProgress) => void;
  /** Largest response body accepted, in bytes (default 50 MB). */
  maxBodyBytes?: number;
  /** Most response bytes held over the whole run, all calls together (default 256 MiB). */
  maxTotalBodyBytes?: number;
  /**
   * Secrets to mask out of server text before it is cut short or put into an error (the CLI's
   * masker: interpolated values, tokens). The key is always added.
   */
  masker?: Masker;
}

/** One server, one key: the requester the endpoints send through, and the bounds of whole-list reads. */
export interface Connection {
  readonly baseUrl: string;
  readonly requester: Requester;
  readonly bounds: { maxPages: number; lanes: number; onPage?: (progress: PageProgress) => void };
  stats(): ClientStats;
  close(): Promise<void>;
}

export function openConnection(options: ClientOptions): Connection {
  const baseUrl = checkBaseUrl(options.baseUrl, options.insecureHttp === true);
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 8) || 1);
  const maxWaitMs = Math.max(0, options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS);
  const origin = new URL(baseUrl).origin;
  const route = routeFor(new URL(origin), options.env ?? {});
  const masker = (options.masker ?? new Masker()).addCredential(options.apiKey);
  if ("proxy" in route) masker.addCredential(...route.proxy.secrets);
  if ("proxy" in route)
    options.log?.({ type: "route", origin, proxy: route.proxy.shown, variable: route.proxy.variable });
  else if (route.direct !== undefined)
    options.log?.({ type: "route", origin, noProxy: route.direct.noProxy, variable: route.direct.variable });
  const transport = new Transport({
    baseUrl,
    apiKey: options.apiKey,
    apiKeyEnv: options.apiKeyEnv,
    concurrency,
    userAgent: options.userAgent ?? `notiform/${VERSION}`,
    retry: {
      maxAttempts: Math.max(1, options.retry?.maxAttempts ?? DEFAULT_RETRY.maxAttempts),
      // A longer --max-wait lengthens a call's retry budget by as much, or it could never be used.
      maxElapsedMs:
        options.retry?.maxElapsedMs ??
        DEFAULT_RETRY.maxElapsedMs + Math.max(0, maxWaitMs - DEFAULT_MAX_WAIT_MS),
      baseDelayMs: options.retry?.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs,
      maxDelayMs: options.retry?.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs,
    },
    timeouts: {
      connectMs: options.timeouts?.connectMs ?? 10_000,
      headersMs: options.timeouts?.headersMs ?? 30_000,
      bodyMs: options.timeouts?.bodyMs ?? 30_000,
      totalMs: options.timeouts?.totalMs ?? 120_000,
      idleMs: options.timeouts?.idleMs ?? 4_000,
    },
    sleep: options.sleep ?? timerSleep,
    now: options.now ?? (() => performance.now()),
    random: options.random ?? Math.random,
    log: options.log,
    proxy: "proxy" in route ? route.proxy : undefined,
    maxBodyBytes: options.maxBodyBytes ?? 50 * 1024 * 1024,
    maxTotalBodyBytes: options.maxTotalBodyBytes ?? 256 * 1024 * 1024,
    maxWaitMs,
    masker,
  });
  return {
    baseUrl,
    requester: new Requester(transport),
    bounds: {
      maxPages: options.maxPages ?? DEFAULT_MAX_PAGES,
      // Twice the limit: a page waits in the limiter's queue for each slot (PageLimits.lanes).
      lanes: 2 * concurrency,
      ...(options.onPage !== undefined ? { onPage: options.onPage } : {}),
    },
    stats: () => structuredClone(transport.stats),
    close: () => transport.close(),
  };
}
