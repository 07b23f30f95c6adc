// Fields the loader already reported a problem at (Source.flagged): the checks that run after the
// schema use this to leave alone what is known to be wrong, so one mistake is reported once and a
// value of the wrong type never reaches a check that trusts the schema.
import type { Source } from "./model.js";

/** Whether `path` (inside the entry) is a flagged field, lies under one, or holds one. */
export function isFlagged(source: Source, path: string): boolean {
  return source.flagged?.some((flagged) => isRelated(flagged, path)) ?? false;
}

/** One path is the other or a prefix of it at a segment boundary ("steps[1]" and "steps[1].name"). */
export function isRelated(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short === "") return true;
  return long === short || long.startsWith(`${short}.`) || long.startsWith(`${short}[`);
}
