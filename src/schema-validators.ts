// Validators compiled ahead of time, by schema name. Empty here: src/schemas.ts compiles each
// schema when first used. The bundle (scripts/bundle.mjs) replaces this module with the
// validators Ajv's standalone code generates from schemas/*.json at build time, with the same
// options, so the CLI compiles no schema at run time.
import type { ValidateFunction } from "ajv/dist/2020.js";

export const PRECOMPILED: ReadonlyMap<string, ValidateFunction> = new Map();
