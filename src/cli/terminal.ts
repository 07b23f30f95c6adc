// The terminal is a port: machine output goes to `out` (stdout), human progress and logs to
// `err` (stderr). Commands and renderers write through this, never through console, so tests
// can capture everything and masking has one place to happen.

import { NotiformError } from "../errors.js";
import { visibleText } from "../sanitize.js";

/**
 * The prompt got no answer: Ctrl-C (INTERRUPTED, exit 130) or end of input, e.g. Ctrl-D
 * (NOT_CONFIRMED, exit 1). A NotiformError, so a caller that does not catch it still ends cleanly.
 */
export class PromptAborted extends NotiformError {
  readonly reason: "interrupt" | "eof";

  constructor(reason: "interrupt" | "eof") {
    super(
      reason === "interrupt" ? "INTERRUPTED" : "NOT_CONFIRMED",
      reason === "interrupt" ? "aborted at the prompt (Ctrl-C)" : "aborted at the prompt (end of input)",
    );
    this.name = "PromptAborted";
    this.reason = reason;
  }
}
export interface Terminal {
  out(text: string): void;
  err(text: string): void;
  /**
   * A transient status line on stderr, redrawn in place (carriage return, erase line); "" clears
   * it. The text is one line of plain text: its control characters are shown escaped.
   */
  status(line: string): void;
  /** stdout is a TTY (progress, prompts). */
  readonly isTTY: boolean;
  /** stdin is a TTY (a person can answer a prompt). */
  readonly stdinIsTTY: boolean;
  /** Columns of the terminal, when it says (0 or undefined: unknown, e.g. some pseudo-terminals). */
  readonly width: number | undefined;
  /** Colours allowed: a TTY, no NO_COLOR, no --no-color. */
  readonly color: boolean;
  /** Ask a question on stderr and read one line from stdin; rejects with PromptAborted. */
  prompt(question: string): Promise<string>;
}

/**
 * Emitted on `process` once stdout or stderr has closed (`apply | head -1`, a killed `tee`, a
 * dropped SSH session): runs that change the server treat it as an interrupt (interrupts.ts).
 */
export const OUTPUT_CLOSED = "notiform:output-closed";

/**
 * Watch a stream for its reader going away. Without a listener, the EPIPE of the next write is
 * an uncaught exception: the process dies mid-apply, exit 1, after writes reached the server.
 * Returns whether the stream is still open.
 */
function watchClosed(stream: NodeJS.WriteStream): () => boolean {
  let open = true;
  stream.on("error", () => {
    if (!open) return;
    open = false;
    // A custom event: not among the typed process events of @types/node.
    (process as NodeJS.EventEmitter).emit(OUTPUT_CLOSED);
  });
  return () => open;
}

export function createProcessTerminal(options: { noColor: boolean }): Terminal {
  const isTTY = process.stdout.isTTY === true;
  const noColorEnv = process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== "";
  const outOpen = watchClosed(process.stdout);
  const errOpen = watchClosed(process.stderr);
  return {
    out: (text) => {
      if (outOpen()) process.stdout.write(text);
    },
    err: (text) => {
      if (errOpen()) process.stderr.write(text);
    },
    status: (line) => {
      if (errOpen()) process.stderr.write(`\r\u001b[2K${visibleText(line)}`);
    },
    isTTY,
    width: process.stderr.columns ?? process.stdout.columns,
    stdinIsTTY: process.stdin.isTTY === true,
    color: isTTY && !noColorEnv && !options.noColor,
    prompt: async (question) => {
      const { createInterface } = await import("node:readline");
      const rl = createInterface({ input: process.stdin, output: process.stderr });
      return new Promise<string>((resolve, reject) => {
        let settled = false;
        const settle = (answer: string | PromptAborted) => {
          if (settled) return;
          settled = true;
          if (answer instanceof PromptAborted) reject(answer);
          else resolve(answer);
          rl.close();
        };
        // On a terminal readline reads keys raw: Ctrl-C arrives here, not as a signal.
        rl.on("SIGINT", () => {
          if (!settled) process.stderr.write("\n");
          settle(new PromptAborted("interrupt"));
        });
        rl.on("close", () => {
          if (!settled) process.stderr.write("\n");
          settle(new PromptAborted("eof"));
        });
        rl.question(question, (answer) => settle(answer));
      });
    },
  };
}
