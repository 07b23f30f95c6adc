import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    setupFiles: ["test/setup/leaves-nothing.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // Vitest's default is one worker per core less one, which is a single worker on a 2-core CI
    // machine. Most of a test file's time is spent waiting on the CLI processes it spawns and on
    // loopback sockets, so two files at once finish the suite about a fifth sooner there.
    maxWorkers: Math.max(availableParallelism() - 1, 2),
    // Each worker runs its test files one after another in one process, without a fresh module
    // graph per file. The suite is CPU-bound on two cores, and a fresh graph per file (each
    // file's imports of src/, the emulator, fast-check) cost about a sixth of its CPU time. So a
    // test file leaves no process state behind: no environment variable, timer mock or spy
    // outlives it (test/setup/leaves-nothing.ts fails a file that leaves one). Checked with the
    // files in random orders too (`--sequence.shuffle.files`).
    isolate: false,
  },
});
