// The client's typed failures. Every failed call becomes an ApiError (the server answered) or a
// NetworkError (it did not), carrying method, path, status, the server's message and how many
// attempts were made. Codes are decided here, once, from structured facts (status, route);
// the messages the code depends on are the server's "Development environment" 401 and the
// framework's "Cannot <METHOD> <path>" 404 of a route it does not have, which have no other
// distinguishing mark (the record 404s carry the same status and `error`). The API key is
// never part of anything built here: server text is masked before it arrives.
import { type ErrorCode, NotiformError } from "../errors.js";

export interface ApiErrorFacts {
  method: string;
  /** Path without the query string (queries may carry identifiers, never secrets; kept short). */
  path: string;
  /** The client method that made the call, e.g. "getCurrentOrganization". */
  endpoint: string;
  status: number;
  /** The server's message; an array of validation messages joined with "; ". */
  serverMessage: string;
  /** The server sent an array of messages: a validation failure of the request body. */
  validation: boolean;
  attempts: number;
  /** True when a write's request may have reached the server although it failed. */
  mayHaveBeenApplied: boolean;
  /** Whether the endpoint is an observed extension (missing routes mean "unsupported"). */
  extension: boolean;
  apiKeyEnv?: string;
  /** A hint that replaces the one the code would get (e.g. an HTML page instead of the API). */
  hint?: string;
}

const DEV_ONLY = "only allowed in Development environment";

export class ApiError extends NotiformError {
  readonly method: string;
  readonly path: string;
  readonly endpoint: string;
  readonly status: number;
  readonly serverMessage: string;
  readonly validation: boolean;
  readonly attempts: number;
  readonly retried: boolean;
  readonly mayHaveBeenApplied: boolean;

  constructor(facts: ApiErrorFacts, code: ErrorCode = classifyApiError(facts)) {
    const after = facts.attempts > 1 ? ` (after ${facts.attempts} attempts)` : "";
    super(code, `${facts.method} ${facts.path}: ${facts.status} ${facts.serverMessage}${after}`, {
      ...(facts.hint !== undefined ? { hint: facts.hint } : hintFor(code, facts)),
    });
    this.name = "ApiError";
    this.method = facts.method;
    this.path = facts.path;
    this.endpoint = facts.endpoint;
    this.status = facts.status;
    this.serverMessage = facts.serverMessage;
    this.validation = facts.validation;
    this.attempts = facts.attempts;
    this.retried = facts.attempts > 1;
    this.mayHaveBeenApplied = facts.mayHaveBeenApplied;
  }
}

export interface NetworkErrorFacts {
  method: string;
  path: string;
  endpoint: string;
  baseUrl: string;
  attempts: number;
  mayHaveBeenApplied: boolean;
  /** A short reason: "connection refused", "connection reset", "timed out waiting for headers". */
  reason: string;
  /** What to check, when it is not the API URL and the network (a proxy, a certificate). */
  hint?: string;
  cause?: unknown;
}

export class NetworkError extends NotiformError {
  readonly method: string;
  readonly path: string;
  readonly endpoint: string;
  readonly attempts: number;
  readonly retried: boolean;
  readonly mayHaveBeenApplied: boolean;

  constructor(facts: NetworkErrorFacts) {
    const after = facts.attempts > 1 ? ` (after ${facts.attempts} attempts)` : "";
    super("NETWORK", `${facts.method} ${facts.baseUrl}${facts.path}: ${facts.reason}${after}`, {
      hint: facts.hint ?? "Check the API URL (--api-url, NOTIFORM_API_URL) and the network.",
      cause: facts.cause,
    });
    this.name = "NetworkError";
    this.method = facts.method;
    this.path = facts.path;
    this.endpoint = facts.endpoint;
    this.attempts = facts.attempts;
    this.retried = facts.attempts > 1;
    this.mayHaveBeenApplied = facts.mayHaveBeenApplied;
  }
}

/** A response that is not what the API promises (not JSON, no envelope, wrong types, too big). */
export function badResponse(
  at: { method: string; path: string; endpoint: string; status: number; attempts: number },
  problem: string,
): ApiError {
  return new ApiError(
    {
      method: at.method,
      path: at.path,
      endpoint: at.endpoint,
      status: at.status,
      serverMessage: `unexpected response: ${problem}`,
      validation: false,
      attempts: at.attempts,
      // The server answered, so a write reached it; what it did is unknown: read back.
      mayHaveBeenApplied: at.method !== "GET",
      extension: false,
    },
    "API_BAD_RESPONSE",
  );
}

/**
 * A 2xx answer that is an HTML page: the URL reaches a web site (a dashboard, a docs page, a
 * proxy's landing page), not the API. Said plainly, naming the URL, since it is a setup mistake.
 */
export function htmlPage(
  at: { method: string; path: string; endpoint: string; status: number; attempts: number },
  baseUrl: string,
): ApiError {
  return new ApiError(
    {
      method: at.method,
      path: at.path,
      endpoint: at.endpoint,
      status: at.status,
      serverMessage: `${baseUrl} answered with an HTML page, not the API's JSON: it is not the API's base URL`,
      validation: false,
      attempts: at.attempts,
      mayHaveBeenApplied: at.method !== "GET",
      extension: false,
      hint: "Set --api-url (or NOTIFORM_API_URL, or the environment's apiUrl) to the API's base URL, e.g. https://api.novu.co or https://eu.api.novu.co, not a dashboard or web page; notiform adds /v1/... itself.",
    },
    "API_BAD_RESPONSE",
  );
}

function classifyApiError(facts: ApiErrorFacts): ErrorCode {
  if (facts.status === 401 && facts.serverMessage.includes(DEV_ONLY)) return "API_DEV_ONLY";
  if (facts.status === 401 || facts.status === 403) return "API_AUTH";
  // A spec endpoint can be missing too (POST/GET /v1/organizations on the hosted build), and a
  // missing route is never "record not found": callers must not read it as "absent, create it".
  if (isMissingRoute(facts)) return "API_UNSUPPORTED";
  if (facts.status === 404) return "API_NOT_FOUND";
  return "API_ERROR";
}

/**
 * "Cannot PUT /v1/..." (the framework's answer for a route it does not have), 405 Method Not
 * Allowed or 501 Not Implemented: the endpoint is missing, not the record.
 */
export function isMissingRoute(facts: { status: number; serverMessage: string; method: string }): boolean {
  if (facts.status === 405 || facts.status === 501) return true;
  return facts.status === 404 && facts.serverMessage.startsWith(`Cannot ${facts.method} /`);
}

/**
 * The error for a call to an extension the server was already found not to serve: no request
 * is sent; the status and message are those of the answer that taught us.
 */
export function rememberedUnsupported(
  call: { method: string; path: string; endpoint: string },
  learnt: { status: number; serverMessage: string },
): ApiError {
  return new ApiError(
    {
      ...call,
      status: learnt.status,
      serverMessage: `${learnt.serverMessage} (remembered from an earlier answer; not sent)`,
      validation: false,
      attempts: 0,
      mayHaveBeenApplied: false,
      extension: true,
    },
    "API_UNSUPPORTED",
  );
}

/**
 * The server's message from an error body (`message` string or array), or the start of the text;
 * `mask` applied to the message, and to the text before it is cut (a cut secret is no longer
 * recognisable as one).
 */
export function parseErrorBody(
  text: string,
  mask: (text: string) => string = (same) => same,
): { message: string; validation: boolean } {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === "object") {
      const { message, error } = parsed as { message?: unknown; error?: unknown };
      if (Array.isArray(message)) return { message: mask(message.map(String).join("; ")), validation: true };
      if (typeof message === "string") return { message: mask(message), validation: false };
      if (typeof error === "string") return { message: mask(error), validation: false };
    }
  } catch {
    // Not JSON (a proxy's HTML page, say): show the start of what came back.
  }
  const snippet = mask(text).trim().replace(/\s+/g, " ").slice(0, 200);
  return { message: snippet === "" ? "(no message)" : snippet, validation: false };
}

function hintFor(code: ErrorCode, facts: ApiErrorFacts): { hint?: string } {
  switch (code) {
    case "API_DEV_ONLY":
      return {
        hint: "This change needs a Development environment key: Production receives such changes by promotion from Development.",
      };
    case "API_AUTH":
      return {
        hint: `The server refused the API key in ${facts.apiKeyEnv ?? "NOTIFORM_API_KEY"}: check that it is set to a current key of the intended environment.`,
      };
    case "API_WAIT_TOO_LONG":
      return { hint: "Try again later, or allow a longer wait with --max-wait SECONDS." };
    case "API_UNSUPPORTED":
      return {
        hint: facts.extension
          ? "This server does not serve this (non-spec) endpoint; notiform falls back where it can."
          : "The server has no such route: check the API URL (the base URL, without /v1).",
      };
    default:
      return {};
  }
}
