// The parts of undici the transport always uses, and nothing more: the connection pool and its
// request API. Imported from undici's own modules, not its index, which also loads fetch,
// WebSocket, caches, mocks and interceptors (bundled, 965 KB and about 58 ms to load, against
// about 450 KB here). These paths have been undici's layout since version 5; the bundle pins
// the version, and test/api/undici-parts.test.ts fails if they stop being the classes undici
// exports. Loaded by http-exchange.ts on first use, in a chunk of its own.

import type { Dispatcher } from "undici";
import request from "undici/lib/api/api-request.js";
import Pool from "undici/lib/dispatcher/pool.js";

export { Pool };

/** Dispatcher.request without undici's index (which adds it to every dispatcher's prototype). */
export function sendRequest(
  dispatcher: Dispatcher,
  options: Dispatcher.RequestOptions,
): Promise<Dispatcher.ResponseData> {
  return request.call(dispatcher, options);
}
