// Durations on the command line ("30s", "2m", "500ms", "1h"; a bare number is seconds), parsed
// once here so every flag that waits reads the same way.
const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Milliseconds, or undefined when the text is not a duration. */
export function parseDuration(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text);
  if (match === null) return undefined;
  const value = Number(match[1]) * (UNITS[match[2] ?? "s"] ?? 1000);
  return Number.isFinite(value) ? Math.round(value) : undefined;
}
