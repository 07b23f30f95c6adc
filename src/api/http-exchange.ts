// One HTTP exchange over undici: send, read the answer up to a size cap, and name a network
// failure and whether the request may have left. No retries, no limiter, no error policy:
// transport.ts decides those. Never logs; the headers it is given stay here.
// undici keeps the connections (one Pool for the API's origin, or a ProxyAgent through the
// proxy of proxy-route.ts), times the connect, the headers and each chunk of the body, and
// closes an idle connection before the server would (keepAliveTimeout, and the server's own
// Keep-Alive hint less a margin). What is ours: the whole exchange's deadline, the size cap,
// and telling a failure before the request was written from one after (network-failure.ts
// names them).
// undici is loaded in a chunk of its own (undici-pool.ts): creating the pool starts the load and
// the first exchange waits for it, so it overlaps whatever the run does meanwhile.
import type { Dispatcher } from "undici";
import { markCutShort, notSent, timeoutError } from "./network-failure.js";
import type { ProxyRoute } from "./proxy-route.js";

export interface ExchangeRequest {
  /** Path and query. */
  path: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  signal: AbortSignal | undefined;
  /** The whole exchange must end within this (ms), or it fails with TOTAL_TIMEOUT. */
  totalMs: number;
}

export interface ExchangeResult {
  status: number;
  header(name: string): string | undefined;
  /** The body text; undefined when it was larger than the cap (and was not read whole). */
  text: string | undefined;
}

export interface Timeouts {
  connectMs: number;
  /** From the request being sent on its connection to the response's headers. */
  headersMs: number;
  /** Longest silence while the body arrives. */
  bodyMs: number;
  /** The whole exchange, from sending to the last byte of the body. */
  totalMs: number;
  /**
   * Longest a connection may sit unused before it is closed. Servers close idle keep-alive
   * connections (Node's default: after 5 s); a request written as the server closes fails with
   * ECONNRESET, which for a write means "may have been applied". So the client closes them
   * first: after idleMs, or sooner when the server's Keep-Alive header says it will close
   * sooner (undici takes 2 s off the server's figure, for the time a request takes to arrive).
   */
  idleMs: number;
}

let undici: Promise<typeof import("./undici-pool.js")> | undefined;

/** Load undici's pool (once): started by the first pool, or earlier by the caller. */
export function loadUndici(): Promise<typeof import("./undici-pool.js")> {
  undici ??= import("./undici-pool.js");
  return undici;
}

/**
 * The transport's connections to one origin, sized for the concurrency limit: undici's Pool,
 * or its ProxyAgent when the run goes through a proxy. Creating it starts loading undici.
 */
export class ConnectionPool {
  readonly origin: string;
  /** The proxy the requests go through, if any. */
  readonly proxy: ProxyRoute | undefined;
  private readonly loading: Promise<Dispatcher>;
  private dispatcher: Dispatcher | undefined;

  constructor(origin: string, concurrency: number, timeouts: Timeouts, proxy: ProxyRoute | undefined) {
    this.origin = origin;
    this.proxy = proxy;
    const options = {
      connections: Math.max(1, concurrency),
      connect: { timeout: timeouts.connectMs },
      headersTimeout: timeouts.headersMs,
      bodyTimeout: timeouts.bodyMs,
      keepAliveTimeout: timeouts.idleMs,
      keepAliveMaxTimeout: timeouts.idleMs,
    };
    this.loading = (async () => {
      const { Pool } = await loadUndici();
      this.dispatcher =
        proxy === undefined
          ? new Pool(origin, options)
          : (await import("./undici-proxy.js")).openProxyAgent(proxy.url, options);
      return this.dispatcher;
    })();
    // Awaited by the first exchange (or close), which reports a failure; never unhandled meanwhile.
    this.loading.catch(() => undefined);
  }

  /** Send one request; settles once, with the answer or the failure. */
  async exchange(request: ExchangeRequest, maxBodyBytes: number): Promise<ExchangeResult> {
    const dispatcher = this.dispatcher ?? (await this.loading);
    return new Promise((resolve, reject) => {
      const handler = new ExchangeHandler(request, maxBodyBytes, resolve, reject);
      handler.dispatchOn(dispatcher, this.origin);
    });
  }

  /**
   * Close every connection now. A request still in flight (one a command no longer waits for,
   * as when the early connection is given up after a config error) fails at once rather than
   * holding the process until the server answers or a timeout passes.
   */
  async close(): Promise<void> {
    const dispatcher = await this.loading.catch(() => undefined);
    await dispatcher?.destroy();
  }
}

/**
 * One exchange as undici's dispatch handler: the answer's status and headers, then its body
 * gathered as it arrives, up to the cap. undici's request API would wrap the same calls in a
 * Readable stream, an async resource and an abort listener per answer: a few thousand answers a
 * run, for a body read whole at once. Settles once: with the answer (its text undefined past
 * the cap, the connection then dropped), or with the failure undici reports, the exchange's
 * deadline, or the caller's abort. An abort before undici started the request takes effect as
 * it starts (undici's request API does the same), so a queued request is never sent.
 */
class ExchangeHandler implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  private abortReason: Error | undefined;
  private settled = false;
  private status = 0;
  private headers: Record<string, string | string[] | undefined> = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private readonly deadline: ReturnType<typeof setTimeout>;
  private readonly onAbort: () => void;

  constructor(
    private readonly request: ExchangeRequest,
    private readonly maxBodyBytes: number,
    private readonly resolve: (result: ExchangeResult) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    // One deadline for the whole exchange: undici's body timeout is per chunk, so a body
    // trickling one byte every few seconds would otherwise never time out.
    this.deadline = setTimeout(() => this.abort(timeoutError("TOTAL_TIMEOUT")), request.totalMs);
    this.onAbort = () => this.abort(abortReason(request.signal?.reason));
    if (request.signal?.aborted) this.onAbort();
    else request.signal?.addEventListener("abort", this.onAbort, { once: true });
  }

  /** Hands the request to undici; one it refuses outright (an unusable proxy URL) was never sent. */
  dispatchOn(dispatcher: Dispatcher, origin: string): void {
    const { path, method, headers, body } = this.request;
    try {
      dispatcher.dispatch(
        {
          origin,
          path,
          method: method as Dispatcher.HttpMethod,
          headers,
          ...(body !== undefined ? { body } : {}),
        },
        this,
      );
    } catch (error) {
      this.onResponseError(undefined, error instanceof Error ? error : new Error(String(error)));
    }
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.abortReason !== undefined) controller.abort(this.abortReason);
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    if (statusCode < 200) return; // 1xx: informational, the answer follows.
    this.status = statusCode;
    this.headers = headers;
    const declared = Number(this.header("content-length"));
    if (Number.isFinite(declared) && declared > this.maxBodyBytes) this.overCap(controller);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled) return;
    this.size += chunk.length;
    if (this.size > this.maxBodyBytes) this.overCap(controller);
    else this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    this.settle(Buffer.concat(this.chunks, this.size).toString("utf8"));
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    if (this.settled) return; // Our own abort of an answer past the cap: already settled.
    this.finish();
    if (this.status !== 0) markCutShort(error);
    // undici starts a request (onRequestStart) just before it writes it: a failure before that
    // (connecting, a TLS handshake, a proxy's tunnel) sent nothing, whatever its code.
    this.reject(this.controller === undefined ? notSent(error) : error);
  }

  private header(name: string): string | undefined {
    const value = this.headers[name];
    return Array.isArray(value) ? value[0] : value;
  }

  /** Past the cap: settle without the body, and drop the connection rather than read the rest. */
  private overCap(controller: Dispatcher.DispatchController): void {
    this.settle(undefined);
    this.chunks.length = 0;
    controller.abort(
      Object.assign(new Error("notiform: the answer is larger than its cap"), { code: "OVER_CAP" }),
    );
  }

  private settle(text: string | undefined): void {
    if (this.settled) return;
    this.finish();
    this.resolve({ status: this.status, header: (name) => this.header(name), text });
  }

  private finish(): void {
    this.settled = true;
    clearTimeout(this.deadline);
    this.request.signal?.removeEventListener("abort", this.onAbort);
  }

  private abort(reason: Error): void {
    if (this.settled || this.abortReason !== undefined) return;
    this.abortReason = reason;
    if (this.controller !== undefined) {
      this.controller.abort(reason);
      return;
    }
    // Not started (still connecting, or queued): fail now rather than when the connection is
    // made or times out; undici drops the request as it starts (onRequestStart), unsent.
    this.finish();
    this.reject(notSent(reason));
  }
}

/** What the caller's abort fails the exchange with (the transport then reports it as interrupted). */
function abortReason(reason: unknown): Error {
  return reason instanceof Error ? reason : Object.assign(new Error("aborted"), { name: "AbortError" });
}
