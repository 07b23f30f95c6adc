// Flags as typed, checked against the options the chosen command declares, before yargs' values
// are used. yargs forgives what a careful CLI must not: a flag given without its value becomes ""
// or [] (a bare `--target` from an empty CI variable would mean "everything"), a single-valued
// flag given twice becomes an array (an internal error later, or two values merged silently), and
// `--flag=nope` on a boolean reads as false. Each of these is a usage error here, for every flag.
import { NotiformError } from "../errors.js";
import { checkNumericText } from "./numeric-flags.js";

/** What yargs' getOptions() tells of the command being run. */
export interface DeclaredOptions {
  string: readonly string[];
  boolean: readonly string[];
  array: readonly string[];
  number: readonly string[];
  alias: Readonly<Record<string, readonly string[]>>;
}

const BOOLEAN_VALUES = new Set(["true", "false"]);

/** Throws a USAGE error for the first flag in `argv` that is missing its value, repeated, or mistyped. */
export function checkRawFlags(argv: readonly string[], options: DeclaredOptions): void {
  const canonical = new Map<string, string>();
  for (const [name, aliases] of Object.entries(options.alias)) {
    canonical.set(name, name);
    for (const alias of aliases) canonical.set(alias, name);
  }
  const nameOf = (flag: string) => canonical.get(flag) ?? flag;
  const strings = new Set(options.string.map(nameOf));
  const booleans = new Set(options.boolean.map(nameOf));
  const arrays = new Set(options.array.map(nameOf));
  const numbers = new Set(options.number.map(nameOf));
  const seen = new Map<string, number>();

  for (let i = 0; i < argv.length; i += 1) {
    const token = argv[i] ?? "";
    if (token === "--") break;
    const parsed = parseFlag(token);
    if (parsed === undefined) continue;
    const name = nameOf(parsed.name);
    const shown = parsed.long ? `--${parsed.name}` : `-${parsed.name}`;
    if (strings.has(name) || numbers.has(name)) {
      let value = parsed.value;
      if (value === undefined) {
        const next = argv[i + 1];
        if (next !== undefined && next !== "--" && !isFlagLike(next)) {
          // yargs reads `-5s` as the short flags -5 and -s ("Unknown arguments: 5, s"); only a
          // number may follow as it is.
          if (/^-./.test(next) && !/^-\d+(\.\d+)?$/.test(next))
            throw new NotiformError(
              "USAGE",
              `${shown} ${next}: a value that starts with "-" is written ${shown}=${next}`,
            );
          value = next;
          i += 1;
        }
      }
      if (value === undefined || value === "")
        throw new NotiformError("USAGE", `${shown} needs a value`, {
          hint: `give it as ${shown} VALUE (an empty variable in a CI script expands to nothing)`,
        });
      if (!arrays.has(name)) count(seen, name, shown);
      if (numbers.has(name)) checkNumber(name, value);
    } else if (booleans.has(name)) {
      if (parsed.value !== undefined && !BOOLEAN_VALUES.has(parsed.value))
        throw new NotiformError("USAGE", `${shown} takes true or false, not "${parsed.value}"`);
      if (name !== "help" && name !== "version") count(seen, name, shown, parsed.negated);
    }
  }
}

/** A numeric flag's text as typed: whole, in range (numeric-flags.ts), a usage error if not. */
function checkNumber(name: string, text: string): void {
  try {
    checkNumericText(name, text);
  } catch (error) {
    throw new NotiformError("USAGE", error instanceof Error ? error.message : String(error));
  }
}

function count(seen: Map<string, number>, name: string, shown: string, negated = false): void {
  const times = (seen.get(name) ?? 0) + 1;
  seen.set(name, times);
  if (times > 1)
    throw new NotiformError(
      "USAGE",
      `${negated || shown.length === 2 ? `--${name}` : shown} is given more than once`,
      {
        hint: "give each option once",
      },
    );
}

interface ParsedFlag {
  name: string;
  long: boolean;
  value?: string;
  negated: boolean;
}

function parseFlag(token: string): ParsedFlag | undefined {
  if (token.startsWith("--") && token.length > 2) {
    const body = token.slice(2);
    const eq = body.indexOf("=");
    const rawName = eq < 0 ? body : body.slice(0, eq);
    const value = eq < 0 ? undefined : body.slice(eq + 1);
    const negated = rawName.startsWith("no-");
    const flag: ParsedFlag = { name: negated ? rawName.slice(3) : rawName, long: true, negated };
    if (value !== undefined) flag.value = value;
    return flag;
  }
  if (/^-[A-Za-z]/.test(token)) {
    const flag: ParsedFlag = { name: token.slice(1, 2), long: false, negated: false };
    const rest = token.slice(2);
    if (rest !== "") flag.value = rest.startsWith("=") ? rest.slice(1) : rest;
    return flag;
  }
  return undefined;
}

/** A token that is a flag rather than a value (a lone "-" and negative numbers are values). */
function isFlagLike(token: string): boolean {
  return /^--?[A-Za-z]/.test(token);
}
