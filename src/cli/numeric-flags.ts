// Numeric flags are checked where they are parsed: yargs turns "abc" into NaN and accepts 0 or
// -3 for a count, which used to run a command that did nothing and exited 0. The flags are read
// as text so the message can quote what was typed; each coerce below refuses a bad value with
// an error that main.ts reports as a usage error (exit 1), naming the flag and the range.

/** A whole number in [min, max]. */
export function integerFlag(flag: string, min: number, max: number): (value: unknown) => number {
  return (value) => {
    const n = parse(value);
    if (!Number.isInteger(n) || n < min || n > max) {
      throw new Error(`--${flag} ${shown(value)}: expected a whole number from ${min} to ${max}`);
    }
    return n;
  };
}

/** Any finite number in [min, max]. */
export function numberFlag(flag: string, min: number, max: number): (value: unknown) => number {
  return (value) => {
    const n = parse(value);
    if (!Number.isFinite(n) || n < min || n > max) {
      throw new Error(`--${flag} ${shown(value)}: expected a number from ${min} to ${max}`);
    }
    return n;
  };
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
