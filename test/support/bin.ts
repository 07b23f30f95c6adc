// The built CLI the tests run, as users run it: bin/notiform.js (which loads dist/, rebuilt by
// vitest's global setup).
import { fileURLToPath } from "node:url";

export const BIN = fileURLToPath(new URL("../../bin/notiform.js", import.meta.url));
