#!/usr/bin/env node
// The published entry point: the compiled CLI lives in dist/ (npm run build).
import { runMain } from "../dist/cli/main.js";

await runMain(process.argv.slice(2));
