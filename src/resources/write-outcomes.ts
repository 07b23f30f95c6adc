// How the executors read a failed write: the HTTP status, and whether a request that failed
// may nevertheless have reached the server (its response lost). Both are structured fields of
// the client's errors; nothing here reads message text.
import { isNotiformError } from "../errors.js";

export function statusOf(error: unknown): number | undefined {
  if (!isNotiformError(error)) return undefined;
  const status = (error as { status?: unknown }).status;
  return typeof status === "number" ? status : undefined;
}

export function mayHaveBeenApplied(error: unknown): boolean {
  return isNotiformError(error) && (error as { mayHaveBeenApplied?: unknown }).mayHaveBeenApplied === true;
}

export function hasCode(error: unknown, code: string): boolean {
  return isNotiformError(error) && error.code === code;
}
