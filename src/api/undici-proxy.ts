// undici's ProxyAgent, loaded only when a run goes through a proxy. It tunnels every request
// with CONNECT. undici reports a proxy's refusal of the tunnel (407, 403, 502...) only in an
// error's text; the client it opens to the proxy is built here, and turns a refused CONNECT into
// a PROXY_REFUSED error carrying the status, which the transport names as the proxy's; a CONNECT
// the proxy drops or leaves unanswered, into PROXY_TUNNEL_FAILED.

import type { Dispatcher, Pool as PoolType } from "undici";
import connect from "undici/lib/api/api-connect.js";
import ProxyAgent from "undici/lib/dispatcher/proxy-agent.js";
import { isCertificateFailure } from "./network-failure.js";
import { Pool } from "./undici-pool.js";

/** The proxy answered a CONNECT with something other than 200: no tunnel, nothing was sent. */
export interface ProxyRefusal extends Error {
  code: "PROXY_REFUSED";
  status: number;
}

export function openProxyAgent(proxyUrl: string, options: PoolType.Options): Dispatcher {
  const tunnelMs =
    options.connect !== undefined && typeof options.connect === "object"
      ? options.connect.timeout
      : undefined;
  return new ProxyAgent({
    ...options,
    uri: proxyUrl,
    // The connect timeout, for the connection to the proxy and the TLS handshake through it.
    ...(options.connect !== undefined && typeof options.connect === "object"
      ? { proxyTls: options.connect, requestTls: options.connect }
      : {}),
    clientFactory: (origin: URL | string, factoryOptions: object) => {
      // The proxy's answer to CONNECT within the connect timeout (undici's default: 300 s).
      const pool = new Pool(origin, {
        ...factoryOptions,
        ...(tunnelMs !== undefined ? { headersTimeout: tunnelMs, bodyTimeout: tunnelMs } : {}),
      });
      return Object.assign(pool, {
        connect: async (connectOptions: Dispatcher.ConnectOptions) => {
          let answer: Dispatcher.ConnectData;
          try {
            answer = await connect.call(pool, connectOptions);
          } catch (error) {
            // No tunnel, so nothing reached the API. As undici names it (UND_ERR_SOCKET when the
            // proxy closes the connection), its client would take it for a passing socket error
            // and open another tunnel at once, without end: named for what it is instead.
            throw tunnelFailure(error);
          }
          if (answer.statusCode === 200) return answer;
          answer.socket.on("error", () => undefined).destroy();
          throw Object.assign(new Error(`the proxy answered CONNECT with ${answer.statusCode}`), {
            code: "PROXY_REFUSED",
            status: answer.statusCode,
          });
        },
      });
    },
  });
}

/** The proxy failed the CONNECT itself: closed the connection, or did not answer in time. */
function tunnelFailure(error: unknown): Error {
  const code = (error as { code?: unknown } | null)?.code;
  const reason =
    code === "UND_ERR_HEADERS_TIMEOUT"
      ? "no answer to CONNECT in time"
      : code === "UND_ERR_SOCKET" || code === "ECONNRESET"
        ? "it closed the connection"
        : error instanceof Error
          ? error.message
          : String(error);
  // Reaching the proxy itself failed: named as undici names it (the transport says "the proxy").
  if (code === "ECONNREFUSED" || code === "UND_ERR_CONNECT_TIMEOUT" || code === "ENOTFOUND")
    return error as Error;
  // An https:// proxy's own certificate (undici wraps only a host-name mismatch so): the proxy's.
  if (typeof code === "string" && isCertificateFailure(code))
    return Object.assign(new Error(`the proxy's certificate was refused (${code})`), {
      code: "UND_ERR_PRX_TLS",
      cause: error,
    });
  return Object.assign(new Error(reason), { code: "PROXY_TUNNEL_FAILED", cause: error });
}
