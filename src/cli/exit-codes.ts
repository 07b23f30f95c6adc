// Exit codes of the CLI contract (docs/commands.md, "Exit codes"), in one place.
export const EXIT = {
  /** Success (and no changes, with --detailed-exitcode). */
  ok: 0,
  /** Error; nothing applied. */
  error: 1,
  /** Changes present (plan --detailed-exitcode). */
  changes: 2,
  /** Apply stopped or finished with failures after some changes were applied. */
  partial: 3,
  /** Interrupted (SIGINT). */
  interrupted: 130,
} as const;
