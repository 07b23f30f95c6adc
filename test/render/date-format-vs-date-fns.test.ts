// Differential, generative: notiform's `dateFormat` against the real date-fns v2 the server runs
// (Novu 2.0.0's API and worker lock date-fns 2.29.3; the helper in
// libs/application-generic/src/usecases/compile-template/compile-template.usecase.ts formats
// `format(new Date(date), dateFormat)` when `date`, `dateFormat` and `Date.parse(date)` pass, and
// returns `date` unchanged otherwise; a thrown error becomes the 400's message). date-fns is a
// test-only oracle here: src/render/date-format.ts does not depend on it.
//
// For random instants (every year date-fns can show, week-year boundaries, leap days, ms edges)
// and random patterns built from date-fns v2's token table (every letter at lengths 1..7,
// ordinals, P/p long formats and their combinations, quoted text, punctuation), plus patterns
// date-fns refuses: formatDate must give date-fns's string or throw its RangeError, and the whole
// helper (through the renderer) must render what the server's helper renders, or fail with its
// message. More lightly, the helper's input reading (numbers, ISO strings, date-only strings,
// legacy strings) is compared on machines in other time zones against a UTC server.
//
// It found: name tokens longer than their widest form (`MMMMMM`, `EEEEEEE`, `aaaaaa`, `OOOOO`, ...)
// are wide in date-fns; weeks in the years 0-99; February 29th of year 0, which date-fns shows as
// March 1st; a pattern of nothing but line breaks, which date-fns fails on; and, on machines
// outside UTC, wall clocks in a DST gap or in local mean time, date-only strings with spaces or a
// 4-digit negative year, and zones followed by a comment. Each is kept as an example below and in
// date-format.test.ts.
//
// To hunt: DATES_SEED=<n> DATES_RUNS=<n> npx vitest run test/render/date-format-vs-date-fns.test.ts

import { format } from "date-fns";
import fc from "fast-check";
import Handlebars from "handlebars";
import { afterAll, describe, expect, it } from "vitest";
import { formatDate } from "../../src/render/date-format.js";
import { loadRenderer } from "../../src/render/index.js";

// The oracle must run on a UTC clock, as the server's does; imports do no Date work. The zone
// is given back afterwards: the next test file may run in this same process (vitest.config.ts).
const zoneBefore = process.env.TZ;
process.env.TZ = "UTC";
afterAll(() => {
  if (zoneBefore === undefined) delete process.env.TZ;
  else process.env.TZ = zoneBefore;
});
if (new Date(0).getTimezoneOffset() !== 0 || new Date(Date.UTC(2024, 6, 1)).getTimezoneOffset() !== 0)
  throw new Error("the date-fns oracle must run in UTC");

const SEED = Number(process.env.DATES_SEED ?? 20_240_305);
const RUNS = Number(process.env.DATES_RUNS ?? 1500);
const MAX_TIME = 8.64e15;

const renderer = await loadRenderer();

/** The server's helper over date-fns, in a Handlebars of its own (as Novu registers it). */
const server = Handlebars.create();
server.registerHelper("dateFormat", (date: unknown, pattern: unknown) => {
  if (date && pattern && !Number.isNaN(Date.parse(date as string))) {
    return format(new Date(date as string), pattern as string);
  }
  return date;
});

type Outcome = { value: string } | { error: string };

function outcome(run: () => string): Outcome {
  try {
    return { value: run() };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

function withName(run: () => string): Outcome {
  try {
    return { value: run() };
  } catch (error) {
    return { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

/** What the server sends for `template` over `payload`: its render, `&#x27;` put back to `'`. */
function serverRenders(template: string, payload: Record<string, unknown>): Outcome {
  return outcome(() =>
    server
      .compile(template)(payload)
      .replace(/&#x27;/g, "'"),
  );
}

function notiformRenders(template: string, payload: Record<string, unknown>): Outcome {
  return outcome(() => renderer.renderSms({ content: template }, { payload }).content);
}

// ---------------------------------------------------------------------------------------------
// Instants

function utc(year: number, month: number, day: number, h = 0, mi = 0, s = 0, ms = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month, day);
  date.setUTCHours(h, mi, s, ms);
  return date.getTime();
}

const yearArb = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 9999 }), weight: 6 },
  { arbitrary: fc.integer({ min: -9999, max: 0 }), weight: 1 },
  {
    arbitrary: fc.constantFrom(
      -271821,
      -100_000,
      -1,
      0,
      1,
      4,
      99,
      100,
      400,
      1582,
      1900,
      1969,
      1970,
      2000,
      2024,
      9999,
      10000,
      99_999,
      275_760,
    ),
    weight: 2,
  },
);

/** [month, day]: days roll over, so January -3..4 are December 28 to January 4. */
const dayArb = fc.oneof(
  fc.tuple(fc.constant(0), fc.integer({ min: -3, max: 4 })),
  fc.constantFrom<[number, number]>([1, 28], [1, 29], [2, 1], [11, 31], [8, 13], [3, 20]),
  fc.tuple(fc.integer({ min: 0, max: 11 }), fc.integer({ min: 1, max: 31 })),
);

const clockArb = fc.tuple(
  fc.oneof(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 11, 12, 23)),
  fc.integer({ min: 0, max: 59 }),
  fc.integer({ min: 0, max: 59 }),
  fc.oneof(fc.integer({ min: 0, max: 999 }), fc.constantFrom(0, 1, 9, 10, 99, 100, 990, 999)),
);

const instantArb: fc.Arbitrary<number> = fc.oneof(
  {
    arbitrary: fc
      .tuple(yearArb, dayArb, clockArb)
      .map(([year, [month, day], [h, mi, s, ms]]) => utc(year, month, day, h, mi, s, ms))
      .filter((time) => Math.abs(time) <= MAX_TIME),
    weight: 6,
  },
  { arbitrary: fc.date({ noInvalidDate: true }).map((date) => date.getTime()), weight: 2 },
  { arbitrary: fc.constantFrom(MAX_TIME, -MAX_TIME, MAX_TIME - 1, -MAX_TIME + 1, 0, -1, 1), weight: 1 },
);

// ---------------------------------------------------------------------------------------------
// Patterns

/** Every letter date-fns v2 formats (P and p are expanded first). */
const TOKEN_LETTERS = [..."GyYRuQqMLwIdDEeciabBhHKkmsSXxOzTt"];
const ORDINAL_LETTERS = [..."yYQqMLwIdDecihHKkms"];
/** Latin letters date-fns has no formatter for. */
const UNKNOWN_LETTERS = [..."ACFJNUVWZfgjlnorv"];
const PROTECTED = new Set(["YY", "YYYY", "D", "DD"]);

const runArb = fc
  .tuple(fc.constantFrom(...TOKEN_LETTERS), fc.integer({ min: 1, max: 7 }))
  .map(([letter, length]) => letter.repeat(length))
  .map((token) => (PROTECTED.has(token) ? `${token}${token[0]}` : token));

const longArb = fc.oneof(
  fc.integer({ min: 1, max: 5 }).map((n) => "P".repeat(n)),
  fc.integer({ min: 1, max: 5 }).map((n) => "p".repeat(n)),
  fc
    .tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 5 }))
    .map(([d, t]) => `${"P".repeat(d)}${"p".repeat(t)}`),
);

const quotedTextArb = fc
  .array(fc.oneof(fc.constantFrom("''", "at", "o'clock", "Y", "D", "&#x27;", "<b>", " "), fc.string()), {
    maxLength: 4,
  })
  .map((parts) => parts.join("").replaceAll("'", "''"));

const quotedArb = quotedTextArb.filter((text) => text !== "").map((text) => `'${text}'`);

const literalArb = fc.constantFrom(
  " ",
  ", ",
  ".",
  "-",
  "/",
  ":",
  "''",
  "0",
  "12",
  "_",
  "é",
  "日",
  "(",
  ")",
  "\n",
  "😀",
  "[",
  "%",
  "{{",
);

const pieceArb = fc.oneof(
  { arbitrary: runArb, weight: 8 },
  { arbitrary: fc.constantFrom(...ORDINAL_LETTERS).map((letter) => `${letter}o`), weight: 3 },
  { arbitrary: longArb, weight: 2 },
  { arbitrary: quotedArb, weight: 2 },
  { arbitrary: literalArb, weight: 2 },
);

/** Pieces joined mostly by separators, sometimes directly (so tokens also merge, as people write them). */
const patternArb = fc
  .tuple(
    fc.array(fc.tuple(fc.constantFrom("", " ", " ", "-", ":", ", "), pieceArb), {
      minLength: 1,
      maxLength: 8,
    }),
    fc.oneof(
      { arbitrary: fc.constant(""), weight: 9 },
      { arbitrary: quotedTextArb.map((t) => `'${t}`), weight: 1 },
    ),
  )
  .map(([pieces, tail]) => pieces.map(([sep, piece]) => sep + piece).join("") + tail)
  .filter((pattern) => pattern !== "");

/** A pattern date-fns refuses: an unknown latin letter or a protected token, set apart by spaces. */
const refusedArb = fc
  .tuple(patternArb, fc.oneof(fc.constantFrom(...UNKNOWN_LETTERS), fc.constantFrom(...PROTECTED)), fc.nat())
  .map(([pattern, bad, at]) => {
    const cut = pattern.indexOf("'") === -1 ? at % (pattern.length + 1) : 0;
    return `${pattern.slice(0, cut)} ${bad} ${pattern.slice(cut)}`;
  });

// ---------------------------------------------------------------------------------------------
// The properties

function compareFormat(time: number, pattern: string): void {
  const expected = withName(() => format(new Date(time), pattern));
  expect(
    withName(() => formatDate(time, pattern)),
    `formatDate(${time}, ${JSON.stringify(pattern)})`,
  ).toEqual(expected);
  // The whole helper, the date given as the ISO string the server parses back to the same instant.
  const payload = { d: new Date(time).toISOString(), f: pattern };
  const template = "{{dateFormat d f}}";
  expect(notiformRenders(template, payload), `${template} over ${JSON.stringify(payload)}`).toEqual(
    serverRenders(template, payload),
  );
}

describe("the mismatches the properties found, as examples against date-fns", () => {
  const AT = Date.UTC(2024, 2, 5, 15, 4, 5, 678);
  it.each([
    [AT, "GGGGGG QQQQQQ qqqqqq MMMMMM LLLLLL EEEEEEE eeeeeee ccccccc iiiiiii aaaaaa bbbbbb OOOOO zzzzz"],
    [utc(1, 1, 28), "Y w R I"],
    [utc(50, 0, 1), "Y w R I"],
    [utc(0, 1, 29, 13, 30), "P HH:mm EEE T"],
    [AT, "\n"],
    [AT, "yyyy\nMM"],
  ])("%d %j", (time, pattern) => compareFormat(time, pattern));
});

describe("dateFormat against date-fns 2.29.3 (the server's), in UTC", () => {
  it("runs the oracle on a UTC clock", () => {
    expect(new Date(0).getTimezoneOffset()).toBe(0);
    expect(format(new Date(0), "yyyy-MM-dd HH:mm:ss xxx")).toBe("1970-01-01 00:00:00 +00:00");
  });

  it("formats every token pattern as date-fns does, or refuses it with date-fns's error", () => {
    fc.assert(
      fc.property(instantArb, patternArb, (time, pattern) => compareFormat(time, pattern)),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it("refuses what date-fns refuses, with its exact message (protected tokens name the input date)", () => {
    fc.assert(
      fc.property(instantArb, refusedArb, (time, pattern) => {
        expect(outcome(() => format(new Date(time), pattern))).toHaveProperty("error");
        compareFormat(time, pattern);
      }),
      { seed: SEED, numRuns: Math.ceil(RUNS / 5) },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Reading the input: the server (UTC) against notiform on a machine in another zone

const ZONES = [
  "UTC",
  "America/New_York",
  "Europe/London",
  "Asia/Kolkata",
  "Australia/Lord_Howe",
  "America/St_Johns",
  "Pacific/Kiritimati",
];

const two = (n: number) => String(n).padStart(2, "0");

/** The ways a payload carries `time` as text: ISO with and without zone, date-only, legacy. */
function textsOf(time: number, offsetMinutes: number): string[] {
  const date = new Date(time);
  const iso = date.toISOString();
  const day = iso.slice(0, iso.indexOf("T"));
  const sign = offsetMinutes < 0 ? "-" : "+";
  const offset = `${sign}${two(Math.floor(Math.abs(offsetMinutes) / 60))}:${two(Math.abs(offsetMinutes) % 60)}`;
  const year = date.getUTCFullYear();
  const clock = `${two(date.getUTCHours())}:${two(date.getUTCMinutes())}`;
  return [
    iso,
    iso.slice(0, -1),
    `${iso.slice(0, -1)}${offset}`,
    day,
    day.slice(0, day.lastIndexOf("-")),
    date.toUTCString(),
    String(date),
    `${two(date.getUTCMonth() + 1)}/${two(date.getUTCDate())}/${year}`,
    `${day} ${clock}`,
    `${day}T${clock}`,
    ` ${iso} `,
    ` ${iso.slice(0, -1)} `,
    ` ${day} `,
    `-${day}`,
  ];
}

/** Days on which the test zones change offset (DST, local mean time), for wall clocks in the gap. */
const TRANSITION_DAYS = [
  "2024-03-10",
  "2024-11-03",
  "2024-03-31",
  "2024-10-27",
  "2024-04-07",
  "2024-10-06",
  "2023-03-12",
  "1883-11-18",
  "1847-12-01",
  "1854-06-28",
  "1941-10-01",
  "1979-10-01",
  "1995-01-01",
];

const inputArb: fc.Arbitrary<unknown> = fc.oneof(
  {
    arbitrary: fc
      .tuple(instantArb, fc.integer({ min: -14 * 60, max: 14 * 60 }), fc.nat())
      .map(([time, offset, pick]) => {
        const texts = textsOf(time, offset);
        return texts[pick % texts.length];
      }),
    weight: 5,
  },
  {
    arbitrary: fc
      .tuple(
        fc.constantFrom(...TRANSITION_DAYS),
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 0, max: 59 }),
      )
      .map(([day, h, mi]) => `${day}T${two(h)}:${two(mi)}`),
    weight: 2,
  },
  {
    arbitrary: fc.oneof(
      fc.integer(),
      fc.integer({ min: -100, max: 3000 }),
      fc.double(),
      instantArb,
      fc.constantFrom(0, -0, Number.NaN, Number.POSITIVE_INFINITY, -1, 275_760, 1e21),
    ),
    weight: 2,
  },
  {
    arbitrary: fc.constantFrom<unknown>(
      true,
      false,
      null,
      "",
      "not a date",
      "2024",
      [2024],
      [1, 2],
      {},
      "March 5, 2024 10:00",
      "5 March 2024",
      "2024-03-05T10:00:00.000+14:00",
      "Tue Mar 05 2024 15:04:05 GMT-0500 (Eastern Standard Time)",
    ),
    weight: 1,
  },
);

const SHOW_ALL = "G u-MM-dd HH:mm:ss.SSS";

describe("dateFormat reads its input as the server does (UTC), whatever this machine's zone", () => {
  it("numbers as milliseconds, ISO and legacy strings, date-only strings as UTC", () => {
    fc.assert(
      fc.property(inputArb, fc.constantFrom(...ZONES), (input, zone) => {
        const template = "{{dateFormat d f}}";
        const payload = { d: input, f: SHOW_ALL };
        let ours: Outcome;
        try {
          process.env.TZ = zone;
          ours = notiformRenders(template, payload);
        } finally {
          process.env.TZ = "UTC";
        }
        expect(ours, `${JSON.stringify(input)} (${typeof input}) in ${zone}`).toEqual(
          serverRenders(template, payload),
        );
      }),
      { seed: SEED, numRuns: Math.ceil(RUNS / 3) },
    );
  });
});
