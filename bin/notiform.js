#!/usr/bin/env node
// The published entry point: the compiled CLI, bundled, lives in dist/bundle/ (npm run build).
import { runMain } from "../dist/bundle/main.js";

await runMain(process.argv.slice(2));
