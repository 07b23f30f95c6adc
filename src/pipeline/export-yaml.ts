// The YAML text of an exported document. The yaml library writes a text made only of spaces,
// tabs and line breaks as a block scalar (`|+`) that reads back without its spaces ("  \n" reads
// back "\n"; yaml 2.9): such a text is written double-quoted instead, which reads back exactly.
// Every other value is written as the library chooses.
import { Scalar, stringify } from "yaml";

export function exportYaml(document: unknown): string {
  return stringify(quoteBlankLines(document), { lineWidth: 0 });
}

function quoteBlankLines(value: unknown): unknown {
  if (typeof value === "string") {
    if (!value.includes("\n") || /\S/u.test(value)) return value;
    const scalar = new Scalar(value);
    scalar.type = Scalar.QUOTE_DOUBLE;
    return scalar;
  }
  if (Array.isArray(value)) return value.map(quoteBlankLines);
  if (value !== null && typeof value === "object" && !(value instanceof Scalar)) {
    // Defined, not assigned: a key of the user's data may be "__proto__".
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value))
      Object.defineProperty(out, key, { value: quoteBlankLines(item), enumerable: true, writable: true });
    return out;
  }
  return value;
}
