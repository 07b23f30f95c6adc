// undici's ProxyAgent, loaded only when a run goes through a proxy. It tunnels every request
// with CONNECT. undici reports a proxy's refusal of the tunnel (407, 403, 502...) only in an
// error's text; the client it opens to the proxy is built here, and turns a refused CONNECT into
// a PROXY_REFUSED error carrying the status, which the transport names as the proxy's.

import type { Dispatcher, Pool as PoolType } from "undici";
import connect from "undici/lib/api/api-connect.js";
import ProxyAgent from "undici/lib/dispatcher/proxy-agent.js";
import { Pool } from "./undici-pool.js";

/** The proxy answered a CONNECT with something other than 200: no tunnel, nothing was sent. */
export interface ProxyRefusal extends Error {
  code: "PROXY_REFUSED";
  status: number;
}

export function openProxyAgent(proxyUrl: string, options: PoolType.Options): Dispatcher {
  return new ProxyAgent({
    ...options,
    uri: proxyUrl,
    // The connect timeout, for the connection to the proxy and the TLS handshake through it.
    ...(options.connect !== undefined && typeof options.connect === "object"
      ? { proxyTls: options.connect, requestTls: options.connect }
      : {}),
    clientFactory: (origin: URL | string, factoryOptions: object) => {
      const pool = new Pool(origin, factoryOptions);
      return Object.assign(pool, {
        connect: async (connectOptions: Dispatcher.ConnectOptions) => {
          const answer = await connect.call(pool, connectOptions);
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
