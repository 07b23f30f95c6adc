// The part of undici the transport always uses, and nothing more: the connection pool, whose
// dispatch API http-exchange.ts drives. Imported from undici's own modules, not its index, which
// also loads fetch, WebSocket, caches, mocks and interceptors (bundled, 965 KB and about 58 ms to
// load, against about 410 KB here, without undici's HTTP/2 client: see scripts/bundle.mjs). These are the
// files undici 7 keeps them in; the bundle pins the version, and test/api/undici-parts.test.ts
// fails if they stop being the classes undici exports. Loaded by http-exchange.ts on first use,
// in a chunk of its own.

import { setFlagsFromString } from "node:v8";
import Pool from "undici/lib/dispatcher/pool.js";

export { Pool };

/**
 * V8's flag that keeps WebAssembly on its baseline compiler. undici parses HTTP with llhttp
 * compiled to WebAssembly, on the first connection: V8 compiles it at once with its baseline
 * compiler (Liftoff), then recompiles the large, hot parsing function with its optimizing one
 * on another thread. Measured on Node 20: 90 to 120 ms of CPU a run, taken from the config
 * worker and the server on a 2-core CI runner, to parse a few thousand small answers a few
 * microseconds faster. A WebAssembly-only flag: nothing else in notiform is WebAssembly.
 */
export const BASELINE_WASM_FLAG = "--liftoff-only";
setFlagsFromString(BASELINE_WASM_FLAG);
