// Redaction for everything the client logs: partner access tokens (a credential the
// organization record carries) are replaced before a body reaches a log line. The API key is
// never handed to the logger in the first place.
export const REDACTED = "********";

export function redactBody(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactBody);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = key === "accessToken" && typeof inner === "string" ? REDACTED : redactBody(inner);
  }
  return out;
}
