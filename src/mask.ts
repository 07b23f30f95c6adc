// Masking of secrets and sensitive values in text. The API key, partner access tokens and every
// value that came from the environment through ${VAR} are registered here; every output port
// passes text through. A secret is masked in every form output can give it: raw, escaped as in
// JSON (how the plan and error messages quote values), URL-encoded, HTML-escaped and YAML
// single-quoted, so escaping on the way out cannot reveal it. Credentials (the key, tokens) are
// also masked piecewise: any run of PIECE or more of their characters is masked, because
// servers echo parts of keys ("key nf_abc… is invalid") and truncation cuts them.
// Values shorter than MIN_MASKED_LENGTH are not masked: replacing every "1" or "on" in the
// output would garble it while hiding nothing worth hiding.
import { setDataKey } from "./canonical.js";
import { escapeHtml } from "./escape-html.js";
import { escapeRegExp } from "./escape-regexp.js";

export const MASK = "********";
const MIN_MASKED_LENGTH = 4;
/** The shortest run of a credential's characters that is masked on its own. */
export const PIECE = 8;

export class Masker {
  private readonly secrets = new Set<string>();
  private readonly credentials = new Set<string>();
  private pattern: RegExp | undefined;
  private pieces: RegExp | undefined;
  /** Whether some form of a secret or piece of a credential holds a character JSON escapes. */
  private escapable: boolean | undefined;

  /** `placeholder`: what a secret is replaced by (export writes one that is valid in any field). */
  constructor(private readonly placeholder: string = MASK) {}

  /** Register values taken from the environment: masked whole, in every form. */
  add(...values: readonly (string | undefined)[]): this {
    return this.addAll(values);
  }

  /** add() for a list of any length (spreading a huge list into add() overflows the stack). */
  addAll(values: Iterable<string | undefined>): this {
    for (const value of values) {
      if (value === undefined || value.length < MIN_MASKED_LENGTH || this.secrets.has(value)) continue;
      for (const form of formsOf(value)) this.secrets.add(form);
      this.pattern = undefined;
      this.escapable = undefined;
    }
    return this;
  }

  /** Register a credential (API key, access token): masked whole and piecewise. */
  addCredential(...values: readonly (string | undefined)[]): this {
    this.add(...values);
    for (const value of values) {
      if (value === undefined || value.length < PIECE || this.credentials.has(value)) continue;
      this.credentials.add(value);
      this.pieces = undefined;
      this.escapable = undefined;
    }
    return this;
  }

  get size(): number {
    return this.secrets.size;
  }

  mask(text: string): string {
    // Too short to hold any form of any secret (each is at least MIN_MASKED_LENGTH long).
    if (this.secrets.size === 0 || text.length < MIN_MASKED_LENGTH) return text;
    const masked = text.replace(this.secretPattern(), this.placeholder);
    return this.credentials.size === 0 ? masked : this.maskPieces(masked);
  }

  /**
   * Whether maskDeep would leave `value` (plain JSON data) as it is, judged from its JSON text:
   * one native serialization and one search instead of a walk over every string (a plan holds
   * tens of thousands, and usually not one secret). Sound because JSON text spells a string's
   * characters as they are except `"`, `\`, control characters and lone surrogates: a secret and
   * its pieces free of those show in the text wherever a string holds them. Otherwise (or when
   * the text does hold one) false, and the caller masks string by string.
   */
  leavesUnchanged(value: unknown): boolean {
    if (this.secrets.size === 0) return true;
    this.escapable ??= [...this.secrets, ...this.windows()].some((text) => JSON_ESCAPED.test(text));
    if (this.escapable) return false;
    const json = JSON.stringify(value);
    const pattern = this.secretPattern();
    pattern.lastIndex = 0;
    if (pattern.test(json)) return false;
    if (this.credentials.size === 0) return true;
    const pieces = this.piecePattern();
    pieces.lastIndex = 0;
    return !pieces.test(json);
  }

  /** Every form of every secret, longest first (a secret that contains another is masked whole). */
  private secretPattern(): RegExp {
    if (this.pattern === undefined) {
      const sorted = [...this.secrets].sort((a, b) => b.length - a.length);
      this.pattern = new RegExp(sorted.map(escapeRegExp).join("|"), "g");
    }
    return this.pattern;
  }

  /** Every run of PIECE characters of a credential. */
  private windows(): Set<string> {
    const windows = new Set<string>();
    for (const credential of this.credentials)
      for (let i = 0; i + PIECE <= credential.length; i += 1) windows.add(credential.slice(i, i + PIECE));
    return windows;
  }

  private piecePattern(): RegExp {
    this.pieces ??= new RegExp([...this.windows()].map(escapeRegExp).join("|"), "g");
    return this.pieces;
  }

  /** Mask every run of at least PIECE characters that also occurs in a credential. */
  private maskPieces(text: string): string {
    const pattern = this.piecePattern();
    pattern.lastIndex = 0;
    let out = "";
    let from = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      const end = this.extend(text, match.index, match[0]);
      out += `${text.slice(from, match.index)}${this.placeholder}`;
      from = end;
      pattern.lastIndex = end;
    }
    return out + text.slice(from);
  }

  /** Where a matched piece ends once grown along the credential it came from (longest run). */
  private extend(text: string, start: number, piece: string): number {
    let best = start + piece.length;
    for (const credential of this.credentials) {
      for (let at = credential.indexOf(piece); at >= 0; at = credential.indexOf(piece, at + 1)) {
        let length = piece.length;
        while (at + length < credential.length && text[start + length] === credential[at + length])
          length += 1;
        best = Math.max(best, start + length);
      }
    }
    return best;
  }
}

/** What JSON.stringify writes escaped: `"`, `\`, control characters and lone surrogates. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what JSON escapes.
const JSON_ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/** The forms a value can take in output; each is masked. */
function formsOf(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1);
  const forms = [
    value,
    json,
    // Serializers that escape everything outside ASCII (JSON with ensure_ascii, some proxies).
    json.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`),
    ...urlForms(value),
    escapeHtml(value),
    value.replace(/'/g, "''"),
  ];
  return forms.filter((form) => form.length >= MIN_MASKED_LENGTH);
}

/**
 * The value as a URL encodes it (as a path segment or query value, and as a form). None for a
 * value holding a lone surrogate: no URL can spell one (encodeURIComponent throws), and such a
 * value must still be masked in its other forms rather than fail the run.
 */
function urlForms(value: string): string[] {
  let encoded: string;
  try {
    encoded = encodeURIComponent(value);
  } catch {
    return [];
  }
  return [encoded, encoded.replace(/%20/g, "+")];
}

/**
 * Mask every string inside a JSON-like value (structurally, so the result stays valid JSON).
 * Copy on write: a value, array or object in which nothing needed masking is returned as it was
 * (most of a plan holds no secret: copying all of it was most of masking's cost), so the result
 * may share parts with the input; neither is changed afterwards by any caller.
 */
export function maskDeep<T>(value: T, masker: Masker): T {
  if (masker.size === 0) return value;
  return maskValue(value, masker) as T;
}

function maskValue(value: unknown, masker: Masker): unknown {
  if (typeof value === "string") return masker.mask(value);
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i += 1) {
      const item: unknown = value[i];
      const masked = maskValue(item, masker);
      if (out === undefined && masked !== item) out = value.slice(0, i);
      out?.push(masked);
    }
    return out ?? value;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  let out: Record<string, unknown> | undefined;
  for (let i = 0; i < keys.length; i += 1) {
    const key = keys[i] as string;
    const item = record[key];
    const masked = maskValue(item, masker);
    if (out === undefined) {
      if (masked === item) continue;
      out = {};
      for (let j = 0; j < i; j += 1) setDataKey(out, keys[j] as string, record[keys[j] as string]);
    }
    setDataKey(out, key, masked);
  }
  return out ?? value;
}
