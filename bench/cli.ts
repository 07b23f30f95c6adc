// Runs the built CLI (bin/notiform.js -> dist/) in a child process, as users do, and times it.
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../bin/notiform.js", import.meta.url));

const made: string[] = [];

/**
 * A scenario's working directory under the system's temporary one, removed when the bench exits
 * (a preview's site alone is about 50 MB, and runs left them behind by the hundred).
 */
export async function benchDir(scenario: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `notiform-bench-${scenario}-`));
  if (made.length === 0)
    process.on("exit", () => {
      for (const each of made) rmSync(each, { recursive: true, force: true });
    });
  made.push(dir);
  return dir;
}

export interface Timed {
  code: number | null;
  stdout: string;
  stderr: string;
  wallMs: number;
  /** performance.now() when the child was spawned (the emulator's request log uses the same clock). */
  startedAt: number;
}

export function runCliTimed(args: string[], cwd: string, env: Record<string, string>): Promise<Timed> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    // e.g. BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=prof" to profile the CLI runs.
    const nodeArgs = (process.env.BENCH_NODE_ARGS ?? "").split(" ").filter((a) => a !== "");
    const child = spawn(process.execPath, [...nodeArgs, BIN, ...args], {
      cwd,
      env: {
        PATH: process.env.PATH ?? "",
        NO_COLOR: "1",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (c: string) => {
      stdout += c;
    });
    child.stderr.setEncoding("utf8").on("data", (c: string) => {
      stderr += c;
    });
    child.on("error", reject);
    child.on("close", (code) =>
      resolve({ code, stdout, stderr, wallMs: performance.now() - started, startedAt: started }),
    );
  });
}

export function mustSucceed(what: string, result: Timed, codes: number[] = [0]): Timed {
  if (result.code === null || !codes.includes(result.code)) {
    throw new Error(`${what} exited ${result.code}:\n${result.stderr.slice(0, 2000)}`);
  }
  return result;
}

/**
 * When requests started and ended relative to the spawn, how many were in flight on average, and
 * how long the emulator took to answer one on average.
 */
export function requestTimeline(
  requests: readonly { at: number; durationMs?: number }[],
  startedAt: number,
): { firstRequestMs: number; lastAnswerMs: number; meanInFlight: number; meanAnswerMs: number } {
  if (requests.length === 0) return { firstRequestMs: 0, lastAnswerMs: 0, meanInFlight: 0, meanAnswerMs: 0 };
  let first = Number.POSITIVE_INFINITY;
  let last = 0;
  let busy = 0;
  for (const r of requests) {
    first = Math.min(first, r.at);
    last = Math.max(last, r.at + (r.durationMs ?? 0));
    busy += r.durationMs ?? 0;
  }
  return {
    firstRequestMs: first - startedAt,
    lastAnswerMs: last - startedAt,
    meanInFlight: last > first ? busy / (last - first) : 0,
    // What the emulator took per request, its latency included (a timer fires late, not early).
    meanAnswerMs: busy / requests.length,
  };
}
