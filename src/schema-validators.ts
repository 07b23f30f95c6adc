// Validators compiled ahead of time, by schema name. None here: src/schemas.ts compiles each
// schema when first used. The bundle (scripts/bundle.mjs) replaces this module with one that
// loads the validators Ajv's standalone code generates from schemas/*.json at build time, with
// the same options, each on its first use, so the CLI compiles no schema at run time.
import type { ValidateFunction } from "ajv/dist/2020.js";

export function precompiled(_name: string): ValidateFunction | undefined {
  return undefined;
}
