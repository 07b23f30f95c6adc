// How the server's `dateFormat` reads its input: `Date.parse` on the value, then `new Date(value)`,
// on a server whose clock is UTC (r4-21). Numbers are milliseconds (2024 is 2024 ms, though
// `Date.parse(2024)` reads it as a year, which is what lets it through), epoch numbers do not
// parse and come back unchanged, date-only ISO strings are UTC midnight, offsets convert to UTC.
// Strings V8 reads in local time (no offset: "03/04/2024", "2024-03-05T10:00") are read here as
// UTC, whatever this machine's time zone, so a preview says what the server would: V8 is asked to
// read them with a UTC zone added (`Z` after an ISO date-time, ` GMT` after anything else). Taking
// the local offset back off afterwards is not the same: a wall clock in a daylight-saving gap
// parses to the hour after, and before standard time the offset has seconds (local mean time)
// that `getTimezoneOffset` rounds to minutes; that is only the fallback.

/** Milliseconds since the epoch, or undefined when the server would leave the input unchanged. */
export function parseServerDate(value: unknown): number | undefined {
  const text = String(value);
  if (typeof value === "number") return Number.isNaN(Date.parse(text)) ? undefined : value;
  const local = readsAsLocalTime(text);
  if (local) {
    const utc = Date.parse(LOCAL_ISO_DATE_TIME.test(text) ? `${text}Z` : `${text} GMT`);
    if (!Number.isNaN(utc)) return utc;
  }
  const parsed = Date.parse(text);
  if (Number.isNaN(parsed)) return undefined;
  return local ? parsed - new Date(parsed).getTimezoneOffset() * 60_000 : parsed;
}

/** ECMAScript's date-only forms (UTC): a year of 4 digits, or 6 with a sign. */
const DATE_ONLY_ISO = /^(\d{4}|[+-]\d{6})(-\d\d(-\d\d)?)?$/;
/** ECMAScript's date-time form without an offset (local time). */
const LOCAL_ISO_DATE_TIME = /^(\d{4}|[+-]\d{6})-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?$/;
const HAS_ZONE = /(Z|[+-]\d\d:?\d\d|\b(GMT|UTC|UT|[ECMP][SD]T)\b[^a-z]*)$/i;

/** Whether V8 reads this date string in the machine's time zone rather than UTC. */
function readsAsLocalTime(text: string): boolean {
  // Only the exact form is ISO: with a space around it, V8's other parser reads it, locally.
  if (DATE_ONLY_ISO.test(text)) return false;
  // V8's other parser skips parenthesized comments ("GMT-0500 (Eastern Standard Time)").
  return !HAS_ZONE.test(text.replace(/\([^)]*\)/g, " ").trim());
}
