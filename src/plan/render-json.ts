// The machine rendering of a plan (stdout with --output json, and the --out file): the Plan
// value itself, masked structurally, with stable key order and a trailing newline.
import { type Masker, maskDeep } from "../mask.js";
import { sortKeysDeep } from "../resources/canonical.js";
import type { Plan } from "./model.js";

export function renderPlanJson(plan: Plan, masker: Masker): string {
  return `${JSON.stringify(sortKeysDeep(maskDeep(plan, masker)), null, 2)}\n`;
}
