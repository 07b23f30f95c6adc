// Masking of secrets and sensitive values in text. The API key and every value that came from
// the environment through ${VAR} are registered here; every output port passes text through.
// Values shorter than MIN_MASKED_LENGTH are not masked: replacing every "1" or "on" in the
// output would garble it while hiding nothing worth hiding.
export const MASK = "********";
const MIN_MASKED_LENGTH = 4;

export class Masker {
  private readonly secrets = new Set<string>();
  private pattern: RegExp | undefined;

  add(...values: readonly (string | undefined)[]): this {
    return this.addAll(values);
  }

  /** add() for a list of any length (spreading a huge list into add() overflows the stack). */
  addAll(values: Iterable<string | undefined>): this {
    for (const value of values) {
      if (value !== undefined && value.length >= MIN_MASKED_LENGTH && !this.secrets.has(value)) {
        this.secrets.add(value);
        this.pattern = undefined;
      }
    }
    return this;
  }

  get size(): number {
    return this.secrets.size;
  }

  mask(text: string): string {
    if (this.secrets.size === 0) return text;
    if (this.pattern === undefined) {
      // Longest first, so a secret that contains another is masked whole.
      const sorted = [...this.secrets].sort((a, b) => b.length - a.length);
      this.pattern = new RegExp(sorted.map(escapeRegExp).join("|"), "g");
    }
    return text.replace(this.pattern, MASK);
  }
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Mask every string inside a JSON-like value (structurally, so the result stays valid JSON). */
export function maskDeep<T>(value: T, masker: Masker): T {
  if (masker.size === 0) return value;
  if (typeof value === "string") return masker.mask(value) as T;
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => maskDeep(item, masker)) as T;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = maskDeep(item, masker);
  return out as T;
}
