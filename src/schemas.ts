// The published JSON Schemas (schemas/*.json): each read and compiled at most once per process,
// all with one Ajv configuration (draft 2020-12, strict, every error, formats, and our
// `x-message` annotation carrying a plain message beside a pattern). The bundled CLI has them
// compiled at build time (src/schema-validators.ts); then Ajv itself is never loaded.
import { createRequire } from "node:module";
import type Ajv2020 from "ajv/dist/2020.js";
import type { Options, ValidateFunction } from "ajv/dist/2020.js";
import { readPackageJson } from "./package-files.js";
import { precompiled } from "./schema-validators.js";

export type SchemaName =
  | "notiform"
  | "plan"
  | "state"
  | "apply-result"
  | "seed"
  | "promotion"
  | "promotion-result"
  | "preview";

export const SCHEMA_NAMES: readonly SchemaName[] = [
  "notiform",
  "plan",
  "state",
  "apply-result",
  "seed",
  "promotion",
  "promotion-result",
  "preview",
];

const documents = new Map<SchemaName, object>();
const validators = new Map<SchemaName, ValidateFunction>();
let ajv: Ajv2020.default | undefined;

/** The schema document, parsed once. */
export function schemaOf(name: SchemaName): object {
  let document = documents.get(name);
  if (document === undefined) {
    document = readPackageJson("schemas", `${name}.schema.json`) as object;
    documents.set(name, document);
  }
  return document;
}

// Loaded only when a schema has to be compiled here: the bundled CLI never needs it.
const require = createRequire(import.meta.url);

/** An Ajv instance with the one configuration every schema is compiled with (`extra`: build-time code options). */
export function createAjv(extra: Options = {}): Ajv2020.default {
  const { default: Ajv } = require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
  const { default: addFormats } = require("ajv-formats") as typeof import("ajv-formats");
  const instance = new Ajv({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true, ...extra });
  addFormats(instance);
  instance.addKeyword({ keyword: "x-message", schemaType: "string" });
  instance.addKeyword({ keyword: "x-identity", schemaType: "boolean" });
  return instance;
}

/** The compiled validator: compiled ahead of time, or here once. */
export function validatorOf(name: SchemaName): ValidateFunction {
  let validate = validators.get(name) ?? precompiled(name);
  if (validate === undefined) {
    ajv ??= createAjv();
    validate = ajv.compile(schemaOf(name));
  }
  validators.set(name, validate);
  return validate;
}
