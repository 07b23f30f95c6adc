// What a `{ file: }` reference looks like, in a module of its own: the kinds recognise one
// without loading what reads them (text-file-ref.ts, and through it the YAML parser).

/** A reference to a text file, in place of the text itself. */
export interface TextFileRef {
  file: string;
}

/** Exactly `{ file: "..." }`: anything else is left for the schema to judge. */
export function isTextFileRef(value: unknown): value is TextFileRef {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === "file" && typeof (value as TextFileRef).file === "string";
}
