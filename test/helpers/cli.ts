// Runs the built CLI as a child process, the way users and CI run it: a minimal environment
// (no inherited NOTIFORM_* variables, NO_COLOR=1), stdout and stderr captured separately.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const BIN = fileURLToPath(new URL("../../bin/notiform.js", import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd: string;
  env?: Record<string, string | undefined>;
  /** Written to the child's stdin, then stdin is closed. */
  input?: string;
  /** Called once the child is spawned, e.g. to signal it. */
  onSpawn?: (child: import("node:child_process").ChildProcess) => void;
}

export function runCli(args: string[], options: CliOptions): Promise<CliResult> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? "", NO_COLOR: "1", HOME: options.cwd };
  for (const [name, value] of Object.entries(options.env ?? {})) if (value !== undefined) env[name] = value;
  return runProcess(process.execPath, [BIN, ...args], { ...options, env });
}

/** Any command as a child process: exactly `env` as its environment, stdout and stderr captured. */
export function runProcess(
  command: string,
  args: string[],
  options: Omit<CliOptions, "env"> & { env: Record<string, string> },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: "pipe" });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
    // A child that exits before reading its input (a shell failing at once) closes the pipe
    // first: that is its answer, not an error of the test.
    child.stdin.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") reject(error);
    });
    child.stdin.end(options.input ?? "");
    options.onSpawn?.(child);
  });
}

/** An onSpawn that sends SIGKILL once `when()` holds (polled every millisecond). */
export function killWhen(when: () => boolean): NonNullable<CliOptions["onSpawn"]> {
  return (child) => {
    const timer = setInterval(() => {
      if (when()) {
        child.kill("SIGKILL");
        clearInterval(timer);
      }
    }, 1);
    child.on("close", () => clearInterval(timer));
  };
}
