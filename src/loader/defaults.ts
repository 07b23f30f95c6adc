// What a config means when it does not say: a module of its own, free of the YAML parser, so the
// main thread can know it (connecting before the config is loaded) without loading the loader.
import type { Desired, Resources } from "../config/model.js";
import { KINDS } from "../kinds/registry.js";

/** The environment variable that holds the API key unless the config names another. */
export const DEFAULT_API_KEY_ENV = "NOTIFORM_API_KEY";

/** No resources of any kind. */
export function emptyResources(): Resources {
  const out = {} as Record<string, Desired<unknown>[]>;
  for (const kind of KINDS) out[kind] = [];
  return out as Resources;
}
