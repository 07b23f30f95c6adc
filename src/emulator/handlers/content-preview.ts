// POST /v1/content-templates/preview/{email,in-app,sms,chat,push} (extension): the server's own
// preview of a template, rendered with notiform's renderer (src/render/), answered as a real
// server answers (r4-*): 201 `{data}`, 400 with the validation messages (an array) or the
// template's error (a string), 404 for an unknown layout, 500 for editor content given as a
// string. A real server accepts only a user session here; the emulator accepts its API keys.
// The organization's branding and the environment's layouts are the emulator's own.

import type { Branding } from "../../kinds/branding/wire.js";
import { loadRenderer, type RenderContext, RenderError, type Renderer } from "../../render/index.js";
import { badRequest, internalError, notFound } from "../http-error.js";
import { layoutsOf } from "../layout-records.js";
import { type Answer, type Handler, type HandlerContext, isObject, ok } from "./context.js";

type Body = Record<string, unknown>;

const missing = (field: string) => `${field} should not be null or undefined`;

/** The body's validation, in the server's order (r4-64, r4-67). */
function validate(body: Body, channel: string): void {
  const problems: string[] = [];
  if (body.content === undefined || body.content === null) problems.push(missing("content"));
  if (channel === "email") {
    if (typeof body.contentType !== "string") problems.push("contentType must be a string");
    if (body.payload === undefined || body.payload === null) problems.push(missing("payload"));
    if (typeof body.subject !== "string") problems.push("subject must be a string");
  }
  if (problems.length > 0) throw badRequest(problems);
}

/** A template that is not text: the engine's own refusal. */
function text(value: unknown): string {
  if (value === undefined || value === null || value === "") return "";
  if (typeof value !== "string")
    throw badRequest(
      `You must pass a string or Handlebars AST to Handlebars.compile. You passed ${String(value)}`,
    );
  return value;
}

function organizationBranding(ctx: HandlerContext): Branding | undefined {
  return ctx.data.branding ?? (ctx.data.organization as { branding?: Branding }).branding;
}

function contextOf(ctx: HandlerContext, body: Body): RenderContext {
  const payload = isObject(body.payload) ? body.payload : {};
  const context: RenderContext = { payload, mode: "preview" };
  const branding = organizationBranding(ctx);
  if (branding !== undefined) context.branding = branding;
  if (body.layoutId !== undefined && body.layoutId !== null && body.layoutId !== "") {
    const id = String(body.layoutId);
    const layout = layoutsOf(ctx.data, ctx.store, ctx.now).find((l) => l._id === id && !l.deleted);
    if (layout === undefined)
      throw notFound(`Layout not found for id ${id} in the environment ${ctx.store.environmentId}`);
    context.layout = { content: layout.content, variables: layout.variables };
  }
  return context;
}

function renderChannel(renderer: Renderer, channel: string, body: Body, context: RenderContext): unknown {
  switch (channel) {
    case "email": {
      const editor = body.contentType === "editor";
      // A real server crashes on editor content that is not a block list (r4-66).
      if (editor && !Array.isArray(body.content)) throw internalError();
      const template = {
        subject: text(body.subject),
        content: editor ? (body.content as never) : text(body.content),
        contentType: editor ? ("editor" as const) : ("customHtml" as const),
      };
      return renderer.renderEmail(template, context);
    }
    case "in-app":
      return renderer.renderInApp(
        { content: text(body.content), ...(isObject(body.cta) ? { cta: body.cta as never } : {}) },
        context,
      );
    case "sms":
      return renderer.renderSms({ content: text(body.content) }, context);
    case "chat":
      return renderer.renderChat({ content: text(body.content) }, context);
    default:
      return renderer.renderPush(
        { content: text(body.content), ...(body.title === undefined ? {} : { title: text(body.title) }) },
        context,
      );
  }
}

async function preview(ctx: HandlerContext, channel: string): Promise<Answer> {
  const body = isObject(ctx.body) ? ctx.body : {};
  validate(body, channel);
  const context = contextOf(ctx, body);
  const renderer = await loadRenderer();
  try {
    return ok(renderChannel(renderer, channel, body, context), 201);
  } catch (error) {
    if (error instanceof RenderError) throw badRequest(error.message);
    throw error;
  }
}

export const previewEmail: Handler = (ctx) => preview(ctx, "email");
export const previewInApp: Handler = (ctx) => preview(ctx, "in-app");
export const previewSms: Handler = (ctx) => preview(ctx, "sms");
export const previewChat: Handler = (ctx) => preview(ctx, "chat");
export const previewPush: Handler = (ctx) => preview(ctx, "push");
