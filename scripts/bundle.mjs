// Bundles the compiled CLI (dist/, from tsc) into dist/bundle/: one file for the commands and one
// for the config-loading worker, with the runtime dependencies inside. Node loads a few large
// modules much faster than a few hundred small ones: start-up is part of every command's time.
// Modules loaded only on demand (diff, listr2, through createRequire) stay in node_modules.
import { rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";

const root = fileURLToPath(new URL("..", import.meta.url));
const out = `${root}dist/bundle`;
await rm(out, { recursive: true, force: true });
await build({
  input: { main: `${root}dist/cli/main.js`, "load-worker": `${root}dist/config/load-worker.js` },
  platform: "node",
  logLevel: "warn",
  output: {
    dir: out,
    format: "esm",
    entryFileNames: "[name].js",
    chunkFileNames: "[name].js",
    sourcemap: false,
  },
});
