// Types for precompile-schemas.mjs (imported by test/schemas/precompiled.test.ts).
import type Ajv2020 from "ajv/dist/2020.js";
import type { Options } from "ajv/dist/2020.js";

export function precompiledSchemasModule<N extends string>(schemas: {
  createAjv: (extra?: Options) => Ajv2020.default;
  SCHEMA_NAMES: readonly N[];
  schemaOf: (name: N) => object;
}): string;
