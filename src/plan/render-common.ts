// Wording shared by the plan renderers, so text and markdown say the same thing.

import type { PlanAction } from "../kinds/plan-action.js";
import { describeKind } from "../kinds/registry.js";
import type { Plan } from "./model.js";

export { describeKind };

export const OP_SYMBOL: Record<PlanAction["op"], string> = {
  create: "+",
  update: "~",
  unverified: "?",
  "not-applicable": "!",
  uncertain: "?!",
};

/** `Plan: 3 to create, 2 to update, 1 unverified, 40 unchanged` (+ not applicable when any). */
export function summaryLine(plan: Plan): string {
  const s = plan.summary;
  let line = `Plan: ${s.create} to create, ${s.update} to update, ${s.unverified} unverified, ${s.unchanged} unchanged`;
  if (s.notApplicable > 0) line += `, ${s.notApplicable} not applicable`;
  if (s.uncertain > 0) line += `, ${s.uncertain} uncertain (resolve first)`;
  if (plan.actions.length === 0) line += ". No changes.";
  return line;
}

/** Says which kinds' unmanaged resources were not computed; undefined when the list is complete. */
export function unlistedNote(plan: Plan): string | undefined {
  const kinds = plan.unmanagedNotListed ?? [];
  if (kinds.length === 0) return undefined;
  const names = kinds.map((kind) => describeKind(kind, 2)).join(", ");
  return `Unmanaged ${names}: not computed (only the resources this plan needs were read; --list-unmanaged reads the whole lists)`;
}
