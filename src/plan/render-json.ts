// The machine rendering of a plan (stdout with --output json, and the --out file): the Plan
// value itself, masked structurally (old values of secret fields too), with stable key order and a trailing newline.

import { sortKeysDeep } from "../canonical.js";
import type { Masker } from "../mask.js";
import { maskPlan } from "./mask-plan.js";
import type { Plan } from "./model.js";

export function renderPlanJson(plan: Plan, masker: Masker): string {
  return `${JSON.stringify(sortKeysDeep(maskPlan(plan, masker)), null, 2)}\n`;
}
