// What the CLI hands the pipeline: the pipeline never reaches up into the CLI for a terminal, a
// prompt or a flag parser. Output for a person arrives through `note`, the client's request log
// and read progress through `log` and `onPage` (the CLI decides whether they are drawn).
import type { ClientLogEvent, PageProgress } from "../api/index.js";
import type { Masker } from "../mask.js";

// What the CLI draws of the client's events, from here so the CLI reaches no lower than the pipeline.
export type { ClientLogEvent, PageProgress } from "../api/index.js";
export { formatClientEvent } from "../api/index.js";

export interface RunContext {
  /** Every secret the run meets is registered here (API key, interpolated values, tokens). */
  masker: Masker;
  /** Process environment (variables for interpolation and the API key). */
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** A line for the person running it (stderr): warnings and timings, whatever --output is. */
  note(text: string): void;
  /** --verbose: each request, retry and wait. */
  log?: (event: ClientLogEvent) => void;
  /** After each page of a whole-list read, where the CLI draws read progress. */
  onPage?: (progress: PageProgress) => void;
}

/** The flags of a run that talks to the API, as the pipeline reads them. */
export interface RunArgs {
  config: string;
  env?: string | undefined;
  "allow-include-outside"?: boolean | undefined;
  "api-url"?: string | undefined;
  concurrency: number;
  "max-wait"?: number | undefined;
  "insecure-http": boolean;
  verbose?: boolean | undefined;
  state?: string | undefined;
}
