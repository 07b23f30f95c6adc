// Checks made before sending, for requests a real server would answer with a 500 (an empty
// name; each kind adds its own) or refuse in a less helpful way (an id that is not 24 hex).
// They throw REQUEST_INVALID and never reach the network.
import { NotiformError } from "../errors.js";

const OBJECT_ID = /^[0-9a-f]{24}$/i;

export function invalidRequest(message: string): NotiformError {
  return new NotiformError("REQUEST_INVALID", message);
}

export function checkName(what: string, name: string): void {
  if (typeof name !== "string" || name.trim() === "") throw invalidRequest(`${what} must not be empty`);
}

/** Server-side ids (MongoDB ObjectIds): 24 hex digits. */
export function checkId(what: string, id: string): void {
  if (typeof id !== "string" || !OBJECT_ID.test(id)) {
    throw invalidRequest(`${what} ${JSON.stringify(id)} is not a 24-character hex id`);
  }
}

/** A path segment, percent-encoded; empty segments would silently address another route. */
/**
 * One URL path segment, percent-encoded. "." and ".." are refused: encoded they stay dot
 * segments, which a URL parser, proxy or server removes (`/v1/things/..` is `/v1/`), so the
 * request would reach another route. The config schema refuses them first; this holds for every
 * value, from the state file or the server too.
 */
export function segment(what: string, value: string): string {
  if (typeof value !== "string" || value === "") throw invalidRequest(`${what} must not be empty`);
  if (value === "." || value === "..")
    throw invalidRequest(`${what} must not be "${value}" (a dot segment would reach another route)`);
  return encodeURIComponent(value);
}

export function numberOr(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}
