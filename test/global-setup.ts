// Builds dist/ once before the suite (as `npm run build`: tsc, then the bundle), so the CLI tests
// spawn the very binary users run (bin/notiform.js -> dist/bundle/) rather than a test-only entry.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export function setup(): void {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const result = spawnSync(
    process.execPath,
    ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json"],
    {
      cwd: root,
      encoding: "utf8",
    },
  );
  if (result.status !== 0) {
    throw new Error(`npm run build failed before the tests:\n${result.stdout}${result.stderr}`);
  }
  const bundled = spawnSync(process.execPath, ["scripts/bundle.mjs"], { cwd: root, encoding: "utf8" });
  if (bundled.status !== 0) {
    throw new Error(`npm run build (bundle) failed before the tests:\n${bundled.stdout}${bundled.stderr}`);
  }
}
