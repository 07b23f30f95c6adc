import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // Vitest's default is one worker per core less one, which is a single worker on a 2-core CI
    // machine. Most of a test file's time is spent waiting on the CLI processes it spawns and on
    // loopback sockets, so two files at once finish the suite about a fifth sooner there.
    maxWorkers: Math.max(availableParallelism() - 1, 2),
  },
});
