// The flags several commands share (the CLI contract: docs/commands.md), declared once as option groups.
// A command adds only the groups it uses, so its --help lists only flags it honours; argument
// types are inferred from these declarations (yargs.InferredOptionTypes), never redeclared.
import type { InferredOptionTypes, Options } from "yargs";
import { integerFlag } from "./numeric-flags.js";

/** Most requests in flight that --concurrency accepts. */
export const MAX_CONCURRENCY = 256;
/** Default and ceiling of --max-wait (seconds): the longest server-requested wait obeyed. */
export const DEFAULT_MAX_WAIT_SECONDS = 60;
export const MAX_MAX_WAIT_SECONDS = 3_600;

/** Where the config is: every command that reads one. */
export const CONFIG_OPTIONS = {
  config: { alias: "c", type: "string", default: "notiform.yaml", describe: "Root config file" },
  env: { type: "string", describe: "Environment to select (defined under `environments`)" },
  "allow-include-outside": {
    type: "boolean",
    default: false,
    describe: "Let include reach files outside the root config file's directory",
  },
} as const satisfies Record<string, Options>;

/** How to reach the API: every command that talks to it. */
export const API_OPTIONS = {
  "api-url": {
    type: "string",
    describe: "API base URL (overrides NOTIFORM_API_URL; a config apiUrl that differs is refused)",
  },
  concurrency: {
    type: "number",
    default: 8,
    describe: `Requests in flight at once (shared by every request of the run), 1-${MAX_CONCURRENCY}`,
    coerce: integerFlag("concurrency", 1, MAX_CONCURRENCY),
  },
  "max-wait": {
    type: "number",
    default: DEFAULT_MAX_WAIT_SECONDS,
    describe: `Longest wait (seconds) a server may ask for (Retry-After, RateLimit-Reset) before the run fails, 0-${MAX_MAX_WAIT_SECONDS}`,
    coerce: integerFlag("max-wait", 0, MAX_MAX_WAIT_SECONDS),
  },
  "insecure-http": {
    type: "boolean",
    default: false,
    describe: "Allow plain http:// to a non-loopback host",
  },
} as const satisfies Record<string, Options>;

/** Every command: main.ts reads it for stack traces on errors; commands may show more with it. */
export const VERBOSE_OPTIONS = {
  verbose: { alias: "v", type: "boolean", default: false, describe: "More detail; stack traces on errors" },
} as const satisfies Record<string, Options>;

/** What a plan covers and how it is drawn: plan and apply. */
export const PLAN_OPTIONS = {
  target: {
    type: "string",
    array: true,
    default: [] as string[],
    describe: "Limit to KIND/KEY (repeatable), e.g. topic/order-updates",
  },
  "list-unmanaged": {
    type: "boolean",
    default: false,
    describe:
      "Read whole lists to show unmanaged resources (by default a small config reads only what it names)",
  },
  color: { type: "boolean", default: true, describe: "Colour output on a TTY (--no-color to disable)" },
  state: { type: "string", describe: "State file (default: notiform[.ENV].state.json beside the config)" },
} as const satisfies Record<string, Options>;

/** What session.ts needs of a command's flags. */
export type SessionArgs = InferredOptionTypes<
  typeof CONFIG_OPTIONS & typeof API_OPTIONS & typeof VERBOSE_OPTIONS
> & {
  state?: string | undefined;
};
