// The API client's public face: createClient(options) -> ApiClient. Everything else in src/api
// is internal. The base URL must be HTTPS unless it is loopback (the emulator) or the user
// passed --insecure-http: the key travels in a header.
import { NotiformError } from "../errors.js";
import { VERSION } from "../version.js";
import { Client } from "./client.js";
import { DEFAULT_RETRY, type RetryOptions } from "./retry-policy.js";
import { type ClientLogEvent, type ClientStats, Transport } from "./transport.js";
import type { NotificationApi } from "./types.js";

export { ApiError, isUnchangedStatusError, NetworkError } from "./errors.js";
export type { ClientLogEvent, ClientStats } from "./transport.js";

export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  /** The variable the key came from, for hints (never the key). */
  apiKeyEnv?: string;
  concurrency?: number;
  insecureHttp?: boolean;
  userAgent?: string;
  retry?: Partial<RetryOptions>;
  timeouts?: { connectMs?: number; headersMs?: number; bodyMs?: number };
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  random?: () => number;
  log?: (event: ClientLogEvent) => void;
  /** Largest response body accepted (bytes). */
  maxBodyBytes?: number;
}

export interface ApiClient extends NotificationApi {
  readonly baseUrl: string;
  stats(): ClientStats;
  close(): Promise<void>;
}

export function createClient(options: ClientOptions): ApiClient {
  const url = checkBaseUrl(options.baseUrl, options.insecureHttp === true);
  const transport = new Transport({
    baseUrl: url,
    apiKey: options.apiKey,
    apiKeyEnv: options.apiKeyEnv,
    concurrency: Math.max(1, Math.floor(options.concurrency ?? 8)),
    userAgent: options.userAgent ?? `notiform/${VERSION} (node ${process.version})`,
    retry: { ...DEFAULT_RETRY, ...options.retry },
    timeouts: {
      connectMs: options.timeouts?.connectMs ?? 10_000,
      headersMs: options.timeouts?.headersMs ?? 30_000,
      bodyMs: options.timeouts?.bodyMs ?? 30_000,
    },
    sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    now: options.now ?? (() => performance.now()),
    random: options.random ?? Math.random,
    log: options.log,
    maxBodyBytes: options.maxBodyBytes ?? 50 * 1024 * 1024,
  });
  const client = new Client(transport) as Client & {
    baseUrl: string;
    stats(): ClientStats;
    close(): Promise<void>;
  };
  return Object.assign(client, {
    baseUrl: url,
    stats: () => structuredClone(transport.stats),
    close: () => transport.close(),
  });
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

function checkBaseUrl(raw: string, insecureHttp: boolean): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new NotiformError("USAGE", `the API URL ${JSON.stringify(raw)} is not a URL`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new NotiformError("USAGE", `the API URL must be https:// (got ${url.protocol})`);
  }
  if (url.protocol === "http:" && !insecureHttp && !LOOPBACK.test(url.hostname)) {
    throw new NotiformError("INSECURE_URL", `refusing to send the API key over plain http to ${url.host}`, {
      hint: "Use https://, or pass --insecure-http if you really mean it (e.g. a test server on your network).",
    });
  }
  return url.toString().replace(/\/+$/, "");
}

/** One readable line per client event, for --verbose. Carries no key and no body. */
export function formatClientEvent(event: ClientLogEvent): string {
  switch (event.type) {
    case "request":
      return `-> ${event.method} ${event.path}${event.attempt > 1 ? ` (attempt ${event.attempt})` : ""}`;
    case "response":
      return `<- ${event.status} ${event.method} ${event.path} ${Math.round(event.durationMs)} ms`;
    case "retry":
      return `retry ${event.method} ${event.path} after ${event.reason}, in ${Math.round(event.delayMs)} ms`;
    case "limit":
      return `concurrency now ${event.limit} (${event.reason})`;
  }
}
