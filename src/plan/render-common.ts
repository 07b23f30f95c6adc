// Wording shared by the plan renderers, so text and markdown say the same thing.
import type { Kind, Plan, PlanAction } from "./model.js";

export const OP_SYMBOL: Record<PlanAction["op"], string> = {
  create: "+",
  update: "~",
  unverified: "?",
  "not-applicable": "!",
};

const KIND_LABEL: Record<Kind, string> = {
  notificationGroup: "notification group",
  topic: "topic",
  workflow: "workflow",
  override: "workflow override",
};

export function describeKind(kind: Kind): string {
  return KIND_LABEL[kind];
}

/** `Plan: 3 to create, 2 to update, 1 unverified, 40 unchanged` (+ not applicable when any). */
export function summaryLine(plan: Plan): string {
  const s = plan.summary;
  let line = `Plan: ${s.create} to create, ${s.update} to update, ${s.unverified} unverified, ${s.unchanged} unchanged`;
  if (s.notApplicable > 0) line += `, ${s.notApplicable} not applicable`;
  if (plan.actions.length === 0) line += ". No changes.";
  return line;
}
