// What a real server's database refuses in a step (Novu's NotificationTemplate and MessageTemplate
// Mongoose schemas): a step's fields are stored with fixed types, and a value the driver cannot
// cast to its type (an object where a string goes, "sometimes" for a boolean, "one" for a number)
// fails the whole write. A real server answers that 500 (a CastError); the emulator answers 400
// naming the field, as it does for the other crashes it documents (docs/emulator.md), before
// anything is written. What the driver can cast passes (5 for a string, "5" for a number, "yes"
// for a boolean), as it does there. Also the use cases' own refusals of a step: an empty CTA
// action on a new template, and a kept template's texts that are not strings (IsString).
import { isObject } from "./handlers/context.js";

type Json = Record<string, unknown>;

const TRUE_OR_FALSE = new Set<unknown>([true, false, "true", "false", 1, 0, "1", "0", "yes", "no"]);

const castsToString = (v: unknown) =>
  v === undefined || v === null || ["string", "number", "boolean"].includes(typeof v);
const castsToNumber = (v: unknown) =>
  v === undefined ||
  v === null ||
  v === "" ||
  (typeof v === "number" && Number.isFinite(v)) ||
  ((typeof v === "string" || typeof v === "boolean") && !Number.isNaN(Number(v)));
const castsToBoolean = (v: unknown) => v === undefined || v === null || TRUE_OR_FALSE.has(v);

const STRING = "must be a string";
const NUMBER = "must be a number";
const BOOLEAN = "must be a boolean value";

/** Fields of an object and the type the schema stores each with. */
type Shape = Record<string, "string" | "number" | "boolean">;

const FILTER: Shape = { isNegated: "boolean", type: "string", value: "string" };
const CONDITION: Shape = {
  field: "string",
  operator: "string",
  on: "string",
  webhookUrl: "string",
  timeOperator: "string",
  step: "string",
  stepType: "string",
};
const METADATA: Shape = {
  amount: "number",
  unit: "string",
  digestKey: "string",
  delayPath: "string",
  type: "string",
  backoffUnit: "string",
  backoffAmount: "number",
  updateMode: "boolean",
  backoff: "boolean",
};
const TIMED: Shape = { atTime: "string", ordinal: "string", ordinalValue: "string", monthlyType: "string" };
const STEP: Shape = { active: "boolean", shouldStopOnFail: "boolean", uuid: "string", name: "string" };
const REPLY_CALLBACK: Shape = { active: "boolean", url: "string" };
const TEMPLATE: Shape = { name: "string", subject: "string", title: "string", contentType: "string" };

function checkShape(value: Json, shape: Shape, at: string, problems: string[]): void {
  for (const [field, type] of Object.entries(shape)) {
    const v = value[field];
    if (type === "string" && !castsToString(v)) problems.push(`${at}.${field} ${STRING}`);
    if (type === "number" && !castsToNumber(v)) problems.push(`${at}.${field} ${NUMBER}`);
    if (type === "boolean" && !castsToBoolean(v)) problems.push(`${at}.${field} ${BOOLEAN}`);
  }
}

/** An array of objects, each of `shape` (checked further by `each`), or a refusal. */
function checkList(
  value: unknown,
  at: string,
  problems: string[],
  each: (item: Json, at: string) => void,
): void {
  if (value === undefined || value === null) return;
  if (!Array.isArray(value) || value.some((item) => !isObject(item))) {
    problems.push(`${at} must be an array of objects`);
    return;
  }
  (value as Json[]).forEach((item, index) => {
    each(item, `${at}.${index}`);
  });
}

/** The problems of one step (or variant) at `at` (e.g. `steps.0`), beyond its template's type, added to `problems`. */
export function checkStepCasts(step: Json, at: string, problems: string[]): void {
  checkShape(step, STEP, at, problems);
  checkList(step.filters, `${at}.filters`, problems, (filter, where) => {
    checkShape(filter, FILTER, where, problems);
    checkList(filter.children, `${where}.children`, problems, (condition, inner) => {
      checkShape(condition, CONDITION, inner, problems);
    });
  });
  const metadata = step.metadata;
  if (metadata !== undefined && metadata !== null) {
    if (!isObject(metadata)) problems.push(`${at}.metadata must be an object`);
    else {
      checkShape(metadata, METADATA, `${at}.metadata`, problems);
      const timed = metadata.timed;
      if (timed !== undefined && timed !== null) {
        if (!isObject(timed)) problems.push(`${at}.metadata.timed must be an object`);
        else {
          checkShape(timed, TIMED, `${at}.metadata.timed`, problems);
          const { weekDays, monthDays } = timed;
          if (weekDays !== undefined && (!Array.isArray(weekDays) || !weekDays.every(castsToString)))
            problems.push(`${at}.metadata.timed.weekDays must be an array of strings`);
          if (monthDays !== undefined && (!Array.isArray(monthDays) || !monthDays.every(castsToNumber)))
            problems.push(`${at}.metadata.timed.monthDays must be an array of numbers`);
        }
      }
    }
  }
  if (step.replyCallback !== undefined && step.replyCallback !== null) {
    if (!isObject(step.replyCallback)) problems.push(`${at}.replyCallback must be an object`);
    else checkShape(step.replyCallback, REPLY_CALLBACK, `${at}.replyCallback`, problems);
  }
  const template = isObject(step.template) ? step.template : {};
  checkShape(template, TEMPLATE, `${at}.template`, problems);
  // IsString on both commands; subject, title and name only on a kept template's (UpdateMessageTemplateCommand).
  const kept = step._templateId !== undefined;
  for (const field of ["preheader", "senderName", ...(kept ? ["subject", "title", "name"] : [])]) {
    const v = template[field];
    if (v !== undefined && v !== null && typeof v !== "string") problems.push(`${field} must be a string`);
  }
  const cta = template.cta;
  if (cta !== undefined && cta !== null) {
    if (!isObject(cta)) problems.push(`${at}.template.cta must be an object`);
    else {
      checkShape(cta, { type: "string" }, `${at}.template.cta`, problems);
      // CreateMessageTemplate's own check: only a new template's.
      if (!kept && cta.action === "") problems.push("Please provide a valid CTA action");
    }
  }
}
