// The flags every command shares (DESIGN.md "CLI contract"), declared once.
import type { Argv } from "yargs";
import { integerFlag } from "./numeric-flags.js";

/** Most requests in flight that --concurrency accepts. */
export const MAX_CONCURRENCY = 256;
/** Default and ceiling of --max-wait (seconds): the longest server-requested wait obeyed. */
export const DEFAULT_MAX_WAIT_SECONDS = 60;
export const MAX_MAX_WAIT_SECONDS = 3_600;

export interface CommonArgs {
  config: string;
  env: string | undefined;
  "api-url": string | undefined;
  concurrency: number;
  "max-wait": number;
  target: string[];
  "list-unmanaged": boolean;
  color: boolean;
  verbose: boolean;
  "insecure-http": boolean;
  output: "text" | "json" | "markdown";
}

export function withCommonOptions<T>(yargs: Argv<T>) {
  return yargs
    .option("config", {
      alias: "c",
      type: "string",
      default: "notiform.yaml",
      describe: "Root config file",
      global: true,
    })
    .option("env", {
      type: "string",
      describe: "Environment to select (defined under `environments`)",
      global: true,
    })
    .option("api-url", {
      type: "string",
      describe: "API base URL (overrides the environment's apiUrl and NOTIFORM_API_URL)",
      global: true,
    })
    .option("concurrency", {
      type: "string",
      default: 8,
      describe: `Requests in flight at once (shared by every request of the run), 1-${MAX_CONCURRENCY}`,
      coerce: integerFlag("concurrency", 1, MAX_CONCURRENCY),
      global: true,
    })
    .option("max-wait", {
      type: "string",
      default: DEFAULT_MAX_WAIT_SECONDS,
      describe: `Longest wait (seconds) a server may ask for (Retry-After, RateLimit-Reset) before the run fails, 0-${MAX_MAX_WAIT_SECONDS}`,
      coerce: integerFlag("max-wait", 0, MAX_MAX_WAIT_SECONDS),
      global: true,
    })
    .option("target", {
      type: "string",
      array: true,
      default: [] as string[],
      describe: "Limit to KIND/KEY (repeatable), e.g. topic/order-updates",
      global: true,
    })
    .option("list-unmanaged", {
      type: "boolean",
      default: false,
      describe:
        "Read whole lists to show unmanaged resources (by default a small config reads only what it names)",
      global: true,
    })
    .option("color", {
      type: "boolean",
      default: true,
      describe: "Colour output on a TTY (--no-color to disable)",
      global: true,
    })
    .option("verbose", {
      alias: "v",
      type: "boolean",
      default: false,
      describe: "More detail; stack traces on errors",
      global: true,
    })
    .option("insecure-http", {
      type: "boolean",
      default: false,
      describe: "Allow plain http:// to a non-loopback host",
      global: true,
    });
}
