// The error taxonomy: every failure the user can meet is one of these, with a stable `code`
// and structured fields. Nothing outside src/cli/ decides an exit code or prints an error;
// nothing classifies an error by its message text (the one exception, the server's
// "Development environment" 401, is classified once, in src/api/).

/** A place in a config file. Lines and columns are 1-based. */
export interface Position {
  file: string;
  line: number;
  col: number;
}

export type Severity = "error" | "warning";

/** One problem found in the config (schema, semantic check, YAML syntax, interpolation). */
export interface Problem {
  severity: Severity;
  /** Stable machine code, e.g. "yaml-syntax", "schema", "duplicate-identity". */
  rule: string;
  message: string;
  pos: Position;
  /** The field path inside the file's document, e.g. "topics[2].name", when known. */
  field?: string;
}

export type ErrorCode =
  | "USAGE"
  | "CONFIG_NOT_FOUND"
  | "CONFIG_INVALID"
  | "API_KEY_MISSING"
  | "API_KEY_MALFORMED"
  | "API_AUTH"
  | "API_DEV_ONLY"
  | "API_NOT_FOUND"
  | "API_ERROR"
  | "API_BAD_RESPONSE"
  | "API_UNSUPPORTED"
  | "API_WAIT_TOO_LONG"
  | "API_PAGINATION"
  | "REQUEST_INVALID"
  | "NETWORK"
  | "INSECURE_URL"
  | "API_URL_CONFLICT"
  | "API_URL_UNSEALED"
  | "ORG_MISMATCH"
  | "ENVIRONMENT_MISMATCH"
  | "WORKFLOW_NOT_FOUND"
  | "STATE_INVALID"
  | "STATE_FOREIGN"
  | "STATE_LOCKED"
  | "STATE_WRITE_FAILED"
  | "PLAN_INVALID"
  | "PLAN_TARGET_MISMATCH"
  | "PLAN_CONFIG_CHANGED"
  | "PLAN_STALE"
  | "PROMOTION_INVALID"
  | "PROMOTION_STALE"
  | "WRONG_ENVIRONMENT"
  | "NOT_CONFIRMED"
  | "FILE_EXISTS"
  | "FILE_WRITE_FAILED"
  | "FILE_UNSAFE"
  | "OUTPUT_DIR_MISSING"
  | "PORT_UNAVAILABLE"
  | "BROWSER_NOT_FOUND"
  | "SCREENSHOT_FAILED"
  | "RENDER_FAILED"
  | "INTERRUPTED"
  | "CREATE_UNCERTAIN"
  | "TEMPLATE_INVALID"
  | "INTERNAL";

export interface NotiformErrorOptions {
  hint?: string;
  cause?: unknown;
  pos?: Position;
}

export class NotiformError extends Error {
  readonly code: ErrorCode;
  readonly hint: string | undefined;
  readonly pos: Position | undefined;

  constructor(code: ErrorCode, message: string, options: NotiformErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "NotiformError";
    this.code = code;
    this.hint = options.hint;
    this.pos = options.pos;
  }
}

/** The config did not load or validate; `problems` holds every problem found, not just the first. */
export class ConfigError extends NotiformError {
  readonly problems: Problem[];
  /** Values interpolated from the environment before the failure: to be masked in the report. */
  readonly sensitive: string[];

  constructor(problems: Problem[], message = "the configuration is not valid", sensitive: string[] = []) {
    super("CONFIG_INVALID", message);
    this.name = "ConfigError";
    this.problems = problems;
    this.sensitive = sensitive;
  }
}

/** A bug in notiform itself: the CLI says so and asks for a report. */
export class InternalError extends NotiformError {
  constructor(message: string, cause?: unknown) {
    super("INTERNAL", message, { cause });
    this.name = "InternalError";
  }
}

export function isNotiformError(error: unknown): error is NotiformError {
  return error instanceof NotiformError;
}
