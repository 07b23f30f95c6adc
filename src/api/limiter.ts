// One concurrency limit shared by every request of a run, adapting to the server: halved on
// each 429 (never below 1), grown back by one after a run of successes, and paced from the
// RateLimit-Remaining / RateLimit-Reset headers where the server sends them, so a run spends
// its budget evenly instead of running into 429s. The clock and sleep are injected. No wait is
// longer than `maxWaitMs` (a longer one fails the call with API_WAIT_TOO_LONG) and every wait,
// in the queue or for the pace, ends at once when the call's signal aborts.
import { NotiformError } from "../errors.js";
import { abortableSleep, interrupted, type Sleep } from "./abortable.js";

export interface LimiterOptions {
  max: number;
  now: () => number;
  sleep: Sleep;
  onChange?: (event: { limit: number; reason: string }) => void;
  /** New starts are held back for `delayMs` (a 429's Retry-After, or a spent RateLimit budget). */
  onHold?: (event: { delayMs: number; reason: string }) => void;
  /** Longest wait for the pace or a hold; a longer one fails instead (default: no limit). */
  maxWaitMs?: number;
}

/** A token bucket's refill, from RateLimit-Policy: `quota` tokens every `windowSeconds`. */
export interface RefillRate {
  quota: number;
  windowSeconds: number;
}

/**
 * RateLimit-Policy's first policy, e.g. `100;w=5;burst=110;comment="token bucket"`: 100
 * requests per 5 s. Undefined when absent or not understood.
 */
export function parseRateLimitPolicy(value: string | undefined): RefillRate | undefined {
  if (value === undefined) return undefined;
  const [head = "", ...params] = (value.split(",")[0] ?? "").split(";").map((p) => p.trim());
  const quota = Number(head);
  const window = params.find((p) => p.startsWith("w="));
  const windowSeconds = Number(window?.slice(2));
  if (!(quota > 0 && windowSeconds > 0 && Number.isFinite(quota) && Number.isFinite(windowSeconds)))
    return undefined;
  return { quota, windowSeconds };
}

/** Who is waiting: named in the error when the wait would be too long. */
export interface Waiter {
  endpoint: string;
  method: string;
  path: string;
  signal?: AbortSignal | undefined;
}

export class AdaptiveLimiter {
  private readonly max: number;
  private limit: number;
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private successes = 0;
  /** No request starts before this time (ms, from `now`). */
  private notBefore = 0;
  /** Minimum spacing between starts while pacing (ms); 0 = no pacing. */
  private spacing = 0;
  private lastStart = 0;
  /** Why starts are held (for the error when a hold is too long to sit out). */
  private holdReason = "";
  private readonly options: LimiterOptions;

  constructor(options: LimiterOptions) {
    this.options = options;
    this.max = Math.max(1, Math.floor(options.max));
    this.limit = this.max;
  }

  get current(): number {
    return this.limit;
  }

  /**
   * Wait for a slot (and for the pace); the caller must call release() exactly once.
   * `urgent` requests go to the front of the queue: a chain of dependent requests (the next page
   * of a list whose length is unknown) would otherwise wait behind a whole fan-out at each step.
   */
  async acquire(urgent = false, waiter?: Waiter): Promise<void> {
    const signal = waiter?.signal;
    if (signal?.aborted) throw interrupted();
    if (this.active < this.limit) this.active += 1;
    // When woken, the slot has already been counted for this waiter (see wake()).
    else await this.queue(urgent, signal);
    try {
      await this.pace(waiter);
    } catch (error) {
      // The slot was taken but no request will be sent: hand it on.
      this.release();
      throw error;
    }
  }

  release(): void {
    this.active -= 1;
    this.wake();
  }

  /** A 429: halve the limit, and hold every start until the server's Retry-After has passed. */
  onRateLimited(retryAfterMs: number | undefined): void {
    const next = Math.max(1, Math.floor(this.limit / 2));
    if (next !== this.limit) {
      this.limit = next;
      this.options.onChange?.({ limit: next, reason: "429 from the server" });
    }
    this.successes = 0;
    if (retryAfterMs !== undefined) this.hold(retryAfterMs, "429 from the server");
  }

  /** A success: after enough of them in a row, allow one more request in flight. */
  onSuccess(): void {
    this.successes += 1;
    if (this.limit < this.max && this.successes >= this.limit * 4) {
      this.limit += 1;
      this.successes = 0;
      this.options.onChange?.({ limit: this.limit, reason: "no 429 for a while" });
      this.wake();
    }
  }

  /**
   * RateLimit-Remaining / RateLimit-Reset (seconds), and the refill rate when RateLimit-Policy
   * names it (a token bucket: `quota;w=seconds`). With the rate known, the burst is spent freely
   * and, once little is left, starts are paced at the refill rate (a little slower while the
   * budget is below what may already be in flight), so the budget never runs out; a spent budget
   * waits for one token, not for the whole bucket. Without it: a small remaining budget is spread
   * over the time left until the reset, a spent one waits for the reset.
   */
  onRateLimitHeaders(remaining: number, resetSeconds: number, refill?: RefillRate): void {
    const resetMs = Math.max(0, resetSeconds * 1000);
    const perTokenMs = refill !== undefined ? (refill.windowSeconds * 1000) / refill.quota : undefined;
    if (perTokenMs !== undefined && Number.isFinite(perTokenMs) && perTokenMs > 0) {
      if (remaining <= 0) this.hold(perTokenMs, "RateLimit-Remaining is 0");
      if (remaining <= this.max) this.spacing = perTokenMs * 1.25;
      else if (remaining <= this.max * 2) this.spacing = perTokenMs;
      else this.spacing = 0;
      return;
    }
    if (remaining <= 0) {
      this.hold(resetMs, "RateLimit-Remaining is 0");
      this.spacing = 0;
    } else if (remaining <= this.max * 2 && resetMs > 0) {
      this.spacing = resetMs / remaining;
    } else {
      this.spacing = 0;
    }
  }

  private hold(delayMs: number, reason: string): void {
    const until = this.options.now() + delayMs;
    if (until <= this.notBefore) return;
    this.notBefore = until;
    this.holdReason = reason;
    if (delayMs > 0) this.options.onHold?.({ delayMs, reason });
  }

  /** Wait in line for a slot; leaving the line (abort) gives up the place, not a slot. */
  private queue(urgent: boolean, signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const at = this.waiting.indexOf(woken);
        // Not found: wake() already handed this waiter a slot; the caller releases it.
        if (at >= 0) this.waiting.splice(at, 1);
        reject(interrupted());
      };
      const woken = () => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      if (urgent) this.waiting.unshift(woken);
      else this.waiting.push(woken);
    });
  }

  private async pace(waiter: Waiter | undefined): Promise<void> {
    const now = this.options.now();
    const paced = this.spacing > 0 ? this.lastStart + this.spacing : 0;
    const start = Math.max(this.notBefore, paced);
    const maxWait = this.options.maxWaitMs ?? Number.POSITIVE_INFINITY;
    if (start - now > maxWait) {
      const reason = start === this.notBefore ? this.holdReason : "RateLimit pacing";
      throw waitTooLong(waiter, start - now, maxWait, reason);
    }
    // Claim the start before sleeping, so concurrent waiters line up one spacing apart.
    this.lastStart = Math.max(now, start);
    // One sleep, trusted: a hold that grows meanwhile applies to the requests after this one.
    if (start > now) await abortableSleep(this.options.sleep, start - now, waiter?.signal);
  }

  private wake(): void {
    while (this.waiting.length > 0 && this.active < this.limit) {
      this.active += 1;
      this.waiting.shift()?.();
    }
  }
}

export const WAIT_HINT = "Try again later, or allow a longer wait with --max-wait SECONDS.";

/** The server asked for a wait longer than the run may sit out (--max-wait). */
export function waitTooLong(
  waiter: Pick<Waiter, "endpoint" | "method" | "path"> | undefined,
  waitMs: number,
  maxWaitMs: number,
  reason: string,
): NotiformError {
  const call = waiter === undefined ? "a request" : `${waiter.method} ${waiter.path} (${waiter.endpoint})`;
  return new NotiformError("API_WAIT_TOO_LONG", `${call}: ${describeWait(waitMs, maxWaitMs, reason)}`, {
    hint: WAIT_HINT,
  });
}

export function describeWait(waitMs: number, maxWaitMs: number, reason: string): string {
  return `the server asked to wait ${seconds(waitMs)} (${reason}), longer than the ${seconds(maxWaitMs)} allowed (--max-wait)`;
}

function seconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}
