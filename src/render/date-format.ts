// `dateFormat`'s formatting: date-fns v2 `format(date, pattern)` with the en-US locale, on a
// server whose clock is UTC (r4-20). Written from date-fns v2's documented tokens
// (docs/unicodeTokens.md) rather than depending on it: every token of the v2 table is formatted
// here (era, years incl. week-numbering and ISO years, quarters, months, weeks, days, weekdays,
// day periods, hours, minutes, seconds, fractions, time zones, timestamps, ordinals `do`, and the
// long formats `P`..`PPPP`, `p`..`pppp` and their combinations), with date-fns's errors for an
// unescaped latin letter and for `YYYY`/`YY`/`D`/`DD`. The zone is always UTC: `X` is `Z`, `z` is
// `GMT+0`, `zzzz` is `GMT+00:00`.

const MS_DAY = 86_400_000;
const MS_WEEK = 7 * MS_DAY;

const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];
const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

const LONG_DATE: Record<number, string> = { 1: "MM/dd/yyyy", 2: "MMM d, y", 3: "MMMM do, y" };
const LONG_TIME: Record<number, string> = { 1: "h:mm a", 2: "h:mm:ss a", 3: "h:mm:ss a z" };
const LONG_DATE_TIME: Record<number, string> = { 1: "{{date}}, {{time}}", 2: "{{date}}, {{time}}" };

const LONG_TOKENS = /P+p+|P+|p+|''|'(''|[^'])+('|$)|./g;
const TOKENS = /[yYQqMLwIdDecihHKkms]o|(\w)\1*|''|'(''|[^'])+('|$)|./g;

/** Format `time` (ms since the epoch) with a date-fns v2 pattern, in UTC; throws RangeError as date-fns does. */
export function formatDate(time: number, pattern: string): string {
  const date = new Date(time);
  if (Number.isNaN(date.getTime())) throw new RangeError("Invalid time value");
  const shown = shownDate(date);
  const expanded = tokensOf(pattern, LONG_TOKENS)
    .map((part) => (part[0] === "p" ? longTime(part.length) : part[0] === "P" ? longDateTime(part) : part))
    .join("");
  return tokensOf(expanded, TOKENS)
    .map((part) => {
      if (part === "''") return "'";
      const first = part[0] ?? "";
      if (first === "'") return (/^'([\s\S]*?)'?$/.exec(part)?.[1] ?? "").replace(/''/g, "'");
      const formatter = FORMATTERS[first];
      if (formatter !== undefined) {
        checkProtected(part, pattern, date);
        return formatter(shown, part, date.getTime());
      }
      if (/[a-zA-Z]/.test(first))
        throw new RangeError(`Format string contains an unescaped latin alphabet character \`${first}\``);
      return part;
    })
    .join("");
}

/**
 * The pattern's tokens. Neither regex matches a line break outside quotes, so date-fns drops them
 * ("yyyy\nMM" is "202403"), and it maps over the match unchecked: a pattern with nothing else (or
 * empty) fails there with V8's message for reading `map` of null, the server's 400.
 */
function tokensOf(text: string, tokens: RegExp): string[] {
  const found = text.match(tokens);
  if (found === null) throw new TypeError("Cannot read properties of null (reading 'map')");
  return found;
}

/**
 * The date whose UTC fields date-fns shows. It first takes the machine's offset off, measured with
 * `Date.UTC` over the date's own fields, which reads the years 0-99 as 1900-1999; 1900 has no
 * February 29th, so on February 29th of year 0 (1 BC) the offset comes out as minus one day and
 * every calendar token shows March 1st. Timestamps (`t`, `T`) and its errors keep the instant.
 */
function shownDate(date: Date): Date {
  const leapDayOfYearZero =
    date.getUTCFullYear() === 0 && date.getUTCMonth() === 1 && date.getUTCDate() === 29;
  return leapDayOfYearZero ? new Date(date.getTime() + MS_DAY) : date;
}

function longDate(length: number): string {
  return LONG_DATE[length] ?? "EEEE, MMMM do, y";
}
function longTime(length: number): string {
  return LONG_TIME[length] ?? "h:mm:ss a zzzz";
}
function longDateTime(part: string): string {
  const [, datePart = "", timePart] = /(P+)(p+)?/.exec(part) ?? [];
  if (timePart === undefined) return longDate(datePart.length);
  const joined = LONG_DATE_TIME[datePart.length] ?? "{{date}} 'at' {{time}}";
  return joined.replace("{{date}}", longDate(datePart.length)).replace("{{time}}", longTime(timePart.length));
}

function checkProtected(token: string, pattern: string, date: Date): void {
  const advice: Record<string, [string, string]> = {
    YYYY: ["yyyy", "years"],
    YY: ["yy", "years"],
    D: ["d", "days of the month"],
    DD: ["dd", "days of the month"],
  };
  const found = advice[token];
  if (found === undefined) return;
  throw new RangeError(
    `Use \`${found[0]}\` instead of \`${token}\` (in \`${pattern}\`) for formatting ${found[1]} to the input \`${utcDateString(date)}\`; see: https://github.com/date-fns/date-fns/blob/master/docs/unicodeTokens.md`,
  );
}

/** `String(date)` on a UTC machine. */
function utcDateString(date: Date): string {
  const day = DAYS[date.getUTCDay()]?.slice(0, 3);
  const month = MONTHS[date.getUTCMonth()]?.slice(0, 3);
  const time = [date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds()]
    .map((n) => pad(n, 2))
    .join(":");
  return `${day} ${month} ${pad(date.getUTCDate(), 2)} ${pad(date.getUTCFullYear(), 4)} ${time} GMT+0000 (Coordinated Universal Time)`;
}

function pad(value: number, length: number): string {
  const digits = Math.abs(value).toString().padStart(length, "0");
  return value < 0 ? `-${digits}` : digits;
}

function ordinal(value: number): string {
  const rem100 = value % 100;
  if (rem100 > 20 || rem100 < 10) {
    const rem10 = rem100 % 10;
    if (rem10 === 1) return `${value}st`;
    if (rem10 === 2) return `${value}nd`;
    if (rem10 === 3) return `${value}rd`;
  }
  return `${value}th`;
}

/** A number token: `Xo` ordinal, otherwise padded to the token's length. */
function numeric(value: number, token: string): string {
  return token.endsWith("o") && token.length === 2 ? ordinal(value) : pad(value, token.length);
}

/**
 * Month and weekday names by token width: 3 abbreviated, 5 narrow, 6 short (weekdays); 4 and any
 * longer width is wide, date-fns's default (`MMMMMM` is "March", `EEEEEEE` "Tuesday").
 */
function named(wide: string, length: number, short?: string): string {
  if (length <= 3) return wide.slice(0, 3);
  if (length === 5) return wide.charAt(0);
  if (length === 6 && short !== undefined) return short;
  return wide;
}

function weekday(date: Date, token: string, local: number): string {
  const day = DAYS[date.getUTCDay()] ?? "";
  if (token.length >= 3) return named(day, token.length, day.slice(0, 2));
  return numeric(local, token);
}

function startOfWeek(time: number, weekStartsOn: number): number {
  const date = new Date(time);
  const day = date.getUTCDay();
  const diff = (day < weekStartsOn ? 7 : 0) + day - weekStartsOn;
  return utcDay(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() - diff);
}

function utcDay(year: number, month: number, day: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month, day);
  date.setUTCHours(0, 0, 0, 0);
  return date.getTime();
}

/** Week-numbering year: en-US weeks start on Sunday, week 1 holds January 1st (ISO: Monday, the 4th). */
function weekYear(date: Date, weekStartsOn: number, firstDay: number): number {
  const year = date.getUTCFullYear();
  const time = date.getTime();
  if (time >= startOfWeek(utcDay(year + 1, 0, firstDay), weekStartsOn)) return year + 1;
  if (time >= startOfWeek(utcDay(year, 0, firstDay), weekStartsOn)) return year;
  return year - 1;
}

function week(date: Date, weekStartsOn: number, firstDay: number): number {
  const start = startOfWeek(utcDay(weekYear(date, weekStartsOn, firstDay), 0, firstDay), weekStartsOn);
  return Math.round((startOfWeek(date.getTime(), weekStartsOn) - start) / MS_WEEK) + 1;
}

function hours(date: Date): number {
  return date.getUTCHours();
}

function dayPeriod(date: Date, token: string, withNoon: boolean): string {
  const h = hours(date);
  const period = withNoon && h === 12 ? "noon" : withNoon && h === 0 ? "midnight" : h >= 12 ? "pm" : "am";
  if (period === "noon" || period === "midnight") {
    if (token.length === 5) return period === "noon" ? "n" : "mi";
    return period;
  }
  if (token.length === 5) return period.charAt(0);
  if (token.length === 3) return period;
  if (token.length <= 2) return period.toUpperCase();
  return `${period.charAt(0)}.m.`; // 4 and longer: wide, date-fns's default
}

function year(token: string, value: number): string {
  if (token === "yo" || token === "Yo") return ordinal(value);
  if (token.length === 2) return pad(value % 100, 2);
  return pad(value, token.length);
}

/** `date` is the date shown (see shownDate), `time` the instant. */
type Formatter = (date: Date, token: string, time: number) => string;

const FORMATTERS: Record<string, Formatter> = {
  G: (date, token) => {
    const ad = date.getUTCFullYear() > 0;
    if (token.length <= 3) return ad ? "AD" : "BC";
    if (token.length === 5) return ad ? "A" : "B";
    return ad ? "Anno Domini" : "Before Christ"; // 4 and longer: wide, date-fns's default
  },
  y: (date, token) => {
    const full = date.getUTCFullYear();
    return year(token, full > 0 ? full : 1 - full);
  },
  Y: (date, token) => {
    const full = weekYear(date, 0, 1);
    return year(token, full > 0 ? full : 1 - full);
  },
  R: (date, token) => pad(weekYear(date, 1, 4), token.length),
  u: (date, token) => pad(date.getUTCFullYear(), token.length),
  Q: (date, token) => quarter(date, token),
  q: (date, token) => quarter(date, token),
  M: (date, token) => month(date, token),
  L: (date, token) => month(date, token),
  w: (date, token) => numeric(week(date, 0, 1), token),
  I: (date, token) => numeric(week(date, 1, 4), token),
  d: (date, token) => numeric(date.getUTCDate(), token),
  D: (date, token) => {
    const start = utcDay(date.getUTCFullYear(), 0, 1);
    return numeric(Math.floor((date.getTime() - start) / MS_DAY) + 1, token);
  },
  E: (date, token) =>
    named(DAYS[date.getUTCDay()] ?? "", Math.max(3, token.length), DAYS[date.getUTCDay()]?.slice(0, 2)),
  e: (date, token) => weekday(date, token, ((date.getUTCDay() + 7) % 7) + 1),
  c: (date, token) => weekday(date, token, ((date.getUTCDay() + 7) % 7) + 1),
  i: (date, token) => weekday(date, token, date.getUTCDay() === 0 ? 7 : date.getUTCDay()),
  a: (date, token) => dayPeriod(date, token, false),
  b: (date, token) => dayPeriod(date, token, true),
  B: (date) => {
    const h = hours(date);
    if (h >= 17) return "in the evening";
    if (h >= 12) return "in the afternoon";
    if (h >= 4) return "in the morning";
    return "at night";
  },
  h: (date, token) => numeric(hours(date) % 12 || 12, token),
  H: (date, token) => numeric(hours(date), token),
  K: (date, token) => numeric(hours(date) % 12, token),
  k: (date, token) => numeric(hours(date) || 24, token),
  m: (date, token) => numeric(date.getUTCMinutes(), token),
  s: (date, token) => numeric(date.getUTCSeconds(), token),
  S: (date, token) => pad(Math.floor(date.getUTCMilliseconds() * 10 ** (token.length - 3)), token.length),
  X: () => "Z",
  x: (_date, token) =>
    token.length === 1 ? "+00" : token.length === 2 || token.length === 4 ? "+0000" : "+00:00",
  O: (_date, token) => (token.length <= 3 ? "GMT+0" : "GMT+00:00"),
  z: (_date, token) => (token.length <= 3 ? "GMT+0" : "GMT+00:00"),
  t: (_date, token, time) => pad(Math.floor(time / 1000), token.length),
  T: (_date, token, time) => pad(time, token.length),
};

function quarter(date: Date, token: string): string {
  const value = Math.ceil((date.getUTCMonth() + 1) / 3);
  if (token.length <= 2 || token.endsWith("o")) return numeric(value, token);
  if (token.length === 3) return `Q${value}`;
  if (token.length === 5) return String(value);
  return `${ordinal(value)} quarter`; // 4 and longer: wide, date-fns's default
}

function month(date: Date, token: string): string {
  const index = date.getUTCMonth();
  if (token.length <= 2 || token.endsWith("o")) return numeric(index + 1, token);
  return named(MONTHS[index] ?? "", token.length);
}
