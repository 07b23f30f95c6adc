// The server's helper set with its observed semantics (r4-16..r4-30), quirks included: the
// renderer must produce what a real server sends, not what the helper's name promises. Each
// helper is written here from the captured behaviour; where the server's helper throws (a number
// given to `titlecase`, a missing argument), this one throws the same message, which the server
// answers as a 400.

import type HandlebarsNamespace from "handlebars";
import { formatDate } from "./date-format.js";
import { parseServerDate } from "./date-parse.js";

type Handlebars = typeof HandlebarsNamespace;
type Options = Handlebars.HelperOptions;
type Block = (context: unknown) => string;

/** The options object Handlebars passes last; absent when a helper got fewer arguments. */
function isOptions(value: unknown): value is Options {
  return typeof value === "object" && value !== null && "hash" in value && "data" in value;
}

/** What `options.fn`/`options.inverse` reading gives when the options object is missing. */
function readBlock(options: Options | undefined, name: "fn" | "inverse"): Block | undefined {
  if (options === undefined || options === null)
    throw new TypeError(`Cannot read properties of undefined (reading '${name}')`);
  return (options as unknown as Record<string, Block | undefined>)[name];
}

/**
 * The comparison helpers' shared tail: as a block, the chosen branch is rendered with NO context
 * (`{{total}}` prints empty, `{{../total}}` and `{{@root.total}}` work, r4-28); inline, the
 * boolean itself (r4-27).
 */
function assertResult(condition: boolean, options: Options | undefined): unknown {
  const branch = readBlock(options, condition ? "fn" : "inverse");
  return typeof branch === "function" ? branch(undefined) : condition;
}

function stringMethod(value: unknown, method: "split" | "toUpperCase" | "toLowerCase"): void {
  const fn = (value as Record<string, unknown>)[method];
  if (typeof fn !== "function") throw new TypeError(`value.${method} is not a function`);
}

/** Array-index keys first, ascending, then the others in first-seen order: a plain object's key order. */
function objectKeyOrder(keys: string[]): string[] {
  const isIndex = (key: string) => /^(0|[1-9]\d*)$/.test(key) && Number(key) < 2 ** 32 - 1;
  const indexes = keys.filter(isIndex).sort((a, b) => Number(a) - Number(b));
  return [...indexes, ...keys.filter((key) => !isIndex(key))];
}

export function registerServerHelpers(handlebars: Handlebars): void {
  // Loose equality, block only; the body keeps the current context (r4-16).
  handlebars.registerHelper("equals", function (this: unknown, a: unknown, b: unknown, options?: Options) {
    // biome-ignore lint/suspicious/noDoubleEquals: the server's helper compares loosely ("5" equals 5)
    const name = a == b ? "fn" : "inverse";
    const branch = readBlock(options, name);
    if (typeof branch !== "function") throw new TypeError(`options.${name} is not a function`);
    return branch(this);
  });

  // Splits on single spaces only; `-` and `_` are not word breaks (r4-17); a number throws (r4-18).
  handlebars.registerHelper("titlecase", (value: unknown) => {
    if (value === undefined || value === null) return undefined;
    stringMethod(value, "split");
    return String(value)
      .split(" ")
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase())
      .join(" ");
  });

  handlebars.registerHelper("uppercase", (value: unknown) => {
    if (value === undefined || value === null) return undefined;
    stringMethod(value, "toUpperCase");
    return (value as string).toUpperCase();
  });

  handlebars.registerHelper("lowercase", (value: unknown) => {
    if (value === undefined || value === null) return undefined;
    stringMethod(value, "toLowerCase");
    return (value as string).toLowerCase();
  });

  // Strictly the number 1 is singular; "1" and missing are plural (r4-19). Without a plural the
  // options object comes back and prints `[object Object]`.
  handlebars.registerHelper("pluralize", (count: unknown, one: unknown, many: unknown) =>
    count === 1 ? one : many,
  );

  // Falsy or unparseable input comes back unchanged; numbers are milliseconds (r4-20, r4-21).
  // Without a format the options object is the format, and date-fns refuses it (r4-22).
  handlebars.registerHelper("dateFormat", (date: unknown, format: unknown) => {
    if (!date || !format) return date;
    const time = parseServerDate(date);
    if (time === undefined) return date;
    return formatDate(time, isOptions(format) ? "[object Object]" : String(format));
  });

  // [{key, items}] in first-seen order (array-index keys first, as the server's object keeps them);
  // keys stringified, falsy keys dropped; a non-array gives [] (r4-23).
  handlebars.registerHelper("groupBy", (array: unknown, property: unknown) => {
    if (!Array.isArray(array)) return [];
    const groups = new Map<string, unknown[]>();
    for (const item of array) {
      const key = (item as Record<string, unknown>)[property as string];
      if (!key) continue;
      const name = String(key);
      const group = groups.get(name);
      if (group === undefined) groups.set(name, [item]);
      else group.push(item);
    }
    return objectKeyOrder([...groups.keys()]).map((key) => ({ key, items: groups.get(key) }));
  });

  // Each item's value (undefined when falsy), de-duplicated in first-seen order (r4-24).
  handlebars.registerHelper("unique", (array: unknown, property: unknown) => {
    if (!Array.isArray(array)) return "";
    const values = array.map((item) => {
      const value = (item as Record<string, unknown>)[property as string];
      return value ? value : undefined;
    });
    return values.filter((value, index) => values.indexOf(value) === index);
  });

  // `<`/`>` on item[key], sorting the array in place like the server; without a key the options
  // object is the key, every item compares equal and nothing moves (r4-25).
  handlebars.registerHelper("sortBy", (array: unknown, property: unknown) => {
    if (!Array.isArray(array)) return "";
    if (!property) return array.sort();
    const key = isOptions(property) ? "[object Object]" : String(property);
    return array.sort((a, b) => {
      const x = (a as Record<string, unknown>)[key] as number;
      const y = (b as Record<string, unknown>)[key] as number;
      return x < y ? -1 : x > y ? 1 : 0;
    });
  });

  // parseFloat, toFixed rounding, defaults on falsy options (0 decimals means 2), NaN for
  // anything that is not a number (r4-26).
  handlebars.registerHelper("numberFormat", (value: unknown, options?: Options) => {
    if (options === undefined || options === null)
      throw new TypeError("Cannot read properties of undefined (reading 'hash')");
    const hash = options.hash as Record<string, unknown>;
    const decimalLength = (hash.decimalLength || 2) as number;
    const thousandsSep = String(hash.thousandsSep || ",");
    const decimalSep = String(hash.decimalSep || ".");
    const fixed = Number.parseFloat(value as string).toFixed(Math.max(0, ~~decimalLength));
    const grouping = new RegExp(`\\d(?=(\\d{3})+${decimalLength > 0 ? "\\D" : "$"})`, "g");
    return fixed.replace(".", decimalSep).replace(grouping, (digit) => digit + thousandsSep);
  });

  handlebars.registerHelper("gt", (a: unknown, b: unknown, options?: Options) =>
    assertResult((a as number) > (b as number), options),
  );
  handlebars.registerHelper("gte", (a: unknown, b: unknown, options?: Options) =>
    assertResult((a as number) >= (b as number), options),
  );
  handlebars.registerHelper("lt", (a: unknown, b: unknown, options?: Options) =>
    assertResult((a as number) < (b as number), options),
  );
  handlebars.registerHelper("lte", (a: unknown, b: unknown, options?: Options) =>
    assertResult((a as number) <= (b as number), options),
  );
  handlebars.registerHelper("eq", (a: unknown, b: unknown, options?: Options) =>
    assertResult(a === b, options),
  );
  handlebars.registerHelper("ne", (a: unknown, b: unknown, options?: Options) =>
    assertResult(a !== b, options),
  );

  // JSON text; `{{json x}}` escapes it like any value, `{{{json x}}}` does not (r4-29).
  handlebars.registerHelper("json", (value: unknown) => JSON.stringify(value));
}
