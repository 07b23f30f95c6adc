// Fault injection, seeded so a run repeats: latency with jitter, a share of 5xx answers, dropped
// connections (before handling), lost responses (handled, then the connection dropped), a token
// bucket answering 429 with Retry-After and RateLimit-* headers, and scripted one-shot faults.
// Every random choice comes from one seeded PRNG, in request order: the same seed and the same
// sequence of requests give the same faults.

export interface FaultSettings {
  latencyMs: number;
  jitterMs: number;
  errorRate: number;
  dropRate: number;
  lostResponseRate: number;
  rateLimit: { perSecond: number; burst?: number } | undefined;
}

/** A status answered instead of handling; with `body`, that exact body (a canned answer). */
export type ScriptedKind = "drop" | "lost-response" | { status: number; retryAfter?: number; body?: unknown };

export interface ScriptedFault {
  method?: string;
  /** Exact path, or a prefix ending with `*`. */
  path?: string;
  times?: number;
  kind: ScriptedKind;
}

/** mulberry32: a small, fast, seedable PRNG. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type FaultDecision =
  | { kind: "none" }
  | { kind: "drop" }
  | { kind: "lost-response" }
  | { kind: "status"; status: number; retryAfter?: number; body?: unknown };

export class Faults {
  settings: FaultSettings;
  private readonly random: () => number;
  private readonly scripted: (ScriptedFault & { left: number })[] = [];
  private bucket: TokenBucket | undefined;
  private readonly now: () => number;

  constructor(settings: FaultSettings, seed: number, now: () => number) {
    this.settings = settings;
    this.random = seededRandom(seed);
    this.now = now;
    this.configureBucket();
  }

  update(partial: Partial<FaultSettings>): void {
    this.settings = { ...this.settings, ...partial };
    if ("rateLimit" in partial) this.configureBucket();
  }

  inject(fault: ScriptedFault): void {
    this.scripted.push({ ...fault, left: fault.times ?? 1 });
  }

  delayMs(): number {
    const { latencyMs, jitterMs } = this.settings;
    if (latencyMs <= 0 && jitterMs <= 0) return 0;
    return Math.max(0, latencyMs + (jitterMs > 0 ? (this.random() * 2 - 1) * jitterMs : 0));
  }

  /** Decide the fate of a request before it is handled. */
  decide(method: string, path: string): FaultDecision {
    const scripted = this.scripted.find((f) => f.left > 0 && matches(f, method, path));
    if (scripted !== undefined) {
      scripted.left -= 1;
      if (scripted.kind === "drop" || scripted.kind === "lost-response") return { kind: scripted.kind };
      return {
        kind: "status",
        status: scripted.kind.status,
        ...(scripted.kind.retryAfter !== undefined ? { retryAfter: scripted.kind.retryAfter } : {}),
        ...(scripted.kind.body !== undefined ? { body: scripted.kind.body } : {}),
      };
    }
    const { errorRate, dropRate, lostResponseRate } = this.settings;
    if (dropRate > 0 && this.random() < dropRate) return { kind: "drop" };
    if (errorRate > 0 && this.random() < errorRate) {
      const statuses = [500, 502, 503, 504] as const;
      return { kind: "status", status: statuses[Math.floor(this.random() * statuses.length)] ?? 503 };
    }
    if (method !== "GET" && lostResponseRate > 0 && this.random() < lostResponseRate)
      return { kind: "lost-response" };
    return { kind: "none" };
  }

  /** The rate limiter's verdict and headers; undefined when no limiter is set. */
  rateLimit(): { allowed: boolean; headers: Record<string, string>; retryAfter: number } | undefined {
    return this.bucket?.take(this.now());
  }

  private configureBucket(): void {
    const limit = this.settings.rateLimit;
    this.bucket =
      limit && limit.perSecond > 0
        ? new TokenBucket(limit.perSecond, limit.burst ?? limit.perSecond, this.now())
        : undefined;
  }
}

function matches(fault: ScriptedFault, method: string, path: string): boolean {
  if (fault.method !== undefined && fault.method.toUpperCase() !== method) return false;
  if (fault.path === undefined) return true;
  return fault.path.endsWith("*") ? path.startsWith(fault.path.slice(0, -1)) : path === fault.path;
}

/**
 * A token bucket like the hosted service's: `burst` tokens (default perSecond), refilled at
 * perSecond per second; a request takes one. RateLimit-Limit is the bucket's size,
 * RateLimit-Remaining the whole tokens left and RateLimit-Reset the seconds until it is full again
 * (fractions kept: the emulator's rates are high and its tests short). Over the limit: 429 with
 * Retry-After, the whole seconds until one token is back (at least 1).
 */
class TokenBucket {
  private tokens: number;
  private last: number;
  private readonly rate: number;
  private readonly size: number;

  constructor(rate: number, burst: number, now: number) {
    this.rate = rate;
    this.size = Math.max(1, Math.floor(burst));
    this.tokens = this.size;
    this.last = now;
  }

  take(now: number): { allowed: boolean; headers: Record<string, string>; retryAfter: number } {
    this.tokens = Math.min(this.size, this.tokens + (Math.max(0, now - this.last) / 1000) * this.rate);
    this.last = now;
    const allowed = this.tokens >= 1;
    if (allowed) this.tokens -= 1;
    const reset = (this.size - this.tokens) / this.rate;
    return {
      allowed,
      retryAfter: Math.max(1, Math.ceil((1 - this.tokens) / this.rate)),
      headers: {
        "ratelimit-limit": String(this.size),
        "ratelimit-remaining": String(Math.floor(this.tokens)),
        "ratelimit-reset": reset.toFixed(3),
        "ratelimit-policy": `${this.rate};w=1;burst=${this.size};comment="token bucket"`,
      },
    };
  }
}
