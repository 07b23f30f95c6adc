// A config load's failure as plain data (it crosses from the loading worker to the main thread)
// and back: the same error class (ConfigError, InternalError, NotiformError; anything else an
// Error, reported as a bug), code, message, hint, position, problems and sensitive values.
import {
  ConfigError,
  type ErrorCode,
  InternalError,
  NotiformError,
  type Position,
  type Problem,
} from "../errors.js";

export type LoadFailure =
  | { kind: "config"; message: string; problems: Problem[]; sensitive: string[] }
  | { kind: "notiform"; code: ErrorCode; message: string; hint?: string; pos?: Position }
  | { kind: "other"; message: string; stack?: string };

export function serializeLoadError(error: unknown): LoadFailure {
  if (error instanceof ConfigError)
    return { kind: "config", message: error.message, problems: error.problems, sensitive: error.sensitive };
  if (error instanceof NotiformError) {
    return {
      kind: "notiform",
      code: error.code,
      message: error.message,
      ...(error.hint !== undefined ? { hint: error.hint } : {}),
      ...(error.pos !== undefined ? { pos: error.pos } : {}),
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { kind: "other", message, ...(error instanceof Error && error.stack ? { stack: error.stack } : {}) };
}

export function deserializeLoadError(failure: LoadFailure): Error {
  if (failure.kind === "config") return new ConfigError(failure.problems, failure.message, failure.sensitive);
  // A bug stays a bug on this side too: reported as one, with the request to report it.
  if (failure.kind === "notiform" && failure.code === "INTERNAL") return new InternalError(failure.message);
  if (failure.kind === "notiform") {
    return new NotiformError(failure.code, failure.message, {
      ...(failure.hint !== undefined ? { hint: failure.hint } : {}),
      ...(failure.pos !== undefined ? { pos: failure.pos } : {}),
    });
  }
  const error = new Error(failure.message);
  if (failure.stack !== undefined) error.stack = failure.stack;
  return error;
}
