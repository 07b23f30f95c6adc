// The layouts of one environment as a real server keeps them (r3-q3-*): a fresh organization's
// Development already holds `novu-default-layout` (the default) with a pending DefaultLayout
// change (r3-q3-00, r3-q1-01b); Production holds no layout until that change is promoted (its
// copy has `_parentId` = Development's, r3-q3-23; a workflow promoted before it points at no
// layout there, r3-q2-03). Variables read back with `defaultValue ""` when sent without one,
// content must hold `{{{body}}}` (`{{body}}` does not count), and one layout is the default.
// No HTTP here: ./handlers/layouts.ts answers the routes.
import { badRequest } from "./http-error.js";
import {
  type ChangeType,
  CREATOR_ID,
  type EmulatorData,
  type EmulatorStore,
  type Layout,
  type LayoutVariable,
  nextId,
} from "./store.js";

export const DEFAULT_LAYOUT_IDENTIFIER = "novu-default-layout";

const DEFAULT_CONTENT =
  '<!DOCTYPE html>\n<html>\n<head><meta http-equiv="Content-Type" content="text/html; charset=utf-8" /></head>\n' +
  '<body style="background: {{branding.color}}">\n  {{#if branding.logo}}<img src="{{branding.logo}}" />{{/if}}\n' +
  "  {{{body}}}\n</body>\n</html>\n";

/**
 * The store's layouts. A data file written before layouts were seeded has none: Development then
 * gets a fresh organization's default layout on first use, Production an empty list.
 */
export function layoutsOf(data: EmulatorData, store: EmulatorStore, now: string): Layout[] {
  if (store.layouts !== undefined) return store.layouts;
  store.layouts = store.environment === "development" ? [defaultLayout(data, store, now)] : [];
  return store.layouts;
}

/**
 * The change type of a Development layout's writes: the default layout of a fresh organization
 * is a DefaultLayout record on a real server (r3-q1-01b, r3-q3-20), every other a Layout.
 */
export function layoutChangeType(data: EmulatorData, layoutId: string): ChangeType {
  return data.changes.some((c) => c.type === "DefaultLayout" && c._entityId === layoutId)
    ? "DefaultLayout"
    : "Layout";
}

export function defaultLayout(data: EmulatorData, store: EmulatorStore, now: string): Layout {
  return newLayout(data, store, now, {
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
