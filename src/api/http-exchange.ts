// One HTTP exchange over undici: send, read the answer up to a size cap, and name a network
// failure and whether the request may have left. No retries, no limiter, no error policy:
// transport.ts decides those. Never logs; the headers it is given stay here.
// undici keeps the connections (one Pool for the API's origin, or a ProxyAgent through the
// proxy of proxy-route.ts), times the connect, the headers and each chunk of the body, and
// closes an idle connection before the server would (keepAliveTimeout, and the server's own
// Keep-Alive hint less a margin). What is ours: the whole exchange's deadline, the size cap,
// and the naming of failures (the proxy's as the proxy's, a certificate's with its hint).
// undici is loaded in a chunk of its own (undici-pool.ts): creating the pool starts the load and
// the first exchange waits for it, so it overlaps whatever the run does meanwhile.
import type { Dispatcher } from "undici";
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
    // undici starts a request (onRequestStart) just before it writes it: a failure before that
    // (connecting, a TLS handshake, a proxy's tunnel) sent nothing, whatever its code.
    if (this.status !== 0) CUT_SHORT.add(error);
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

type TimeoutCode = "TOTAL_TIMEOUT";

function timeoutError(code: TimeoutCode): Error {
  return Object.assign(new Error(`notiform ${code.toLowerCase().replace("_", " ")}`), { code });
}

/** The exchange's overall deadline passed (the transport names it with the deadline). */
export function isTotalTimeout(error: unknown): boolean {
  return codeOf(error) === "TOTAL_TIMEOUT";
}

/** Errors of exchanges that failed before undici started (wrote) the request. */
const UNSENT = new WeakSet<object>();
/** Errors of exchanges that failed after the answer's status and headers arrived. */
const CUT_SHORT = new WeakSet<object>();

function notSent(error: Error): Error {
  UNSENT.add(error);
  return error;
}

/** Whether the exchange failed before its request was written: nothing reached the server. */
export function wasNotSent(error: unknown): boolean {
  return typeof error === "object" && error !== null && UNSENT.has(error);
}

/** Failures before anything was sent (no connection was made): retrying cannot duplicate. */
const NOT_SENT = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
  "PROXY_REFUSED",
  "PROXY_TUNNEL_FAILED",
  "UND_ERR_PRX_TLS",
]);

/** The server's certificate was refused (by code, as Node's TLS names it): nothing was sent. */
const UNTRUSTED_CERTIFICATE = new Set([
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "CERT_UNTRUSTED",
  "CERT_SIGNATURE_FAILURE",
]);
const OTHER_CERTIFICATE = new Map([
  ["CERT_HAS_EXPIRED", "the server's certificate has expired"],
  ["CERT_NOT_YET_VALID", "the server's certificate is not valid yet"],
  ["ERR_TLS_CERT_ALTNAME_INVALID", "the server's certificate is not for this host name"],
  ["CERT_REVOKED", "the server's certificate was revoked"],
]);

export const CERTIFICATE_HINT =
  "If the server's certificate comes from a private (company) certificate authority, give Node that authority's certificate: export NODE_EXTRA_CA_CERTS=/path/to/ca.pem (a PEM file; read when the process starts).";

export interface NetworkFailure {
  /** The request may have reached the server (anything after the connection was made). */
  sent: boolean;
  /** Trying again cannot help (a refused certificate, a proxy asking for credentials). */
  final: boolean;
  /** A short reason for the message: "connection refused", "timed out waiting for the response". */
  reason: string;
  /** What to check, when it is not the API URL and the network. */
  hint?: string;
}

export function describeNetworkFailure(error: unknown, proxy: ProxyRoute | undefined): NetworkFailure {
  const code = codeOf(error) ?? "UNKNOWN";
  const sent =
    !wasNotSent(error) &&
    !NOT_SENT.has(code) &&
    !UNTRUSTED_CERTIFICATE.has(code) &&
    !OTHER_CERTIFICATE.has(code);
  if (UNTRUSTED_CERTIFICATE.has(code))
    return {
      sent,
      final: true,
      reason: `the server's certificate is not trusted (${code})`,
      hint: CERTIFICATE_HINT,
    };
  const certificate = OTHER_CERTIFICATE.get(code);
  if (certificate !== undefined)
    return { sent, final: true, reason: `${certificate} (${code})`, hint: CERTIFICATE_HINT };
  if (code === "UND_ERR_DESTROYED" || code === "UND_ERR_CLOSED")
    return {
      sent,
      final: true,
      reason: "the client was closed before a response arrived (the run is ending)",
    };
  if (proxy !== undefined) {
    const named = proxyFailure(code, error, proxy);
    if (named !== undefined) return { sent, ...named };
  }
  return { sent, final: false, reason: reasonFor(code, error) };
}

/** Failures that are the proxy's: reaching it, its refusal of the tunnel, its certificate. */
function proxyFailure(
  code: string,
  error: unknown,
  proxy: ProxyRoute,
): Omit<NetworkFailure, "sent"> | undefined {
  const hint = `Check the proxy in ${proxy.variable}, or list the API's host in NO_PROXY to reach it directly.`;
  if (code === "PROXY_REFUSED") {
    const status = (error as { status?: unknown }).status;
    if (status === 407) {
      return {
        final: true,
        reason: `the proxy ${proxy.shown} asked for credentials (407 Proxy Authentication Required)${proxy.credentials ? " and refused the ones given" : ""}`,
        hint: `Give the proxy's credentials in ${proxy.variable}: http://USER:PASSWORD@host:port (percent-encode special characters).`,
      };
    }
    return {
      final: false,
      reason: `the proxy ${proxy.shown} refused to open a connection to the API (CONNECT answered ${String(status)})`,
      hint,
    };
  }
  if (code === "PROXY_TUNNEL_FAILED")
    return {
      final: false,
      reason: `the proxy ${proxy.shown} did not open a connection to the API (${(error as Error).message})`,
      hint,
    };
  if (code === "UND_ERR_PRX_TLS")
    return {
      final: true,
      reason: `the proxy ${proxy.shown}'s certificate was refused`,
      hint: CERTIFICATE_HINT,
    };
  // Every connection goes to the proxy: failing to connect is failing to reach the proxy.
  if (NOT_SENT.has(code))
    return {
      final: false,
      reason: `could not reach the proxy ${proxy.shown}: ${reasonFor(code, error)}`,
      hint,
    };
  return undefined;
}

function codeOf(error: unknown): string | undefined {
  const raw = (error as { code?: unknown } | null)?.code;
  return typeof raw === "string" ? raw : undefined;
}

function reasonFor(code: string, error: unknown): string {
  switch (code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "host not found";
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "host unreachable";
    case "UND_ERR_CONNECT_TIMEOUT":
      return "timed out connecting";
    case "UND_ERR_HEADERS_TIMEOUT":
      return "timed out waiting for the response";
    case "UND_ERR_BODY_TIMEOUT":
      return "timed out reading the response";
    case "ECONNRESET":
    case "EPIPE":
    case "UND_ERR_SOCKET":
      return typeof error === "object" && error !== null && CUT_SHORT.has(error)
        ? "the connection was closed before the whole response arrived"
        : "the connection was closed before a response arrived";
    default: {
      // OpenSSL's own text ("...:error:0A00010B:SSL routines:...:wrong version number:file:line:")
      // says little to a user.
      const message = (error instanceof Error ? error.message : String(error)).trim();
      if (/wrong version number/i.test(message))
        return "the TLS handshake failed: the server does not speak TLS there (an https:// URL for a plain-HTTP server?)";
      if (/SSL routines/.test(message)) return "the TLS handshake failed";
      return message;
    }
  }
}
