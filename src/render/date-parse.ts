// How the server's `dateFormat` reads its input: `Date.parse` on the value, then `new Date(value)`,
// on a server whose clock is UTC (r4-21). Numbers are milliseconds (2024 is 2024 ms, though
// `Date.parse(2024)` reads it as a year, which is what lets it through), epoch numbers do not
// parse and come back unchanged, date-only ISO strings are UTC midnight, offsets convert to UTC.
// Strings V8 reads in local time (no offset: "03/04/2024", "2024-03-05T10:00") are read here as
// UTC, whatever this machine's time zone, so a preview says what the server would.

/** Milliseconds since the epoch, or undefined when the server would leave the input unchanged. */
export function parseServerDate(value: unknown): number | undefined {
  const text = String(value);
  const parsed = Date.parse(text);
  if (Number.isNaN(parsed)) return undefined;
  if (typeof value === "number") return value;
  return readsAsLocalTime(text) ? parsed - new Date(parsed).getTimezoneOffset() * 60_000 : parsed;
}

const DATE_ONLY_ISO = /^[+-]?\d{4,6}(-\d\d(-\d\d)?)?$/;
const HAS_ZONE = /(Z|[+-]\d\d:?\d\d|\b(GMT|UTC|UT|[ECMP][SD]T)\b[^a-z]*)$/i;

/** Whether V8 reads this date string in the machine's time zone rather than UTC. */
function readsAsLocalTime(text: string): boolean {
  const trimmed = text.trim();
  if (DATE_ONLY_ISO.test(trimmed)) return false;
  return !HAS_ZONE.test(trimmed);
}
