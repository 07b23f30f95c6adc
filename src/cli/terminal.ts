// The terminal is a port: machine output goes to `out` (stdout), human progress and logs to
// `err` (stderr). Commands and renderers write through this, never through console, so tests
// can capture everything and masking has one place to happen.
export interface Terminal {
  out(text: string): void;
  err(text: string): void;
  /** stdout is a TTY (progress, prompts). */
  readonly isTTY: boolean;
  /** stdin is a TTY (a person can answer a prompt). */
  readonly stdinIsTTY: boolean;
  /** Columns of the terminal, when it says (0 or undefined: unknown, e.g. some pseudo-terminals). */
  readonly width: number | undefined;
  /** Colours allowed: a TTY, no NO_COLOR, no --no-color. */
  readonly color: boolean;
  /** Ask a question on stderr and read one line from stdin. */
  prompt(question: string): Promise<string>;
}

export function createProcessTerminal(options: { noColor: boolean }): Terminal {
  const isTTY = process.stdout.isTTY === true;
  const noColorEnv = process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== "";
  return {
    out: (text) => {
      process.stdout.write(text);
    },
    err: (text) => {
      process.stderr.write(text);
    },
    isTTY,
    width: process.stderr.columns ?? process.stdout.columns,
    stdinIsTTY: process.stdin.isTTY === true,
    color: isTTY && !noColorEnv && !options.noColor,
    prompt: async (question) => {
      const { createInterface } = await import("node:readline/promises");
      const rl = createInterface({ input: process.stdin, output: process.stderr });
      try {
        return await rl.question(question);
      } finally {
        rl.close();
      }
    },
  };
}
