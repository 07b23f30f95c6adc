// When to retry and how long to wait. Reads (GET) are retried on network errors, 429 and 500,
// 502, 503, 504: the real server answers 500 for transient faults, and a read has no effect to
// repeat. PUT/PATCH on network errors, 429, 502, 503 and 504, not 500: the write may have been
// done before the server failed. A POST only when no duplicate can result: a 429 (refused before any
// work) or a failure to connect (nothing was sent), unless the call says it is `repeatable`
// (applying a promotion change twice converges), then like a PUT. Backoff is exponential with full jitter,
// and the server's Retry-After (seconds or an HTTP date) wins when it asks for longer.
export interface RetryOptions {
  maxAttempts: number;
  maxElapsedMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = {
  maxAttempts: 5,
  maxElapsedMs: 60_000,
  baseDelayMs: 250,
  maxDelayMs: 10_000,
};

const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);
/** A read also retries 500: repeating it can change nothing, and the real server's transient faults are 500s. */
const READ_RETRYABLE_STATUS = new Set([...RETRYABLE_STATUS, 500]);
const READS = new Set(["GET", "HEAD"]);

export type Outcome = { kind: "status"; status: number } | { kind: "network"; sent: boolean };

/** `repeatable`: a POST whose repetition converges (applying a change twice), retried like a PUT. */
export function isRetryable(method: string, outcome: Outcome, repeatable = false): boolean {
  const idempotent = method !== "POST" || repeatable;
  if (outcome.kind === "network") return idempotent || !outcome.sent;
  if (outcome.status === 429) return true;
  if (READS.has(method)) return READ_RETRYABLE_STATUS.has(outcome.status);
  return idempotent && RETRYABLE_STATUS.has(outcome.status);
}

/** Delay before attempt `attempt + 1` (attempt is 1-based), honouring Retry-After. */
export function backoffDelay(
  attempt: number,
  options: RetryOptions,
  random: () => number,
  retryAfterMs: number | undefined,
): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  const jittered = Math.floor(random() * ceiling);
  return retryAfterMs === undefined ? jittered : Math.max(retryAfterMs, jittered);
}

/** Retry-After: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Longest hold a RateLimit-Reset may impose: beyond it the value is not what we think it is. */
const MAX_RESET_SECONDS = 3_600;

/**
 * RateLimit-Reset in seconds from now. The IETF draft (and the hosted service) send
 * delta-seconds; some servers send a Unix time instead, recognised by its size. Anything
 * unreadable, or more than an hour away, is ignored rather than obeyed.
 */
export function parseRateLimitReset(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  let seconds = Number(value.trim());
  if (!Number.isFinite(seconds) || seconds < 0) return undefined;
  if (seconds > 1_000_000_000) seconds = Math.max(0, seconds - nowMs / 1000);
  return seconds <= MAX_RESET_SECONDS ? seconds : undefined;
}
