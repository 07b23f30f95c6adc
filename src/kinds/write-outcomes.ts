// How the executors read a failed write: the HTTP status, and whether a request that failed
// may nevertheless have reached the server (its response lost). Both are structured fields of
// the client's errors (ApiError for an answer, NetworkError for none); nothing reads message text.
import { ApiError, NetworkError } from "../api/errors.js";
import { isNotiformError } from "../errors.js";

export function statusOf(error: unknown): number | undefined {
  return error instanceof ApiError ? error.status : undefined;
}

export function mayHaveBeenApplied(error: unknown): boolean {
  return (error instanceof ApiError || error instanceof NetworkError) && error.mayHaveBeenApplied;
}

export function hasCode(error: unknown, code: string): boolean {
  return isNotiformError(error) && error.code === code;
}
