// What a template sees (r4-15, r4-54, r4-68, r4-69): the payload, copied deeply the way the
// server's merge copies it (helpers such as sortBy sort in place; the caller's example must not
// change), with a layout's variable defaults under it, and the organization's branding as
// `{logo, color}` where the channel has it.

import type { Branding } from "./types.js";

/** The server's fallback when the organization has no brand color. */
export const DEFAULT_BRAND_COLOR = "#f47373";

export type Data = Record<string, unknown>;

/** The branding a template sees: logo (absent when unset) and color (#f47373 when unset or empty). */
export function templateBranding(branding: Branding | undefined): Data {
  return { logo: branding?.logo, color: branding?.color || DEFAULT_BRAND_COLOR };
}

function isPlainObject(value: unknown): value is Data {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * `target` with `source` merged in deeply, as lodash's merge does it: objects and arrays merge
 * key by key (index by index), anything else from `source` replaces, `undefined` never does.
 * Every object and array of `source` is copied. `__proto__` keys are skipped.
 */
export function mergeDeep<T extends Data | unknown[]>(target: T, source: Data | readonly unknown[]): T {
  const into = target as Record<string, unknown>;
  for (const key of Object.keys(source)) {
    if (key === "__proto__") continue;
    const value = (source as Record<string, unknown>)[key];
    if (value === undefined) continue;
    const current = Object.hasOwn(into, key) ? into[key] : undefined;
    if (Array.isArray(value)) {
      into[key] = mergeDeep(Array.isArray(current) ? current : [], value);
    } else if (isPlainObject(value)) {
      into[key] = mergeDeep(isPlainObject(current) ? current : {}, value);
    } else {
      into[key] = value;
    }
  }
  return target;
}

/** A deep copy of the payload, under the given defaults. */
export function payloadWithDefaults(payload: Readonly<Data>, defaults: Data = {}): Data {
  return mergeDeep(mergeDeep({}, defaults), payload);
}
