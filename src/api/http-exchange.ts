// One HTTP exchange over the shared undici Agent: send, read the answer up to a size cap, and
// name a network failure and whether the request may have left. No retries, no limiter, no
// error policy: transport.ts decides those. Never logs; the headers it is given stay here.
import { Agent } from "undici";

export interface ExchangeRequest {
  origin: string;
  /** Path and query. */
  path: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  signal: AbortSignal | undefined;
}

export interface ExchangeResult {
  status: number;
  header(name: string): string | undefined;
  /** The body text; undefined when it was larger than the cap (and was not read whole). */
  text: string | undefined;
}

export interface Timeouts {
  connectMs: number;
  headersMs: number;
  bodyMs: number;
  /** The whole exchange, from sending to the last byte of the body. */
  totalMs: number;
}

/** One keep-alive pool for the whole run, sized for the concurrency limit. */
export function createAgent(concurrency: number, timeouts: Timeouts): Agent {
  return new Agent({
    connections: Math.max(1, concurrency),
    keepAliveTimeout: 10_000,
    connect: { timeout: timeouts.connectMs },
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.bodyMs,
  });
}

export async function exchange(
  agent: Agent,
  request: ExchangeRequest,
  maxBodyBytes: number,
): Promise<ExchangeResult> {
  const response = await agent.request({
    origin: request.origin,
    path: request.path,
    method: request.method as "GET",
    headers: request.headers,
    ...(request.body !== undefined ? { body: request.body } : {}),
    ...(request.signal !== undefined ? { signal: request.signal } : {}),
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
}

function discard(body: { destroy(): void }): undefined {
  body.destroy();
  return undefined;
}

/** Read a body, giving up (undefined) past `limit` bytes rather than holding it all. */
async function readLimited(
  body: AsyncIterable<Buffer> & { destroy(): void },
  limit: number,
): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) return discard(body);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Failures before anything was sent (no connection was made): retrying cannot duplicate. */
const NOT_SENT = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
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
    case "UND_ERR_CONNECT_TIMEOUT":
      return "timed out connecting";
    case "UND_ERR_HEADERS_TIMEOUT":
      return "timed out waiting for the response";
    case "UND_ERR_BODY_TIMEOUT":
      return "timed out reading the response";
    case "ECONNRESET":
    case "UND_ERR_SOCKET":
    case "EPIPE":
      return "the connection was closed before a response arrived";
    default:
      return error instanceof Error ? error.message : String(error);
  }
}
