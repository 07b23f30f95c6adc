// The `steps` of a PUT /v1/workflows/{id}: the whole list, in the config's order, because the
// server replaces it wholesale. A step that exists (matched by name to the live read) carries its
// own `_templateId`, so its template is updated in place; a new step carries none; a step the
// config left out is not sent, which removes it. Each step is sent in full: what the config does
// not manage (variants, uuid, filters or metadata it leaves out, a template's cta or variables,
// its layout and feed) comes from the live read unchanged, because anything not sent reverts to
// the server's default. Writes name layouts and feeds `layoutId`/`feedId` (reads say
// `_layoutId`/`_feedId`). Only this workflow's live steps are ever a source of `_templateId`.
// Pure: no I/O.

import type { JsonObject, JsonValue } from "../../canonical.js";
import { type StepSpec, templateAsSent } from "./step-spec.js";
import { liveStepName, STEP_FIELDS, TEMPLATE_TEXT_FIELDS, withoutSubIds } from "./steps-canonical.js";
import type { LayoutFromAction } from "./types.js";
import type { Step } from "./wire.js";

/** Template fields a read returns that a write takes back under the same name. */
const CARRIED_TEMPLATE_FIELDS = [...TEMPLATE_TEXT_FIELDS, "name", "actor"] as const;

/** A layout identifier the config names that no layout on the server has. */
export class UnknownLayoutError extends Error {
  readonly step: string;
  readonly layout: string;
  constructor(step: string, layout: string) {
    super(`step "${step}": no layout with identifier "${layout}" on the server`);
    this.step = step;
    this.layout = layout;
  }
}

/** The placeholder a step's `layoutId` holds in a plan until the layout's create gives the id. */
export function layoutPlaceholder(action: string): string {
  return `<id of ${action}>`;
}

/**
 * The steps body. `live`: the workflow's steps as read by id (undefined on create);
 * `layoutIds`: layout identifier -> this environment's id. `created`: layouts another action of
 * this plan creates (identifier -> its action id): such a step's `layoutId` is a placeholder,
 * and `refs` gets the step. Throws UnknownLayoutError for a layout in neither.
 */
export function stepsBody(
  desired: readonly StepSpec[],
  live: readonly Step[] | undefined,
  layoutIds: ReadonlyMap<string, string>,
  created: ReadonlyMap<string, string> = new Map(),
  refs: LayoutFromAction[] = [],
): JsonObject[] {
  const byName = new Map<string, Step>();
  (live ?? []).forEach((step, index) => {
    const name = liveStepName(step, index);
    if (!byName.has(name)) byName.set(name, step);
  });
  return desired.map((spec, index) => {
    const current = byName.get(spec.name);
    const body: JsonObject = current === undefined ? { name: spec.name } : carriedStep(current);
    body.name = spec.name;
    body.active = spec.active ?? true;
    for (const field of STEP_FIELDS) {
      const value = spec[field];
      if (value !== undefined) body[field] = value as JsonValue;
    }
    const template: JsonObject =
      current === undefined ? { name: spec.name } : { ...((body.template as JsonObject | undefined) ?? {}) };
    template.type = spec.type;
    const sent = templateAsSent(spec);
    for (const field of TEMPLATE_TEXT_FIELDS) {
      const value = sent?.[field];
      if (value !== undefined) template[field] = value as JsonValue;
    }
    const layout = spec.template?.layout;
    if (layout !== undefined) {
      const id = layoutIds.get(layout);
      const action = created.get(layout);
      if (id !== undefined) template.layoutId = id;
      else if (action !== undefined) {
        template.layoutId = layoutPlaceholder(action);
        refs.push({ step: index, action });
      } else throw new UnknownLayoutError(spec.name, layout);
    }
    body.template = template;
    return body;
  });
}

/** A live step in its write form: every field it holds, the template id kept. */
function carriedStep(step: Step): JsonObject {
  const out: JsonObject = {};
  const raw = step as Step & { variants?: Step[]; uuid?: string };
  if (typeof raw._templateId === "string") out._templateId = raw._templateId;
  if (typeof raw.uuid === "string") out.uuid = raw.uuid;
  if (typeof raw.name === "string") out.name = raw.name;
  out.active = raw.active !== false;
  out.shouldStopOnFail = raw.shouldStopOnFail === true;
  out.filters = withoutSubIds(raw.filters ?? []) as JsonValue;
  if (raw.metadata !== undefined) out.metadata = withoutSubIds(raw.metadata) as JsonValue;
  if (raw.replyCallback !== undefined) out.replyCallback = withoutSubIds(raw.replyCallback) as JsonValue;
  if (raw.variants !== undefined) out.variants = raw.variants.map(carriedStep);
  out.template = carriedTemplate((raw.template ?? {}) as Record<string, unknown>);
  return out;
}

function carriedTemplate(template: Record<string, unknown>): JsonObject {
  const out: JsonObject = { type: String(template.type ?? "") };
  for (const field of CARRIED_TEMPLATE_FIELDS) {
    const value = template[field];
    if (value !== undefined && value !== null) out[field] = withoutSubIds(value) as JsonValue;
  }
  if (typeof template._layoutId === "string") out.layoutId = template._layoutId;
  if (typeof template._feedId === "string") out.feedId = template._feedId;
  return out;
}
