// A workflow's steps as a real server stores them on POST and on PUT with `steps`: the list sent
// replaces the stored one wholesale. A step (or variant) is matched to a stored message template
// by `_templateId` only: sent -> that template is updated in place, keeping its id; not sent -> a
// new template (the old one is soft-deleted: it simply stops being listed). Every step field not
// sent reverts to its default (filters [], metadata without amount/unit, shouldStopOnFail false,
// no uuid), and the template is rebuilt from what was sent (a cta left out is gone). `_parentId`
// chains each step to the previous step's template. Writes name layouts and feeds `layoutId` and
// `feedId`; the read-side `_layoutId`/`_feedId` in a body are ignored, so an email template sent
// without `layoutId` gets the environment's default layout, like on a real server. Filters and
// variables get fresh sub-ids on every write (why an identical PUT still changes the record).
import type { Step, Workflow } from "../kinds/workflow/wire.js";
import { type HandlerContext, isObject } from "./handlers/context.js";
import { checkStepCasts } from "./step-casts.js";
import { CREATOR_ID, type EmulatorStore, nextId } from "./store.js";

type Json = Record<string, unknown>;

/** What building steps reads: the data (ids), the environment's store (layouts, templates), the clock. */
export type StepContext = Pick<HandlerContext, "data" | "store" | "now">;

/** Template types a step may have (template.type), as a real server's schema lists them. */
export const STEP_TYPES = ["email", "in_app", "sms", "chat", "push", "digest", "delay", "trigger"] as const;

/** Template fields taken from a body as they are; everything else sent is ignored. */
const TEMPLATE_FIELDS = [
  "name",
  "subject",
  "variables",
  "content",
  "contentType",
  "preheader",
  "senderName",
  "title",
  "actor",
  "cta",
] as const;

/** The 400 a real server gives a malformed step list, or nothing. */
export function checkSteps(steps: unknown): string[] {
  if (steps === undefined) return [];
  if (!Array.isArray(steps) || steps.some((s) => !isObject(s))) return ["steps must be an array of objects"];
  const problems: string[] = [];
  const check = (step: Json, at: string) => {
    const template = step.template;
    if (!isObject(template)) {
      problems.push(`${at}.template must be an object`);
      return;
    }
    if (!(STEP_TYPES as readonly string[]).includes(String(template.type)))
      problems.push(`${at}.template.type must be one of the following values: ${STEP_TYPES.join(", ")}`);
    if (step._templateId !== undefined && !/^[0-9a-f]{24}$/i.test(String(step._templateId)))
      problems.push(`${at}._templateId must be a mongodb id`);
    checkStepCasts(step, at, problems);
    if (step.variants !== undefined) {
      if (!Array.isArray(step.variants) || step.variants.some((v) => !isObject(v)))
        problems.push(`${at}.variants must be an array of objects`);
      else
        (step.variants as Json[]).forEach((v, i) => {
          check(v, `${at}.variants.${i}`);
        });
    }
  };
  (steps as Json[]).forEach((step, index) => {
    check(step, `steps.${index}`);
  });
  return problems;
}

/** Every message template a workflow's steps and their variants hold, by id. */
function templatesOf(workflow: Workflow | undefined): Map<string, Json> {
  const out = new Map<string, Json>();
  const add = (step: Step) => {
    const template = step.template;
    if (isObject(template) && typeof template._id === "string") out.set(template._id, template);
    for (const variant of (step as { variants?: Step[] }).variants ?? []) add(variant);
  };
  for (const step of workflow?.steps ?? []) add(step);
  return out;
}

/**
 * The stored steps for `sent` (already checked). `existing`: the workflow being updated (its
 * templates may be kept by `_templateId`); undefined on create.
 */
export function buildSteps(ctx: StepContext, sent: Json[], existing?: Workflow): Step[] {
  const kept = templatesOf(existing);
  let previous: string | null = null;
  return sent.map((step) => {
    const built = buildStep(ctx, step, kept, previous);
    previous = built._templateId ?? null;
    return built;
  });
}

function buildStep(
  ctx: StepContext,
  step: Json,
  kept: Map<string, Json>,
  parentId: string | null,
  variant = false,
): Step {
  const template = buildTemplate(ctx, step, kept);
  const id = template._id as string;
  const metadata = isObject(step.metadata) ? step.metadata : {};
  const variants = Array.isArray(step.variants) ? (step.variants as Json[]) : [];
  return {
    replyCallback: isObject(step.replyCallback) ? step.replyCallback : {},
    metadata: { timed: { weekDays: [], monthDays: [] }, ...metadata },
    active: typeof step.active === "boolean" ? step.active : true,
    shouldStopOnFail: step.shouldStopOnFail === true,
    ...(typeof step.uuid === "string" ? { uuid: step.uuid } : {}),
    ...(typeof step.name === "string" ? { name: step.name } : {}),
    type: "REGULAR",
    filters: Array.isArray(step.filters) ? withSubIds(ctx, step.filters) : [],
    _templateId: id,
    _parentId: parentId,
    // A variant is a step of its own, without variants.
    ...(variant ? {} : { variants: variants.map((v) => buildStep(ctx, v, kept, null, true)) }),
    _id: id,
    template,
  } as Step;
}

/** The template a step is sent with: the kept one (same id, first created) or a new one. */
function buildTemplate(ctx: StepContext, step: Json, kept: Map<string, Json>): Json {
  const sent = isObject(step.template) ? step.template : {};
  const previous =
    typeof step._templateId === "string" ? keptOrForeign(ctx, kept, step._templateId) : undefined;
  const id = previous !== undefined ? (previous._id as string) : nextId(ctx.data);
  const fields: Json = {};
  for (const field of TEMPLATE_FIELDS) {
    if (sent[field] === undefined) continue;
    fields[field] =
      field === "variables" && Array.isArray(sent.variables) ? withSubIds(ctx, sent.variables) : sent[field];
  }
  if (fields.variables === undefined) fields.variables = [];
  const layoutId =
    typeof sent.layoutId === "string"
      ? sent.layoutId
      : sent.type === "email"
        ? defaultLayoutId(ctx.store)
        : null;
  const { cta, ...rest } = fields;
  const built: Json = {
    // A real server's key order (its schema's): cta first when there is one, then type.
    ...(cta !== undefined ? { cta } : {}),
    type: sent.type,
    active: true,
    ...rest,
    _environmentId: ctx.store.environmentId,
    _organizationId: ctx.data.organization._id,
    _creatorId: CREATOR_ID,
    // A Production template keeps pointing at the Development one it was promoted from.
    ...(typeof previous?._parentId === "string" ? { _parentId: previous._parentId } : {}),
    _feedId: typeof sent.feedId === "string" ? sent.feedId : null,
    _layoutId: layoutId,
    _id: id,
    deleted: false,
    createdAt: typeof previous?.createdAt === "string" ? previous.createdAt : ctx.now,
    updatedAt: ctx.now,
    __v: 0,
  };
  // Another workflow's template sent by its id is overwritten there too (why a client must never
  // send one): the real server updates the template document, whoever lists it.
  if (previous !== undefined && !kept.has(id)) {
    for (const key of Object.keys(previous)) delete previous[key];
    Object.assign(previous, structuredClone(built));
  }
  return built;
}

/** The template `_templateId` names: this workflow's, else one of another workflow of the environment. */
function keptOrForeign(ctx: StepContext, kept: Map<string, Json>, id: string): Json | undefined {
  const own = kept.get(id);
  if (own !== undefined) return own;
  for (const workflow of ctx.store.workflows) {
    const found = templatesOf(workflow).get(id);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Filters and variables as stored: every object, children included, gets a fresh `_id`. */
function withSubIds(ctx: StepContext, list: unknown[]): unknown[] {
  return list.map((item) => {
    if (!isObject(item)) return item;
    const { _id: _old, id: _oldId, ...rest } = item;
    const children = Array.isArray(rest.children) ? { children: withSubIds(ctx, rest.children) } : {};
    return { ...rest, ...children, _id: nextId(ctx.data) };
  });
}

/**
 * The environment's default layout, where the store holds layouts (the layouts routes keep them
 * in `store.layouts`); null when it holds none, as on a server without layouts.
 */
export function defaultLayoutId(store: EmulatorStore): string | null {
  return store.layouts?.find((layout) => layout.isDefault === true && layout.deleted !== true)?._id ?? null;
}

/**
 * Trigger variables as a real server derives them from the templates on every write (with fresh
 * sub-ids): each `{{name}}` of a subject or text content, and the subscriber fields the channels
 * need (phone for sms, email for email).
 */
export function triggerVariables(
  ctx: StepContext,
  steps: Step[],
): { variables: Json[]; subscriberVariables: Json[] } {
  const names = new Set<string>();
  const channels = new Set<string>();
  for (const step of steps) {
    const template = isObject(step.template) ? step.template : {};
    channels.add(String(template.type));
    for (const text of [template.subject, template.content, template.title]) {
      const source = typeof text === "string" ? text : Array.isArray(text) ? JSON.stringify(text) : "";
      for (const match of source.matchAll(/\{\{\s*([A-Za-z_][\w]*)\s*\}\}/g)) {
        if (match[1] !== undefined) names.add(match[1]);
      }
    }
  }
  const subscriber = [...(channels.has("sms") ? ["phone"] : []), ...(channels.has("email") ? ["email"] : [])];
  return {
    variables: [...names].map((name) => ({ name, type: "String", _id: nextId(ctx.data) })),
    subscriberVariables: subscriber.map((name) => ({ name, _id: nextId(ctx.data) })),
  };
}
