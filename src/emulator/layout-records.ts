// The layouts of one environment as a real server keeps them (r3-q3-*): a fresh organization's
// `novu-default-layout` in each environment, variables read back with `defaultValue ""` when sent
// without one, content that must hold `{{{body}}}` (`{{body}}` does not count), and the rule that
// one layout is the default. No HTTP here: ./handlers/layouts.ts answers the routes.
import { badRequest } from "./http-error.js";
import { CREATOR_ID } from "./seed-data.js";
import { type EmulatorData, type EmulatorStore, type Layout, type LayoutVariable, nextId } from "./store.js";

export const DEFAULT_LAYOUT_IDENTIFIER = "novu-default-layout";

const DEFAULT_CONTENT =
  '<!DOCTYPE html>\n<html>\n<head><meta http-equiv="Content-Type" content="text/html; charset=utf-8" /></head>\n' +
  '<body style="background: {{branding.color}}">\n  {{#if branding.logo}}<img src="{{branding.logo}}" />{{/if}}\n' +
  "  {{{body}}}\n</body>\n</html>\n";

/** The store's layouts; the first use gives the environment a fresh organization's default layout. */
export function layoutsOf(data: EmulatorData, store: EmulatorStore, now: string): Layout[] {
  if (store.layouts !== undefined) return store.layouts;
  const layout = newLayout(data, store, now, {
    name: "Default Layout",
    identifier: DEFAULT_LAYOUT_IDENTIFIER,
    description: "The default layout created by Novu",
    content: DEFAULT_CONTENT,
    isDefault: true,
    variables: [
      { name: "branding.logo", type: "String", required: false, defaultValue: "" },
      { name: "preheader", type: "String", required: false, defaultValue: "" },
      { name: "branding.color", type: "String", required: false, defaultValue: "" },
    ],
  });
  store.layouts = [layout];
  return store.layouts;
}

/** The content rule of a real server (400 on POST and PATCH). */
export function checkContent(content: unknown): string {
  if (typeof content !== "string") throw badRequest(["content must be a string"]);
  if (!content.includes("{{{body}}}")) throw badRequest("Layout content must contain {{{body}}}");
  return content;
}

/** Variables as a real server stores them: each with a fresh `_id`, `defaultValue ""` when unsent. */
export function variablesOf(data: EmulatorData, sent: unknown): LayoutVariable[] {
  if (sent === undefined) return [];
  if (!Array.isArray(sent)) throw badRequest(["variables must be an array"]);
  return sent.map((v: unknown) => {
    const variable = (v !== null && typeof v === "object" ? v : {}) as Record<string, unknown>;
    if (typeof variable.name !== "string" || variable.name === "")
      throw badRequest(["variables.name should not be empty"]);
    return {
      name: variable.name,
      type: typeof variable.type === "string" ? variable.type : "String",
      required: variable.required === true,
      defaultValue: variable.defaultValue ?? "",
      _id: nextId(data),
    };
  });
}

export function newLayout(
  data: EmulatorData,
  store: EmulatorStore,
  now: string,
  fields: {
    name: string;
    identifier: string;
    description?: string;
    content: string;
    contentType?: string;
    isDefault?: boolean;
    variables?: unknown;
  },
): Layout {
  return {
    _id: nextId(data),
    _environmentId: store.environmentId,
    _organizationId: data.organization._id,
    _creatorId: CREATOR_ID,
    name: fields.name,
    identifier: fields.identifier,
    description: fields.description ?? "",
    variables: variablesOf(data, fields.variables),
    content: fields.content,
    contentType: fields.contentType ?? "customHtml",
    isDefault: fields.isDefault === true,
    channel: "email",
    deleted: false,
    createdAt: now,
    updatedAt: now,
  };
}

/** Make `layout` the one default of its environment. */
export function makeDefault(layouts: Layout[], layout: Layout, now: string): Layout[] {
  const changed: Layout[] = [];
  for (const other of layouts) {
    if (other === layout || !other.isDefault) continue;
    other.isDefault = false;
    other.updatedAt = now;
    changed.push(other);
  }
  layout.isDefault = true;
  layout.updatedAt = now;
  return changed;
}

/** Whether a (not deleted) workflow's step or variant of the store sends its email in `layoutId`. */
export function layoutInUse(store: EmulatorStore, layoutId: string): boolean {
  type StepLike = { template?: { _layoutId?: unknown }; variants?: StepLike[] };
  const uses = (step: StepLike): boolean =>
    step.template?._layoutId === layoutId || (step.variants ?? []).some(uses);
  return store.workflows.some((w) => w.deleted !== true && (w.steps as StepLike[]).some(uses));
}
