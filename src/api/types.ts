// Transport-level types every endpoint call shares. The endpoints themselves, their wire types
// and the typed client are composed in src/kinds/ (src/kinds/client.ts).

/**
 * An endpoint a real server serves that the spec does not list (named as its client method);
 * each may be missing. The names are the kinds' (src/kinds/notification-api.ts): the transport
 * only learns and remembers them.
 */
export type Extension = string;

/** Whether the server serves an extension: known from a previous call, or not yet known. */
export type Capability = "supported" | "unsupported" | "unknown";

export interface RequestOptions {
  /** Abort the request (and its retries). */
  signal?: AbortSignal;
  /** Jump the limiter's queue: a page of a chain where each page waits on the one before. */
  urgent?: boolean;
}
