// Builds dist/ once before the suite (as `npm run build`: tsc, then the bundle), so the CLI tests
// spawn the very binary users run (bin/notiform.js -> dist/bundle/) rather than a test-only entry.
// And gives the run a temporary directory of its own (TMPDIR, which os.tmpdir() reads and the
// test processes inherit), removed when the run ends: the suite makes about 280 directories
// (workspaces, git remotes, emulator data), 120 MB, and left them all in /tmp run after run.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export function setup(): () => void {
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
  const runDir = mkdtempSync(join(tmpdir(), "notiform-tests-"));
  process.env.TMPDIR = runDir;
  return () => rmSync(runDir, { recursive: true, force: true });
}
