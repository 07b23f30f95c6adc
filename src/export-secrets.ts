// Export writes no known secret. A server may hold the API key or a partner access token in a
// name (pasted by mistake, or planted); export replaces every form and piece of one with
// REDACTED and says where. Values that came from the environment through the existing config
// are written back as their ${VAR} references, so exporting over a config keeps its secrets in
// the environment. A literal "${" in a server value is written as "$${" so it loads back as
// written. Pure: documents in, documents and warnings out (warnings never hold a value).
import { setDataKey } from "./canonical.js";
import { escapeRegExp } from "./escape-regexp.js";
import { Masker } from "./mask.js";

export const REDACTED = "REDACTED";

export interface KnownSecrets {
  /** Never written: the API key, partner access tokens. `label` names it in warnings. */
  credentials: readonly { label: string; value: string }[];
  /** Values interpolated from the environment, and the variable each came from. */
  variables: readonly { name: string; value: string }[];
}

export interface ScrubResult<D> {
  files: Map<string, D>;
  /** One line per field that held a credential: file, field path and what it held. */
  warnings: string[];
  /** How many values were written back as ${VAR} references. */
  references: number;
}

/** A stand-in (StandIns): the variable's name between two private-use characters. */
const STAND_IN = /\u{E000}[^\u{E000}\u{E001}]*\u{E001}/u;

/** Values shorter than this are not replaced by a reference: "1" or "on" would hit everything. */
const MIN_REFERENCED_LENGTH = 4;

export function scrubExport<D>(
  files: ReadonlyMap<string, D>,
  known: KnownSecrets,
  standIns?: StandIns,
): ScrubResult<D> {
  const byLabel = known.credentials.map(({ label, value }) => ({ label, masker: credentialMasker(value) }));
  const all = credentialMasker(...known.credentials.map((c) => c.value));
  const variables = [...known.variables]
    .filter((v) => v.value.length >= MIN_REFERENCED_LENGTH)
    .sort((a, b) => b.value.length - a.value.length);
  const names = new Map(variables.map((v) => [v.value, v.name]));
  // The values themselves, and their stand-ins where the documents were made with them (StandIns).
  const alternatives = [
    ...(standIns !== undefined ? [STAND_IN.source] : []),
    ...variables.map((v) => escapeRegExp(v.value)),
  ];
  const pattern = alternatives.length === 0 ? undefined : new RegExp(alternatives.join("|"), "gu");
  const nameOf = (found: string) => names.get(found) ?? standIns?.variableOf(found)?.name;
  const warnings: string[] = [];
  let references = 0;

  const scrubString = (text: string, file: string, field: string): string => {
    const masked = all.mask(text);
    if (masked !== text) {
      const what = byLabel.filter((c) => c.masker.mask(text) !== text).map((c) => c.label);
      warnings.push(
        `${file}: ${field} held ${what.join(" and ") || "a credential"}; written as ${REDACTED} (fix it on the server or by hand)`,
      );
    }
    if (pattern === undefined) return escapeDollar(masked);
    let out = "";
    let from = 0;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(masked); match !== null; match = pattern.exec(masked)) {
      out += `${escapeDollar(masked.slice(from, match.index))}\${${nameOf(match[0])}}`;
      from = match.index + match[0].length;
      references += 1;
    }
    return out + escapeDollar(masked.slice(from));
  };

  const walk = (value: unknown, file: string, field: string): unknown => {
    if (typeof value === "string") return scrubString(value, file, field);
    if (Array.isArray(value)) return value.map((item, index) => walk(item, file, `${field}[${index}]`));
    if (value === null || typeof value !== "object") return value;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value))
      out[key] = walk(item, file, field === "" ? key : `${field}.${key}`);
    return out;
  };

  const out = new Map<string, D>();
  for (const [file, document] of files) out.set(file, walk(document, file, "") as D);
  return { files: out, warnings, references };
}

function credentialMasker(...values: string[]): Masker {
  return new Masker(REDACTED).addCredential(...values);
}

function escapeDollar(text: string): string {
  return text.replace(/\$\{/g, () => "$${");
}

/**
 * The variable each interpolated value came from: the config loader keeps the values, the
 * environment tells the names. Several variables holding the same value are equivalent for the
 * export; the first by name is taken, so the choice is stable.
 */
export function variablesOf(
  values: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): { name: string; value: string }[] {
  const wanted = new Set(values);
  const found = new Map<string, string>();
  for (const name of Object.keys(env).sort()) {
    const value = env[name];
    if (value !== undefined && wanted.has(value) && !found.has(value)) found.set(value, name);
  }
  return [...found].map(([value, name]) => ({ name, value }));
}

/**
 * Stand-ins for the environment's values while the export's documents are made from the live
 * state. Export names keys and template files after names (`slug(name)`), and moves long texts to
 * files, which are read verbatim (no ${VAR}): a value from the environment must reach neither.
 * `hide` swaps every such value in the live state for a stand-in that slugs to the variable's
 * name (`Billing ${NF_SECRET}` gives the key `billing-nf-secret`, never the value lower-cased);
 * `inline` puts a text holding a stand-in back into its YAML field, where the reference works;
 * `scrubExport` then writes each stand-in as `${VAR}`, and `reveal` gives the state file its
 * values back (it keeps them only as keyed digests). Pure.
 */
export class StandIns {
  readonly #byStandIn = new Map<string, { name: string; value: string }>();
  readonly #values: RegExp;
  readonly #standIns: RegExp;

  private constructor(variables: readonly { name: string; value: string }[]) {
    for (const variable of variables) this.#byStandIn.set(`\u{E000}${variable.name}\u{E001}`, variable);
    const values = [...variables].sort((a, b) => b.value.length - a.value.length).map((v) => v.value);
    this.#values = new RegExp(values.map(escapeRegExp).join("|"), "g");
    this.#standIns = new RegExp(STAND_IN.source, "gu");
  }

  /** Stand-ins for the variables worth replacing; undefined when there is none (nothing to do). */
  static of(variables: readonly { name: string; value: string }[]): StandIns | undefined {
    const kept = variables.filter((v) => v.value.length >= MIN_REFERENCED_LENGTH);
    return kept.length === 0 ? undefined : new StandIns(kept);
  }

  /**
   * `value` (the live state, read for this export alone) with every variable's value swapped for
   * its stand-in, in place: its maps and objects keep their classes and extra properties (the
   * workflows' layout identifiers ride on their map), which a copy would lose.
   */
  hide<T>(value: T): T {
    const byValue = new Map([...this.#byStandIn].map(([standIn, v]) => [v.value, standIn]));
    return replaceStringsInPlace(
      value,
      (text) => text.replace(this.#values, (found) => byValue.get(found) ?? found),
      new WeakSet(),
    ) as T;
  }

  /** A copy of `value` with every stand-in swapped back for its value. */
  reveal<T>(value: T): T {
    return mapStrings(value, (text) => this.#swap(text, (v) => v.value)) as T;
  }

  /** `text` with every stand-in written as its `${VAR}` reference (for messages). */
  referenced(text: string): string {
    return this.#swap(text, (v) => `\${${v.name}}`);
  }

  /** Whether `text` holds a stand-in. */
  holds(text: string): boolean {
    this.#standIns.lastIndex = 0;
    return this.#standIns.test(text);
  }

  /** The variable a stand-in stands for (scrubExport writes its reference). */
  variableOf(standIn: string): { name: string; value: string } | undefined {
    return this.#byStandIn.get(standIn);
  }

  /**
   * Text files holding a stand-in, put back inline into the YAML field that named them
   * (`{ file: PATH }` -> the text); the other files as they were.
   */
  inline(
    documents: ReadonlyMap<string, Record<string, unknown>>,
    textFiles: ReadonlyMap<string, string>,
  ): { documents: Map<string, Record<string, unknown>>; textFiles: Map<string, string> } {
    const inlined = new Map([...textFiles].filter(([, text]) => this.holds(text)));
    if (inlined.size === 0) return { documents: new Map(documents), textFiles: new Map(textFiles) };
    const swap = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(swap);
      if (value === null || typeof value !== "object") return value;
      const entries = Object.entries(value);
      const [only] = entries;
      if (entries.length === 1 && only?.[0] === "file" && typeof only[1] === "string" && inlined.has(only[1]))
        return inlined.get(only[1]);
      return Object.fromEntries(entries.map(([key, item]) => [key, swap(item)]));
    };
    return {
      documents: new Map(
        [...documents].map(([name, document]) => [name, swap(document) as Record<string, unknown>]),
      ),
      textFiles: new Map([...textFiles].filter(([name]) => !inlined.has(name))),
    };
  }

  #swap(text: string, to: (variable: { name: string; value: string }) => string): string {
    return text.replace(this.#standIns, (found) => {
      const variable = this.#byStandIn.get(found);
      return variable === undefined ? found : to(variable);
    });
  }
}

/**
 * `map` applied to every string in `value`, keys included, changing its arrays, maps and objects
 * in place (each once, however often it is referenced); a string is returned mapped.
 */
function replaceStringsInPlace(
  value: unknown,
  map: (text: string) => string,
  seen: WeakSet<object>,
): unknown {
  if (typeof value === "string") return map(value);
  if (value === null || typeof value !== "object" || seen.has(value)) return value;
  seen.add(value);
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1)
      value[index] = replaceStringsInPlace(value[index], map, seen);
    return value;
  }
  if (value instanceof Map) {
    const entries = [...value];
    value.clear();
    for (const [key, item] of entries)
      value.set(replaceStringsInPlace(key, map, seen), replaceStringsInPlace(item, map, seen));
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const item = replaceStringsInPlace(record[key], map, seen);
    const renamed = map(key);
    if (renamed === key) record[key] = item;
    else {
      delete record[key];
      setDataKey(record, renamed, item);
    }
  }
  return value;
}

/** A copy of plain data (objects, arrays, maps) with `map` applied to every string, keys included. */
function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === "string") return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (value instanceof Map)
    return new Map([...value].map(([key, item]) => [mapStrings(key, map), mapStrings(item, map)]));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) setDataKey(out, map(key), mapStrings(item, map));
  return out;
}

/**
 * Every string value in `live` (not keys) whose keyed digest is among `secretValues` (the state
 * file's: texts an apply sent holding a value from the environment) replaced by REDACTED, in
 * place, once per object however often it is referenced; how many were. Such a text is a secret
 * the config no longer names, so nothing else knows it: exported as it is, it would be written
 * into a file meant for git, or slugged into a key or a file name.
 */
export function redactSecretValues(
  live: unknown,
  secretValues: readonly string[],
  keyed: (text: string) => string,
): number {
  if (secretValues.length === 0) return 0;
  const held = new Set(secretValues);
  let count = 0;
  const seen = new WeakSet<object>();
  const visit = (value: unknown): unknown => {
    if (typeof value === "string") {
      if (!held.has(keyed(value))) return value;
      count += 1;
      return REDACTED;
    }
    if (value === null || typeof value !== "object" || seen.has(value)) return value;
    seen.add(value);
    if (value instanceof Map) {
      for (const [key, item] of value) value.set(key, visit(item));
      return value;
    }
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) record[key] = visit(record[key]);
    return value;
  };
  visit(live);
  return count;
}
