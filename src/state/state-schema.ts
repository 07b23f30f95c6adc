// The state file's JSON Schema check (the schema compiled once, in src/schemas.ts).
import { validatorOf } from "../schemas.js";

/** Problems with the shape of a parsed state file; empty when it is valid. */
export function checkStateShape(value: unknown): string[] {
  const validate = validatorOf("state");
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? "is invalid"}`);
}
