// Redaction of secrets from anything the client logs. A logged body keeps its shape, but every
// `accessToken` (an organization's partnerConfigurations[] carry one, a credential) reads
// "********", and the API key is masked out of every string. Nothing here logs or stores.
export const REDACTED = "********";

/** Replace every occurrence of the key in a text (a server could echo it back). */
export function maskKey(text: string, apiKey: string): string {
  return apiKey === "" ? text : text.split(apiKey).join(REDACTED);
}

/**
 * A copy of `value` safe to log: `accessToken` fields redacted, the key masked in strings.
 * Copy-on-write: parts holding no secret are shared with the input, which is never modified.
 */
export function redactForLog(value: unknown, apiKey: string): unknown {
  if (typeof value === "string")
    return apiKey !== "" && value.includes(apiKey) ? maskKey(value, apiKey) : value;
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item: unknown, index) => {
      const redacted = redactForLog(item, apiKey);
      if (redacted !== item) {
        copy ??= [...value];
        copy[index] = redacted;
      }
    });
    return copy ?? value;
  }
  let copy: Record<string, unknown> | undefined;
  for (const [field, item] of Object.entries(value)) {
    const redacted = field === "accessToken" && item !== undefined ? REDACTED : redactForLog(item, apiKey);
    if (redacted !== item) {
      copy ??= { ...(value as Record<string, unknown>) };
      copy[field] = redacted;
    }
  }
  return copy ?? value;
}
