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
import { EventEmitter } from "node:events";
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

interface Loaded {
  dispatcher: Dispatcher;
  send: typeof import("./undici-pool.js")["sendRequest"];
}

let undici: Promise<typeof import("./undici-pool.js")> | undefined;

/** Load undici's pool and request API (once): started by the first pool, or earlier by the caller. */
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
  private readonly loading: Promise<Loaded>;
  private loaded: Loaded | undefined;

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
      const { Pool, sendRequest } = await loadUndici();
      const dispatcher =
        proxy === undefined
          ? new Pool(origin, options)
          : (await import("./undici-proxy.js")).openProxyAgent(proxy.url, options);
      this.loaded = { dispatcher, send: sendRequest };
      return this.loaded;
    })();
    // Awaited by the first exchange (or close), which reports a failure; never unhandled meanwhile.
    this.loading.catch(() => undefined);
  }

  /** Send one request; settles once, with the answer or the failure. */
  async exchange(request: ExchangeRequest, maxBodyBytes: number): Promise<ExchangeResult> {
    const { dispatcher, send } = this.loaded ?? (await this.loading);
    const signal = new ExchangeSignal();
    // One deadline for the whole exchange: the body timeout is per chunk, so a body trickling
    // one byte every few seconds would otherwise never time out.
    const deadline = setTimeout(() => signal.fire(timeoutError("TOTAL_TIMEOUT")), request.totalMs);
    const outer = request.signal;
    const onAbort = () => signal.fire(outer?.reason);
    if (outer?.aborted) signal.fire(outer.reason);
    else outer?.addEventListener("abort", onAbort, { once: true });
    try {
      const response = await send(dispatcher, {
        origin: this.origin,
        path: request.path,
        method: request.method as Dispatcher.HttpMethod,
        headers: request.headers,
        ...(request.body !== undefined ? { body: request.body } : {}),
        signal,
      });
      const header = (name: string): string | undefined => {
        const value = response.headers[name];
        return Array.isArray(value) ? value[0] : value;
      };
      const declared = Number(header("content-length"));
      const text =
        Number.isFinite(declared) && declared > maxBodyBytes
          ? discard(response.body)
          : await readLimited(response.body, maxBodyBytes);
      return { status: response.statusCode, header, text };
    } finally {
      clearTimeout(deadline);
      outer?.removeEventListener("abort", onAbort);
    }
  }

  /**
   * Close every connection now. A request still in flight (one a command no longer waits for,
   * as when the early connection is given up after a config error) fails at once rather than
   * holding the process until the server answers or a timeout passes.
   */
  async close(): Promise<void> {
    const loaded = await this.loading.catch(() => undefined);
    await loaded?.dispatcher.destroy();
  }
}

/**
 * The signal undici is given for one exchange: fired by the exchange's deadline or by the
 * call's own signal. An EventEmitter (which undici's request API takes, as it takes an
 * AbortSignal) rather than an AbortController: a few thousand exchanges a run, and an
 * AbortSignal's listeners cost ten times as much.
 */
class ExchangeSignal extends EventEmitter {
  aborted = false;
  reason: unknown;

  fire(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit("abort");
  }
}

function discard(body: Dispatcher.ResponseData["body"]): undefined {
  // Destroyed before its end, undici's body emits an error: expected here, and not an answer.
  body.on("error", () => undefined).destroy();
  return undefined;
}

/** Read a body, giving up (undefined) past `limit` bytes rather than holding it all. */
function readLimited(body: Dispatcher.ResponseData["body"], limit: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) resolve(discard(body));
      else chunks.push(chunk);
    });
    body.on("end", () => resolve(Buffer.concat(chunks, size).toString("utf8")));
    body.on("error", reject);
  });
}

type TimeoutCode = "TOTAL_TIMEOUT";

function timeoutError(code: TimeoutCode): Error {
  return Object.assign(new Error(`notiform ${code.toLowerCase().replace("_", " ")}`), { code });
}

/** The exchange's overall deadline passed (the transport names it with the deadline). */
export function isTotalTimeout(error: unknown): boolean {
  return codeOf(error) === "TOTAL_TIMEOUT";
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
  const sent = !NOT_SENT.has(code) && !UNTRUSTED_CERTIFICATE.has(code) && !OTHER_CERTIFICATE.has(code);
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
        reason: `the proxy ${proxy.shown} asked for credentials (407 Proxy Authentication Required)${proxy.secrets.length > 0 ? " and refused the ones given" : ""}`,
        hint: `Give the proxy's credentials in ${proxy.variable}: http://USER:PASSWORD@host:port (percent-encode special characters).`,
      };
    }
    return {
      final: false,
      reason: `the proxy ${proxy.shown} refused to open a connection to the API (CONNECT answered ${String(status)})`,
      hint,
    };
  }
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
      return "the connection was closed before a response arrived";
    default:
      return error instanceof Error ? error.message : String(error);
  }
}
