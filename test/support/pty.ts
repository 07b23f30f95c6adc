// Runs the built CLI on a real pseudo-terminal (python3's pty module), so stdin and stdout are
// TTYs as for a person at a terminal: listr2 draws, readline reads keys raw, and Ctrl-C is the
// byte \x03 that the terminal turns into SIGINT (or readline into a keypress). Output (stdout
// and stderr share the terminal) is collected; `type` writes keys to the terminal.
import { type ChildProcess, spawn } from "node:child_process";
import { BIN } from "../support/cli.js";

// Relays the terminal's output to stdout and our stdin to the terminal; exits with the CLI's
// exit code (128 + n when a signal ended it). 120x40 so listr2 has the width it needs.
const RELAY = `
import os, pty, sys, select, struct, fcntl, termios, signal
pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    os.execv(sys.argv[1], sys.argv[1:])
inputs = [fd, 0]
while True:
    ready, _, _ = select.select(inputs, [], [])
    if fd in ready:
        try:
            data = os.read(fd, 65536)
        except OSError:
            data = b""
        if not data:
            break
        os.write(1, data)
    if 0 in ready:
        data = os.read(0, 1024)
        if not data:
            inputs = [fd]
        else:
            os.write(fd, data)
_, status = os.waitpid(pid, 0)
code = os.waitstatus_to_exitcode(status)
sys.exit(128 - code if code < 0 else code)
`;

export interface PtyRun {
  child: ChildProcess;
  /** Everything the terminal showed so far. */
  output(): string;
  /** Type on the terminal, e.g. "\x03" for Ctrl-C, "\x04" for Ctrl-D. */
  type(keys: string): void;
  /** The CLI's exit code (128 + signal number when a signal ended it). */
  exited: Promise<number>;
}

export function runOnPty(
  args: string[],
  options: { cwd: string; env: Record<string, string>; bin?: string },
): PtyRun {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: options.cwd,
    TERM: "xterm-256color",
    NO_COLOR: "1",
    ...options.env,
  };
  const child = spawn("python3", ["-c", RELAY, process.execPath, options.bin ?? BIN, ...args], {
    cwd: options.cwd,
    env,
    stdio: ["pipe", "pipe", "inherit"],
  });
  let output = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  const exited = new Promise<number>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve(code ?? -1));
  });
  return {
    child,
    output: () => output,
    type: (keys) => {
      child.stdin?.write(keys);
    },
    exited,
  };
}
