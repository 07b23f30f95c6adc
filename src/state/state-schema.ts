// The state file's JSON Schema, compiled once per process.
import { Ajv2020 } from "ajv/dist/2020.js";
import { readPackageJson } from "../package-files.js";

const schema: object = readPackageJson("schemas", "state.schema.json") as object;

let validate: ReturnType<Ajv2020["compile"]> | undefined;

/** Problems with the shape of a parsed state file; empty when it is valid. */
export function checkStateShape(value: unknown): string[] {
  validate ??= new Ajv2020({ allErrors: true, strict: false }).compile(schema);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? "is invalid"}`);
}
