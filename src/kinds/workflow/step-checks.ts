// Offline checks of a workflow's steps, after the schema passed: what the schema cannot say
// alone, each at its file:line. Step names are unique in their workflow (a step's identity);
// each type has the template fields it needs (an email its subject and content, a push its
// title) and none it cannot use (a layout on an SMS); digest and delay steps have well-formed
// metadata and no message; editor content is a block list and only for email.

import { isFlagged } from "../../config/flagged.js";
import type { Resources } from "../../config/model.js";
import { where } from "../../config/where.js";
import type { Position, Problem } from "../../errors.js";
import type { StepSpec, StepType } from "./step-spec.js";

const UNITS = ["seconds", "minutes", "hours", "days", "weeks", "months"];

/** Template fields each message type needs. */
const REQUIRED: Record<StepType, readonly string[]> = {
  email: ["subject", "content"],
  in_app: ["content"],
  sms: ["content"],
  chat: ["content"],
  push: ["title", "content"],
  digest: [],
  delay: [],
};

/** Template fields only some types use. */
const ONLY_FOR: Record<string, readonly StepType[]> = {
  subject: ["email"],
  preheader: ["email"],
  senderName: ["email"],
  contentType: ["email"],
  layout: ["email"],
  cta: ["in_app"],
  title: ["push"],
};

export function checkWorkflowSteps(resources: Resources, problems: Problem[]): void {
  for (const { spec, source } of resources.workflow) {
    if (spec.steps === undefined) continue;
    const at = (index: number, field?: string): Position =>
      (field !== undefined ? source.fields[`steps[${index}].${field}`] : undefined) ??
      source.fields[`steps[${index}]`] ??
      source.fields.steps ??
      source.pos;
    const report = (index: number, field: string | undefined, rule: string, message: string) => {
      const step = spec.steps?.[index];
      problems.push({
        severity: "error",
        rule,
        message: `workflow "${spec.key}" step "${step?.name ?? index}": ${message}`,
        pos: at(index, field),
        field: `steps[${index}]${field !== undefined ? `.${field}` : ""}`,
      });
    };
    if (!Array.isArray(spec.steps)) continue;
    const names = new Map<string, number>();
    spec.steps.forEach((step, index) => {
      // A step the schema refused is checked for its name only (if it has one): its other
      // fields were told about, and may not have the shapes the checks below rely on.
      const refused = isFlagged(source, `steps[${index}]`);
      if (refused && (typeof step !== "object" || step === null || typeof step.name !== "string")) return;
      const first = names.get(step.name);
      if (first !== undefined) {
        report(
          index,
          "name",
          "duplicate-step",
          `the name is used by another step of this workflow (${where(at(first, "name"))}); step names must be unique`,
        );
      } else names.set(step.name, index);
      if (refused) return;
      checkStep(step, (field, rule, message) => report(index, field, rule, message));
    });
  }
}

const article = (type: StepType) => (type === "email" || type === "in_app" ? "an" : "a");

type Report = (field: string | undefined, rule: string, message: string) => void;

function checkStep(step: StepSpec, report: Report): void {
  const template = step.template ?? {};
  const action = step.type === "digest" || step.type === "delay";
  if (action) {
    if (step.template !== undefined)
      report("template", "step-template", `a ${step.type} step sends no message: leave out its template`);
    checkMetadata(step, report);
    return;
  }
  if (step.metadata !== undefined)
    report("metadata", "step-metadata", "metadata applies to digest and delay steps only");
  for (const field of REQUIRED[step.type]) {
    const value = (template as Record<string, unknown>)[field];
    if (value === undefined || value === "")
      report(
        step.template === undefined ? undefined : "template",
        "step-template",
        `${article(step.type)} ${step.type} step needs template.${field}`,
      );
  }
  for (const [field, types] of Object.entries(ONLY_FOR)) {
    if ((template as Record<string, unknown>)[field] !== undefined && !types.includes(step.type))
      report(
        `template.${field}`,
        "step-template",
        `template.${field} applies to ${types.join(", ")} steps only, not ${step.type}`,
      );
  }
  if (step.replyCallback !== undefined && step.type !== "email")
    report("replyCallback", "step-template", "replyCallback applies to email steps only");
  const blocks = Array.isArray(template.content);
  if (template.contentType === "editor" && template.content !== undefined && !blocks)
    report(
      "template.content",
      "step-template",
      "contentType editor needs content as the editor's block list",
    );
  if (blocks && template.contentType !== "editor")
    report(
      "template.content",
      "step-template",
      "a block list is e-mail editor content: set contentType: editor",
    );
}

function checkMetadata(step: StepSpec, report: Report): void {
  const metadata = step.metadata;
  if (metadata === undefined) {
    report(undefined, "step-metadata", `a ${step.type} step needs metadata: { type: regular, amount, unit }`);
    return;
  }
  const type = metadata.type ?? "regular";
  const allowed = step.type === "delay" ? ["regular", "scheduled"] : ["regular", "backoff", "timed"];
  if (typeof type !== "string" || !allowed.includes(type)) {
    report("metadata.type", "step-metadata", `metadata.type must be one of ${allowed.join(", ")}`);
    return;
  }
  if (type === "regular" || type === "backoff") {
    if (!Number.isInteger(metadata.amount) || (metadata.amount as number) < 1)
      report("metadata.amount", "step-metadata", "metadata.amount must be a whole number of at least 1");
    if (typeof metadata.unit !== "string" || !UNITS.includes(metadata.unit))
      report("metadata.unit", "step-metadata", `metadata.unit must be one of ${UNITS.join(", ")}`);
  }
  const known = new Set(
    step.type === "delay"
      ? ["type", "amount", "unit", "delayPath"]
      : [
          "type",
          "amount",
          "unit",
          "digestKey",
          "backoff",
          "backoffAmount",
          "backoffUnit",
          "updateMode",
          "timed",
        ],
  );
  for (const key of Object.keys(metadata)) {
    if (!known.has(key))
      report(
        `metadata.${key}`,
        "step-metadata",
        `unknown metadata field "${key}" for a ${step.type} step (known: ${[...known].join(", ")})`,
      );
  }
}
