// Numeric flags are checked where they are parsed: yargs turns "abc" into NaN and accepts 0 or
// -3 for a count, which used to run a command that did nothing and exited 0. The flags are
// declared as numbers (so --help says [number]); the text as typed is checked before yargs'
// value is used (checkNumericText, from raw-flags.ts), so the message quotes what was typed
// ("abc", not NaN) and refuses what Number() forgives ("0x10"). Each check throws an error that
// main.ts reports as a usage error (exit 1), naming the flag and the range.

/** The check of each numeric flag, by its long name, registered as the options are declared. */
const checks = new Map<string, (value: unknown) => number>();

/** Check a numeric flag's text as typed; no-op for a flag that is not numeric. */
export function checkNumericText(flag: string, text: string): void {
  checks.get(flag)?.(text);
}

/** A whole number in [min, max]. */
export function integerFlag(flag: string, min: number, max: number): (value: unknown) => number {
  return register(flag, (value) => {
    const n = parse(value);
    if (!Number.isInteger(n) || n < min || n > max) {
      throw new Error(`--${flag} ${shown(value)}: expected a whole number from ${min} to ${max}`);
    }
    return n;
  });
}

/** Any finite number in [min, max]. */
export function numberFlag(flag: string, min: number, max: number): (value: unknown) => number {
  return register(flag, (value) => {
    const n = parse(value);
    if (!Number.isFinite(n) || n < min || n > max) {
      throw new Error(`--${flag} ${shown(value)}: expected a number from ${min} to ${max}`);
    }
    return n;
  });
}

function register(flag: string, check: (value: unknown) => number): (value: unknown) => number {
  checks.set(flag, check);
  return check;
}

/** A flag given twice arrives as an array: the last one wins, as for every other flag. */
function lastOf(value: unknown): unknown {
  return Array.isArray(value) ? value[value.length - 1] : value;
}

function parse(value: unknown): number {
  const last = lastOf(value);
  if (typeof last === "number") return last;
  // Number("") and Number(" ") are 0, Number("0x10") is 16: accept plain decimals only.
  if (typeof last !== "string" || !/^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i.test(last))
    return Number.NaN;
  return Number(last);
}

function shown(value: unknown): string {
  const last = lastOf(value);
  return last === undefined || last === "" ? "(no value)" : JSON.stringify(String(last));
}
