#!/usr/bin/env node
// The published entry point: the compiled CLI, bundled, lives in dist/bundle/ (npm run build).
// Node 22.1+ can keep the code it compiles from the bundle between runs (the module compile
// cache, in the system's temporary directory): later runs skip most of parsing and compiling
// it, which is most of a command's start-up. Asked for before the bundle loads, hence the
// dynamic import. Older Nodes have no such function, and nothing changes; a cache that cannot be
// written is skipped by Node, and NODE_DISABLE_COMPILE_CACHE=1 turns it off.
import module from "node:module";

module.enableCompileCache?.();
const { runMain } = await import("../dist/bundle/main.js");

await runMain(process.argv.slice(2));
