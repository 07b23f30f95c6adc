// Types for precompile-schemas.mjs (imported by test/schemas/precompiled.test.ts).
import type Ajv2020 from "ajv/dist/2020.js";
import type { Options } from "ajv/dist/2020.js";

interface Schemas<N extends string> {
  createAjv: (extra?: Options) => Ajv2020.default;
  SCHEMA_NAMES: readonly N[];
  schemaOf: (name: N) => object;
}

export const VALIDATORS_DIR: string;
export function precompiledValidatorFiles<N extends string>(schemas: Schemas<N>): Map<string, string>;
export function precompiledSchemasModule<N extends string>(schemas: Pick<Schemas<N>, "SCHEMA_NAMES">): string;
