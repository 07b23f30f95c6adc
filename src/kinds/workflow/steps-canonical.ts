// A workflow's steps in the planner's flat field model, the same for the config and the server:
// `steps` is the ordered list of step names (a step's identity inside its workflow), and each
// step's fields are `steps["NAME"].FIELD` (the name as a JSON string, so any name is one
// unambiguous field). The config manages a step's type and active (default true) and the fields
// it sets; the server side is mapped onto the same shape: the template's type is the step's type,
// sub-ids the server adds to filters and variables are dropped, metadata's empty `timed` default
// is dropped, and `_layoutId` becomes the layout's identifier. Pure: no I/O.

import type { JsonObject, JsonValue } from "../../canonical.js";
import { type StepSpec, templateAsSent } from "./step-spec.js";
import type { Step } from "./wire.js";

export const STEPS_FIELD = "steps";

/** Template fields the config manages when it sets them (layout is resolved separately). */
export const TEMPLATE_TEXT_FIELDS = [
  "subject",
  "content",
  "contentType",
  "preheader",
  "senderName",
  "title",
  "cta",
  "variables",
] as const;

/** Step fields the config manages when it sets them (type and active always). */
export const STEP_FIELDS = ["shouldStopOnFail", "filters", "metadata", "replyCallback"] as const;

/** The flat field of one step's field: `steps["email-customer"].template.subject`. */
export function stepField(name: string, field: string): string {
  return `${STEPS_FIELD}[${JSON.stringify(name)}].${field}`;
}

/** The step and field a flat field names, or undefined when it is not a step's field. */
export function parseStepField(field: string): { step: string; field: string } | undefined {
  const start = STEPS_FIELD.length + 1;
  if (!field.startsWith(`${STEPS_FIELD}["`)) return undefined;
  // The end of the JSON string: the first quote no backslash escapes.
  let end = start + 1;
  while (end < field.length && field[end] !== '"') end += field[end] === "\\" ? 2 : 1;
  if (field.slice(end, end + 3) !== '"].') return undefined;
  try {
    return { step: JSON.parse(field.slice(start, end + 1)) as string, field: field.slice(end + 3) };
  } catch {
    return undefined;
  }
}

/** Whether a flat field is part of a workflow's content (its step list or a step's field). */
export function isContentField(field: string): boolean {
  return field === STEPS_FIELD || field.startsWith(`${STEPS_FIELD}[`);
}

/** The config's steps as flat fields (added to `out`). */
export function desiredStepFields(steps: readonly StepSpec[], out: JsonObject): void {
  out[STEPS_FIELD] = steps.map((step) => step.name);
  for (const step of steps) {
    const at = stepField(step.name, ""); // the step's prefix once (see liveStepFields)
    out[`${at}type`] = step.type;
    out[`${at}active`] = step.active ?? true;
    for (const field of STEP_FIELDS) {
      const value = step[field];
      if (value !== undefined) out[`${at}${field}`] = value as JsonValue;
    }
    const template = templateAsSent(step) ?? {};
    for (const field of TEMPLATE_TEXT_FIELDS) {
      const value = template[field];
      if (value !== undefined) out[`${at}template.${field}`] = value as JsonValue;
    }
    if (template.layout !== undefined) out[`${at}template.layout`] = template.layout;
  }
}

/** A live step's name as the config would write it; unnamed steps get a name no config can hold twice. */
export function liveStepName(step: Step, index: number): string {
  return typeof step.name === "string" && step.name !== "" ? step.name : `(unnamed step ${index + 1})`;
}

/**
 * The server's steps as flat fields (added to `out`). `layoutIdentifiers`: layout id ->
 * identifier, where the server lists layouts; an unknown id shows as `layout id ...`.
 * A name held twice maps its first step (the planner matches by name; see stepsBody).
 */
export function liveStepFields(
  steps: readonly Step[],
  layoutIdentifiers: ReadonlyMap<string, string> | undefined,
  out: JsonObject,
): void {
  const names: string[] = [];
  steps.forEach((step, index) => {
    const name = liveStepName(step, index);
    names.push(name);
    // The step's prefix once (`steps["name"].`): stepField for each of its fields costs a
    // JSON.stringify each, over every step of every workflow a plan compares.
    const at = stepField(name, "");
    if (out[`${at}type`] !== undefined) return;
    const template = (step.template ?? {}) as Record<string, unknown>;
    out[`${at}type`] = String(template.type ?? "");
    out[`${at}active`] = step.active !== false;
    out[`${at}shouldStopOnFail`] = step.shouldStopOnFail === true;
    out[`${at}filters`] = withoutSubIds(step.filters ?? []) as JsonValue;
    out[`${at}metadata`] = canonicalMetadata(step.metadata as Record<string, unknown> | undefined);
    out[`${at}replyCallback`] = withoutSubIds(step.replyCallback ?? {}) as JsonValue;
    for (const field of TEMPLATE_TEXT_FIELDS) {
      const value = template[field];
      if (value === undefined || value === null) continue;
      out[`${at}template.${field}`] = withoutSubIds(value) as JsonValue;
    }
    if (out[`${at}template.variables`] === undefined) out[`${at}template.variables`] = [];
    const layoutId = template._layoutId;
    if (typeof layoutId === "string")
      out[`${at}template.layout`] = layoutIdentifiers?.get(layoutId) ?? `layout id ${layoutId}`;
  });
  out[STEPS_FIELD] = names;
}

/** Metadata without the server's empty `timed` default (every step has it), for comparing. */
function canonicalMetadata(metadata: Record<string, unknown> | undefined): JsonObject {
  const { timed, ...rest } = metadata ?? {};
  const empty =
    timed === undefined ||
    (typeof timed === "object" &&
      timed !== null &&
      Object.entries(timed).every(([, v]) => Array.isArray(v) && v.length === 0));
  return withoutSubIds(empty ? rest : { ...rest, timed }) as JsonObject;
}

/** A value without the `_id`/`id` the server adds to every filter, child and variable. */
export function withoutSubIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSubIds);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === "_id" || key === "id") continue;
    out[key] = withoutSubIds(inner);
  }
  return out;
}
