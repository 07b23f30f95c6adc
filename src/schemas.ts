// The published JSON Schemas (schemas/*.json): each read and compiled at most once per process,
// all with one Ajv configuration (draft 2020-12, strict, every error, formats, and our
// `x-message` annotation carrying a plain message beside a pattern).
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { readPackageJson } from "./package-files.js";

export type SchemaName =
  | "notiform"
  | "plan"
  | "state"
  | "apply-result"
  | "seed"
  | "promotion"
  | "promotion-result";

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

/** The compiled validator, compiled once. */
export function validatorOf(name: SchemaName): ValidateFunction {
  let validate = validators.get(name);
  if (validate === undefined) {
    if (ajv === undefined) {
      ajv = new Ajv2020.default({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true });
      addFormats.default(ajv);
      ajv.addKeyword({ keyword: "x-message", schemaType: "string" });
    }
    validate = ajv.compile(schemaOf(name));
    validators.set(name, validate);
  }
  return validate;
}
