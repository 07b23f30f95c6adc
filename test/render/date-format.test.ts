// dateFormat: date-fns v2 tokens (en-US) on a UTC clock, as the server formats; the input read as
// the server reads it, whatever this machine's time zone.
import { afterEach, describe, expect, it } from "vitest";
import { formatDate } from "../../src/render/date-format.js";
import { loadRenderer } from "../../src/render/index.js";

const renderer = await loadRenderer();
const AT = Date.UTC(2024, 2, 5, 15, 4, 5, 678); // Tuesday 5 March 2024, 15:04:05.678 UTC

describe("formatDate", () => {
  it.each([
    ["yyyy-MM-dd HH:mm:ss.SSS", "2024-03-05 15:04:05.678"],
    ["yy y yo yyyyy", "24 2024 2024th 02024"],
    ["M MM Mo MMM MMMM MMMMM LLL", "3 03 3rd Mar March M Mar"],
    ["d dd do DDD Do", "5 05 5th 065 65th"],
    ["E EEE EEEE EEEEE EEEEEE", "Tue Tue Tuesday T Tu"],
    ["e ee eo i ii io iii c", "3 03 3rd 2 02 2nd Tue 3"],
    ["Q QQ Qo QQQ QQQQ q", "1 01 1st Q1 1st quarter 1"],
    ["w wo I Io Y R", "10 10th 10 10th 2024 2024"],
    ["h hh ho H K k m mm s ss", "3 03 3rd 15 3 15 4 04 5 05"],
    ["a aa aaa aaaa aaaaa b B", "PM PM pm p.m. p PM in the afternoon"],
    ["X XXX x xx xxx O OOOO z zzzz", "Z Z +00 +0000 +00:00 GMT+0 GMT+00:00 GMT+0 GMT+00:00"],
    ["t T", "1709651045 1709651045678"],
    ["G GGGG GGGGG", "AD Anno Domini A"],
    ["P", "03/05/2024"],
    ["PP", "Mar 5, 2024"],
    ["PPP", "March 5th, 2024"],
    ["PPPP", "Tuesday, March 5th, 2024"],
    ["p pp", "3:04 PM 3:04:05 PM"],
    ["Pp", "03/05/2024, 3:04 PM"],
    ["PPPppp", "March 5th, 2024 'at' 3:04:05 PM GMT+0".replace(" 'at' ", " at ")],
    ["'quoted' '' 'it''s'", "quoted ' it's"],
    ["dd/MM/yyyy 'at' HH:mm", "05/03/2024 at 15:04"],
    // A name letter repeated past its longest width is the wide form, date-fns's default (found
    // by date-format-vs-date-fns.test.ts).
    ["GGGGGG QQQQQQ qqqqqq MMMMMM LLLLLL", "Anno Domini 1st quarter 1st quarter March March"],
    ["EEEEEEE eeeeeee ccccccc iiiiiii", "Tuesday Tuesday Tuesday Tuesday"],
    ["aaaaaa bbbbbb OOOOO zzzzz", "p.m. p.m. GMT+00:00 GMT+00:00"],
  ])("%s -> %s", (pattern, expected) => {
    expect(formatDate(AT, pattern)).toBe(expected);
  });

  it("midnight and noon as day periods, and 12-hour clocks around them", () => {
    const midnight = Date.UTC(2024, 0, 1, 0, 30);
    expect(formatDate(midnight, "h K k H b bbbbb a")).toBe("12 0 24 0 midnight mi AM");
    expect(formatDate(Date.UTC(2024, 0, 1, 12), "b B")).toBe("noon in the afternoon");
  });

  it("weeks and week-numbering years in the years 0-99 (not read as 1900-1999)", () => {
    const day = (year: number, month: number, date: number) => {
      const at = new Date(0);
      at.setUTCFullYear(year, month, date);
      return at.getTime();
    };
    expect(formatDate(day(1, 1, 28), "Y w R I")).toBe("1 9 1 9");
    expect(formatDate(day(50, 0, 1), "Y w R I EEE")).toBe("50 1 49 52 Sat");
    expect(formatDate(day(0, 0, 1), "Y w R I")).toBe("1 1 -1 52");
  });

  it("February 29th of year 0 (1 BC) shows as March 1st, as date-fns v2 shows it; timestamps keep the instant", () => {
    const leapDay = new Date(0);
    leapDay.setUTCFullYear(0, 1, 29);
    leapDay.setUTCHours(13, 30);
    expect(formatDate(leapDay.getTime(), "P HH:mm G DDD EEE")).toBe("03/01/0001 13:30 BC 061 Wed");
    expect(formatDate(leapDay.getTime(), "T")).toBe(String(leapDay.getTime()));
    expect(formatDate(leapDay.getTime() - 86_400_000, "P EEE")).toBe("02/28/0001 Mon");
  });

  it("refuses what date-fns v2 refuses, with its messages", () => {
    expect(() => formatDate(AT, "yyyy-MM-dd 'at' HH:mm j")).toThrow(
      new RangeError("Format string contains an unescaped latin alphabet character `j`"),
    );
    expect(() => formatDate(AT, "YYYY-MM-DD")).toThrow(
      "Use `yyyy` instead of `YYYY` (in `YYYY-MM-DD`) for formatting years to the input `Tue Mar 05 2024 15:04:05 GMT+0000 (Coordinated Universal Time)`; see: https://github.com/date-fns/date-fns/blob/master/docs/unicodeTokens.md",
    );
    expect(() => formatDate(AT, "dd D")).toThrow("Use `d` instead of `D`");
    expect(() => formatDate(Number.NaN, "yyyy")).toThrow(new RangeError("Invalid time value"));
  });

  it("drops line breaks outside quotes, and fails as date-fns v2 does on a pattern of nothing else", () => {
    expect(formatDate(AT, "yyyy\nMM'\n'dd")).toBe("202403\n05");
    for (const pattern of ["\n", "\r\n", "\u2028", ""])
      expect(() => formatDate(AT, pattern)).toThrow(
        new TypeError("Cannot read properties of null (reading 'map')"),
      );
    expect(() =>
      renderer.renderSms({ content: "{{dateFormat d f}}" }, { payload: { d: "2024-03-05", f: "\n" } }),
    ).toThrow("Cannot read properties of null (reading 'map')");
  });
});

describe("the dateFormat helper", () => {
  const savedTz = process.env.TZ;
  afterEach(() => {
    if (savedTz === undefined) delete process.env.TZ;
    else process.env.TZ = savedTz;
  });

  it("reads dates without an offset as the server does (UTC), whatever this machine's time zone", () => {
    process.env.TZ = "America/New_York";
    const sms = renderer.renderSms(
      {
        content:
          "{{dateFormat a 'yyyy-MM-dd HH:mm'}}|{{dateFormat b 'yyyy-MM-dd HH:mm'}}|{{dateFormat c 'HH:mm'}}",
      },
      { payload: { a: "03/04/2024", b: "2024-03-05T10:00", c: "2024-03-05T10:00:00+02:00" } },
    );
    expect(sms.content).toBe("2024-03-04 00:00|2024-03-05 10:00|08:00");
  });

  it("reads them as UTC where taking the local offset back off would not (found by date-format-vs-date-fns.test.ts)", () => {
    process.env.TZ = "America/New_York";
    const read = (d: string) =>
      renderer.renderSms({ content: "{{dateFormat d 'yyyy-MM-dd HH:mm:ss'}}" }, { payload: { d } }).content;
    expect(read("1800-01-01T00:00")).toBe("1800-01-01 00:00:00"); // local mean time: -4:56:02
    expect(read("2024-03-10T02:30")).toBe("2024-03-10 02:30:00"); // in the spring-forward gap
    expect(read(" 2024-03-05 ")).toBe("2024-03-05 00:00:00"); // not ISO with spaces: read locally
    expect(read("-2024-03-05")).toBe("2024-03-05 00:00:00"); // not ISO (a signed year has 6 digits)
    expect(read("Tue Mar 05 2024 15:04:05 GMT-0500 (Eastern Standard Time)")).toBe("2024-03-05 20:04:05");
  });

  it("without a format fails like the server: the options object is read as the pattern (r4-22)", () => {
    expect(() =>
      renderer.renderSms({ content: "{{dateFormat d}}" }, { payload: { d: "2024-01-01" } }),
    ).toThrow("Format string contains an unescaped latin alphabet character `o`");
  });
});
