// One HTTP exchange over a keep-alive pool of node:http(s) connections: send, read the answer
// up to a size cap, and name a network failure and whether the request may have left. No
// retries, no limiter, no error policy: transport.ts decides those. Never logs; the headers it
// is given stay here. node:http rather than a client library: it ships inside Node (nothing to
// load at start-up, where a library's megabyte of code cost a plan 60 ms before its first
// request), and a run's few thousand requests over at most a few connections ask nothing more.
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";

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
   * How long a connection may sit unused in the pool before it is closed. Servers close idle
   * keep-alive connections (Node's default: after 5 s); a request written as the server closes
   * fails with ECONNRESET, which for a write means "may have been applied". So the pool closes
   * them first (node:http ignores the server's Keep-Alive hint).
   */
  idleMs: number;
}

/** One keep-alive pool for the whole run, to one origin, sized for the concurrency limit. */
export class ConnectionPool {
  readonly origin: URL;
  readonly timeouts: Timeouts;
  private readonly agent: HttpAgent;

  constructor(origin: string, concurrency: number, timeouts: Timeouts) {
    this.origin = new URL(origin);
    this.timeouts = timeouts;
    const size = Math.max(1, concurrency);
    // `timeout` closes a free connection after idleMs unused; an active one only gets an event
    // (unheard: the exchange's own timers decide about those).
    const options = {
      keepAlive: true,
      maxSockets: size,
      maxFreeSockets: size,
      scheduling: "lifo" as const,
      timeout: timeouts.idleMs,
    };
    this.agent = this.secure ? new HttpsAgent(options) : new HttpAgent(options);
  }

  get secure(): boolean {
    return this.origin.protocol === "https:";
  }

  /** Send one request; settles once, with the answer or the failure. */
  exchange(request: ExchangeRequest, maxBodyBytes: number): Promise<ExchangeResult> {
    return new Promise((resolve, reject) => {
      const send = this.secure ? httpsRequest : httpRequest;
      const headers =
        request.body === undefined
          ? request.headers
          : { ...request.headers, "content-length": String(Buffer.byteLength(request.body)) };
      const req = send({
        agent: this.agent,
        protocol: this.origin.protocol,
        // An IPv6 literal is bracketed in a URL, not in a socket address.
        hostname: this.origin.hostname.replace(/^\[(.*)\]$/, "$1"),
        port: this.origin.port,
        path: request.path,
        method: request.method,
        headers,
        ...(request.signal !== undefined ? { signal: request.signal } : {}),
      });
      let timer: NodeJS.Timeout | undefined;
      let settled = false;
      // One deadline for the whole exchange: the body timeout is per chunk, so a body trickling
      // one byte every few seconds would otherwise never time out. A timer, not a signal per
      // request (AbortSignal.timeout and .any cost more than the rest of a request's handling).
      const deadline = setTimeout(() => req.destroy(timeoutError("TOTAL_TIMEOUT")), request.totalMs);
      const stop = () => {
        clearTimeout(timer);
        clearTimeout(deadline);
      };
      const fail = (error: unknown) => {
        stop();
        if (settled) return;
        settled = true;
        reject(error);
      };
      const done = (result: ExchangeResult) => {
        stop();
        if (settled) return;
        settled = true;
        resolve(result);
      };
      /** A timer that ends the exchange with `code` unless cleared first. */
      const within = (ms: number, code: TimeoutCode) => {
        clearTimeout(timer);
        timer = setTimeout(() => req.destroy(timeoutError(code)), ms);
      };
      req.on("socket", (socket) => {
        if (!socket.connecting) return within(this.timeouts.headersMs, "HEADERS_TIMEOUT");
        within(this.timeouts.connectMs, "CONNECT_TIMEOUT");
        socket.once(this.secure ? "secureConnect" : "connect", () =>
          within(this.timeouts.headersMs, "HEADERS_TIMEOUT"),
        );
      });
      req.on("error", fail);
      req.on("response", (response) => {
        const header = (name: string): string | undefined => {
          const value = response.headers[name];
          return Array.isArray(value) ? value[0] : value;
        };
        const answer = (text: string | undefined) => done({ status: response.statusCode ?? 0, header, text });
        const declared = Number(header("content-length"));
        if (Number.isFinite(declared) && declared > maxBodyBytes) {
          answer(undefined);
          response.destroy();
          return;
        }
        readBody(response, maxBodyBytes, () => within(this.timeouts.bodyMs, "BODY_TIMEOUT"), answer, fail);
      });
      req.end(request.body);
    });
  }

  async close(): Promise<void> {
    this.agent.destroy();
  }
}

/** Read a body, giving up (undefined) past `limit` bytes rather than holding it all. */
function readBody(
  response: IncomingMessage,
  limit: number,
  onChunk: () => void,
  answer: (text: string | undefined) => void,
  fail: (error: unknown) => void,
): void {
  const chunks: Buffer[] = [];
  let size = 0;
  onChunk();
  response.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) {
      answer(undefined);
      response.destroy();
      return;
    }
    chunks.push(chunk);
    onChunk();
  });
  response.on("end", () => answer(Buffer.concat(chunks).toString("utf8")));
  response.on("error", fail);
  // Closed before its end: the server (or a timeout, or an abort) cut the answer short.
  response.on("close", () => {
    if (!response.complete)
      fail(Object.assign(new Error("the response was cut short"), { code: "ECONNRESET" }));
  });
}

type TimeoutCode = "CONNECT_TIMEOUT" | "HEADERS_TIMEOUT" | "BODY_TIMEOUT" | "TOTAL_TIMEOUT";

function timeoutError(code: TimeoutCode): Error {
  return Object.assign(new Error(`notiform ${code.toLowerCase().replace("_", " ")}`), { code });
}

/** The exchange's overall deadline passed (the transport names it with the deadline). */
export function isTotalTimeout(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "TOTAL_TIMEOUT";
}

/** Failures before anything was sent (no connection was made): retrying cannot duplicate. */
const NOT_SENT = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "CONNECT_TIMEOUT",
]);

export interface NetworkFailure {
  /** The request may have reached the server (anything after the connection was made). */
  sent: boolean;
  /** A short reason for the message: "connection refused", "timed out waiting for the response". */
  reason: string;
}

export function describeNetworkFailure(error: unknown): NetworkFailure {
  const raw = (error as { code?: unknown } | null)?.code;
  const code = typeof raw === "string" ? raw : "UNKNOWN";
  return { sent: !NOT_SENT.has(code), reason: reasonFor(code, error) };
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
    case "CONNECT_TIMEOUT":
      return "timed out connecting";
    case "HEADERS_TIMEOUT":
      return "timed out waiting for the response";
    case "BODY_TIMEOUT":
      return "timed out reading the response";
    case "ECONNRESET":
    case "EPIPE":
      return "the connection was closed before a response arrived";
    default:
      return error instanceof Error ? error.message : String(error);
  }
}
