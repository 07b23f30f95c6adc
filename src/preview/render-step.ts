// One message step rendered with one example, as the server's worker would send it: the config's
// layout (by identifier from `layouts:`) and branding (`branding:`), the payload with the
// subscriber under `subscriber`. A step that names a layout the config does not hold renders
// without it, and says so. A template the server would refuse renders as that refusal (the
// engine's message), never as an exception: the page shows it. The renderer is src/render/.

import type { StepSpec, StepTemplateSpec } from "../kinds/workflow/step-spec.js";
import {
  type EditorBlock,
  type InAppTemplate,
  type LayoutTemplate,
  type RenderContext,
  RenderError,
  type Renderer,
  smsSegments,
} from "../render/index.js";
import type { MessageChannel, RenderedMessage, RenderOutcome } from "./model.js";

/** What a step is rendered with besides its payload (from the config, or the server for "before"). */
export interface RenderInputs {
  /** Layout identifier -> layout. */
  layouts: ReadonlyMap<string, LayoutTemplate>;
  branding: { logo?: string; color?: string } | undefined;
}

/** Renders `template` (a step's, of `channel`) with `payload`; notes what the reader should know. */
export function renderStep(
  renderer: Renderer,
  channel: MessageChannel,
  template: StepTemplateSpec,
  payload: Record<string, unknown>,
  inputs: RenderInputs,
  notes: Set<string>,
): RenderOutcome {
  const context: RenderContext = {
    payload,
    mode: "send",
    ...(inputs.branding !== undefined ? { branding: inputs.branding } : {}),
  };
  try {
    return { ok: true, message: renderWith(renderer, channel, template, context, inputs, notes) };
  } catch (error) {
    if (error instanceof RenderError) {
      const field = error.field === undefined ? "" : `${error.field}: `;
      return { ok: false, error: `${field}${error.message}` };
    }
    throw error;
  }
}

function renderWith(
  renderer: Renderer,
  channel: MessageChannel,
  template: StepTemplateSpec,
  context: RenderContext,
  inputs: RenderInputs,
  notes: Set<string>,
): RenderedMessage {
  const text = typeof template.content === "string" ? template.content : "";
  switch (channel) {
    case "email": {
      const layout = layoutOf(template, inputs, notes);
      if (Array.isArray(template.content))
        notes.add(
          "Editor blocks: the text, links and their order are the server's; the block markup is notiform's own (the server's block template is its own asset), so spacing may differ slightly.",
        );
      const email = renderer.renderEmail(
        {
          subject: template.subject ?? "",
          content: Array.isArray(template.content) ? (template.content as unknown as EditorBlock[]) : text,
          ...(template.contentType !== undefined ? { contentType: template.contentType } : {}),
          ...(typeof template.preheader === "string" ? { preheader: template.preheader } : {}),
          ...(template.senderName !== undefined ? { senderName: template.senderName } : {}),
        },
        layout === undefined ? context : { ...context, layout },
      );
      return {
        channel,
        subject: email.subject,
        html: email.html,
        ...(email.preheader !== undefined ? { preheader: email.preheader } : {}),
        ...(email.senderName !== undefined ? { senderName: email.senderName } : {}),
      };
    }
    case "in_app": {
      const inApp = renderer.renderInApp(
        // The config's cta is the server's free-form shape; the renderer reads the parts it knows.
        {
          content: text,
          ...(template.cta !== undefined ? { cta: template.cta as NonNullable<InAppTemplate["cta"]> } : {}),
        },
        context,
      );
      return {
        channel,
        content: inApp.content,
        cta: { ...(inApp.url !== undefined ? { url: inApp.url } : {}), buttons: inApp.ctaButtons },
      };
    }
    case "sms": {
      const sms = renderer.renderSms({ content: text }, context);
      return { channel, content: sms.content, segments: smsSegments(sms.content) };
    }
    case "chat":
      return { channel, content: renderer.renderChat({ content: text }, context).content };
    case "push": {
      const push = renderer.renderPush(
        { content: text, ...(template.title !== undefined ? { title: template.title } : {}) },
        context,
      );
      return { channel, content: push.content, ...(push.title !== undefined ? { title: push.title } : {}) };
    }
  }
}

function layoutOf(
  template: StepTemplateSpec,
  inputs: RenderInputs,
  notes: Set<string>,
): LayoutTemplate | undefined {
  if (template.layout === undefined) return undefined;
  const layout = inputs.layouts.get(template.layout);
  if (layout === undefined)
    notes.add(
      `The step names layout "${template.layout}", which this config does not hold (layouts:): rendered without a layout.`,
    );
  return layout;
}

/** Every template text of a step, for the variables it names. */
export function templateTexts(step: StepSpec): string[] {
  const t = step.template ?? {};
  const texts: string[] = [];
  for (const value of [t.subject, t.preheader, t.senderName, t.title])
    if (typeof value === "string") texts.push(value);
  if (typeof t.content === "string") texts.push(t.content);
  else if (Array.isArray(t.content))
    for (const block of t.content) {
      for (const key of ["content", "url"])
        if (typeof block[key] === "string") texts.push(block[key] as string);
    }
  const cta = t.cta as
    | { data?: { url?: unknown }; action?: { buttons?: { content?: unknown }[] } }
    | undefined;
  if (typeof cta?.data?.url === "string") texts.push(cta.data.url);
  for (const button of cta?.action?.buttons ?? [])
    if (typeof button.content === "string") texts.push(button.content);
  return texts;
}
