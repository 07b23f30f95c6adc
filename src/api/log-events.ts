// What the client reports to an optional `log` callback, and the counters behind stats(). An
// event never carries the API key or a header; a body in an event has been through
// redactForLog (accessToken fields read "********").
export type ClientLogEvent =
  | {
      type: "request";
      endpoint: string;
      method: string;
      path: string;
      attempt: number;
      /** The JSON body sent, redacted; absent for requests without a body. */
      body?: unknown;
    }
  | {
      type: "response";
      endpoint: string;
      method: string;
      path: string;
      status: number;
      attempt: number;
      durationMs: number;
      /** The parsed JSON answer, redacted; absent when empty or not JSON. */
      body?: unknown;
    }
  | {
      type: "retry";
      endpoint: string;
      method: string;
      path: string;
      attempt: number;
      delayMs: number;
      reason: string;
    }
  /** The shared concurrency limit changed (a 429 halved it, or successes grew it back). */
  | { type: "limit"; limit: number; reason: string }
  /** Starts are held back to respect the server's rate limit (Retry-After, RateLimit-*). */
  | { type: "hold"; delayMs: number; reason: string }
  /**
   * How the API is reached, when a proxy variable is set: through `proxy` (its URL without
   * credentials, from `variable`), or directly because NO_PROXY's entry `noProxy` matches.
   */
  | { type: "route"; origin: string; proxy: string; variable: string }
  | { type: "route"; origin: string; noProxy: string; variable: string };

/** Whole-list read progress: pages of one list read so far, of how many when the server says. */
export interface PageProgress {
  endpoint: string;
  /**
   * Which reading of the list this is: one list may be read twice at once (for its own kind and
   * for another kind that names its entries), and a view must not mix their counts.
   */
  list: number;
  read: number;
  /** Known from the first page's totalCount; undefined for lists that only say hasMore. */
  total: number | undefined;
  /** The list is read (or its reading failed). */
  done: boolean;
}

export interface ClientStats {
  /** Requests sent, retries included. */
  requests: number;
  /** Attempts after the first. */
  retries: number;
  /** 429 answers received. */
  rateLimited: number;
  /** Calls that finally failed (after their retries). */
  failures: number;
  /** Requests sent per HTTP method. */
  byMethod: Record<string, number>;
}

export function emptyStats(): ClientStats {
  return { requests: 0, retries: 0, rateLimited: 0, failures: 0, byMethod: {} };
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
    case "hold":
      return `holding new requests for ${Math.round(event.delayMs)} ms (${event.reason})`;
    case "route":
      return "proxy" in event
        ? `${event.origin} through the proxy ${event.proxy} (${event.variable})`
        : `${event.origin} directly: ${event.variable} lists ${event.noProxy}`;
  }
}
