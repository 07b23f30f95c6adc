// Error answers in the shape a real server sends: {statusCode, timestamp, path, message, error?}.
// `message` is a string, or an array of strings for body validation failures (400).
export class HttpError extends Error {
  readonly status: number;
  readonly body: string | string[];
  readonly error: string | undefined;
  readonly headers: Record<string, string>;

  /** `error: null` leaves the field out (some real answers have none). */
  constructor(
    status: number,
    message: string | string[],
    error?: string | null,
    headers: Record<string, string> = {},
  ) {
    super(Array.isArray(message) ? message.join("; ") : message);
    this.status = status;
    this.body = message;
    this.error = error === null ? undefined : (error ?? REASON[status]);
    this.headers = headers;
  }
}

const REASON: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  404: "Not Found",
  409: "Conflict",
  413: "Payload Too Large",
  429: "Too Many Requests",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** Every 500 carries an errorId, as a real server's does; a fixed one keeps answers reproducible. */
export const EMULATOR_ERROR_ID = "00000000-0000-4000-8000-000000000000";

export function errorBody(error: HttpError, path: string, timestamp: string): Record<string, unknown> {
  const body: Record<string, unknown> = { statusCode: error.status, timestamp, path, message: error.body };
  if (error.error !== undefined) body.error = error.error;
  if (error.status === 500) body.errorId = EMULATOR_ERROR_ID;
  return body;
}

export const badRequest = (message: string | string[]) => new HttpError(400, message);

/** A real server's 500: this message, an `errorId` (added by errorBody) and no `error` field. */
export const INTERNAL_ERROR = "Internal server error, contact support and provide them with the errorId";
export const internalError = () => new HttpError(500, INTERNAL_ERROR, null);
export const notFound = (message: string, error?: string) => new HttpError(404, message, error);
