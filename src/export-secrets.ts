// Export writes no known secret. A server may hold the API key or a partner access token in a
// name (pasted by mistake, or planted); export replaces every form and piece of one with
// REDACTED and says where. Values that came from the environment through the existing config
// are written back as their ${VAR} references, so exporting over a config keeps its secrets in
// the environment. A literal "${" in a server value is written as "$${" so it loads back as
// written. Pure: documents in, documents and warnings out (warnings never hold a value).
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

/** Values shorter than this are not replaced by a reference: "1" or "on" would hit everything. */
const MIN_REFERENCED_LENGTH = 4;

export function scrubExport<D>(files: ReadonlyMap<string, D>, known: KnownSecrets): ScrubResult<D> {
  const byLabel = known.credentials.map(({ label, value }) => ({ label, masker: credentialMasker(value) }));
  const all = credentialMasker(...known.credentials.map((c) => c.value));
  const variables = [...known.variables]
    .filter((v) => v.value.length >= MIN_REFERENCED_LENGTH)
    .sort((a, b) => b.value.length - a.value.length);
  const names = new Map(variables.map((v) => [v.value, v.name]));
  const pattern =
    variables.length === 0
      ? undefined
      : new RegExp(variables.map((v) => escapeRegExp(v.value)).join("|"), "g");
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
      out += `${escapeDollar(masked.slice(from, match.index))}\${${names.get(match[0])}}`;
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

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
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
