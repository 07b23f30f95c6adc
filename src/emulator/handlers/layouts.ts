// Layouts (extension), as a real server serves them (r3-q3-*). POST answers 201 with `{_id}` only;
// GET by id the full layout; the list `{page, totalCount, pageSize, data}` (default pageSize 10,
// newest first, `orderBy=1` oldest first, past the end `[]`); PATCH 200 with the full layout
// (`variables` replaced whole, `isDefault: true` moves the default, `isDefault: false` on the
// default 409 "One default layout is required"); POST .../default 204; DELETE
// 204, or 409 for the default layout and for one a workflow step uses. Both keys may write their
// own environment's layouts; each write records a "Layout" change there, which promotion applies
// from Development.
import { recordChange } from "../changes.js";
import { badRequest, HttpError, notFound } from "../http-error.js";
import {
  checkContent,
  layoutChangeType,
  layoutInUse,
  layoutsOf,
  makeDefault,
  newLayout,
  variablesOf,
} from "../layout-records.js";
import { derivedLayoutVariables } from "../layout-variables.js";
import type { Layout } from "../store.js";
import { type Answer, type Handler, type HandlerContext, isObject, ok, requireName } from "./context.js";

/** A layout as answered: a real server adds the virtual `isDeleted`. */
const served = (layout: Layout) => ({ ...layout, isDeleted: layout.deleted });

function live(ctx: HandlerContext): Layout[] {
  return layoutsOf(ctx.data, ctx.store, ctx.now).filter((l) => !l.deleted);
}

function find(ctx: HandlerContext): Layout {
  const id = ctx.params.id ?? "";
  const layout = live(ctx).find((l) => l._id === id);
  if (layout === undefined)
    throw notFound(`Layout not found for id ${id} in the environment ${ctx.store.environmentId}`);
  return layout;
}

/**
 * Every layout write is a change of the environment written: Development's are promoted, and a
 * Production key's own are listed to it (r3-q3-21, r3-q3-34) but never promoted.
 */
function recorded(ctx: HandlerContext, layouts: Layout[]): void {
  for (const layout of layouts)
    recordChange(ctx.data, ctx.environment, layoutChangeType(ctx.data, layout._id), layout, ctx.now);
}

function optionalString(body: Record<string, unknown>, field: string): string | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw badRequest([`${field} must be a string`]);
  return value;
}

export const listLayouts: Handler = (ctx) => {
  const page = Number(ctx.query.get("page") || 0);
  const pageSize = Number(ctx.query.get("pageSize") || 10);
  if (!Number.isInteger(page) || page < 0) throw badRequest(["page must not be less than 0"]);
  if (!Number.isInteger(pageSize) || pageSize < 1) throw badRequest(["pageSize must not be less than 1"]);
  const layouts = live(ctx);
  const ordered = ctx.query.get("orderBy") === "1" ? layouts : [...layouts].reverse();
  const data = ordered.slice(page * pageSize, page * pageSize + pageSize).map(served);
  return { status: 200, body: { page, totalCount: layouts.length, pageSize, data } };
};

export const getLayout: Handler = (ctx) => ok(served(find(ctx)));

export const createLayout: Handler = async (ctx) => {
  const body = isObject(ctx.body) ? ctx.body : {};
  const name = requireName(body);
  const identifier = optionalString(body, "identifier");
  if (identifier === undefined || identifier.trim() === "")
    throw badRequest(["identifier should not be empty", "identifier must be a string"]);
  const content = checkContent(body.content);
  // Checked as sent, stored as the server derives them from the content (layout-variables.ts).
  const sent = variablesOf(ctx.data, body.variables);
  const variables = await derivedLayoutVariables(content, sent);
  const layouts = layoutsOf(ctx.data, ctx.store, ctx.now);
  if (layouts.some((l) => !l.deleted && l.identifier === identifier)) {
    throw new HttpError(
      409,
      `Layout with identifier: ${identifier} already exists under environment ${ctx.store.environmentId}`,
    );
  }
  const description = optionalString(body, "description");
  optionalString(body, "contentType"); // checked, and a layout is always customHtml
  const layout = newLayout(ctx.data, ctx.store, ctx.now, {
    name,
    identifier,
    content,
    variables,
    ...(description !== undefined ? { description } : {}),
  });
  layouts.push(layout);
  const moved = body.isDefault === true ? makeDefault(layouts, layout, ctx.now) : [];
  recorded(ctx, [layout, ...moved]);
  return ok({ _id: layout._id }, 201, true);
};

export const updateLayout: Handler = (ctx) => {
  const layout = find(ctx);
  const body = isObject(ctx.body) ? ctx.body : {};
  // Every check before any field changes, as UpdateLayoutUseCase writes once: a refused PATCH
  // leaves the layout as it was.
  const name = body.name !== undefined ? requireName(body) : undefined;
  const identifier = optionalString(body, "identifier");
  if (identifier !== undefined && identifier !== layout.identifier) {
    if (live(ctx).some((l) => l.identifier === identifier))
      throw new HttpError(
        409,
        `Layout with identifier: ${identifier} already exists under environment ${ctx.store.environmentId}`,
      );
  }
  // The default stays the default until another layout takes its place.
  if (body.isDefault === false && layout.isDefault)
    throw new HttpError(409, "One default layout is required");
  const content = body.content !== undefined ? checkContent(body.content) : undefined;
  // An empty description is ignored, and a layout stays customHtml.
  const description = optionalString(body, "description");
  optionalString(body, "contentType");
  const variables = body.variables !== undefined ? variablesOf(ctx.data, body.variables) : undefined;
  if (name !== undefined) layout.name = name;
  if (identifier !== undefined) layout.identifier = identifier;
  if (content !== undefined) layout.content = content;
  if (description !== undefined && description !== "") layout.description = description;
  if (variables !== undefined) layout.variables = variables;
  layout.updatedAt = ctx.now;
  const moved = body.isDefault === true ? makeDefault(live(ctx), layout, ctx.now) : [];
  recorded(ctx, [layout, ...moved]);
  return ok(served(layout), 200, true);
};

export const setDefaultLayout: Handler = (ctx): Answer => {
  const layout = find(ctx);
  const moved = makeDefault(live(ctx), layout, ctx.now);
  recorded(ctx, [layout, ...moved]);
  return { status: 204, body: null, wrote: true };
};

export const deleteLayout: Handler = (ctx): Answer => {
  const layout = find(ctx);
  if (layout.isDefault)
    throw new HttpError(
      409,
      `Layout with id ${layout._id} is being used as your default layout, so it can not be deleted`,
    );
  if (layoutInUse(ctx.store, layout._id))
    throw new HttpError(409, `Layout with id ${layout._id} is being used so it can not be deleted`);
  layout.deleted = true;
  layout.updatedAt = ctx.now;
  recorded(ctx, [layout]);
  return { status: 204, body: null, wrote: true };
};
