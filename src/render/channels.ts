// In-app, SMS, chat and push, as the server renders them (r4-55, r4-57..r4-60, r4-68, r4-69):
// nothing is trimmed; in-app sees the organization's branding over any payload `branding`, the
// others see the payload only; every value is HTML-escaped like in an email (`&` -> `&amp;`).

import { type Data, payloadWithDefaults, templateBranding } from "./context.js";
import type { Engine } from "./engine.js";
import { RenderError } from "./render-error.js";
import type {
  InAppButton,
  InAppTemplate,
  PushTemplate,
  RenderContext,
  RenderedInApp,
  RenderedPush,
  RenderedText,
  TextTemplate,
} from "./types.js";

function renderField(engine: Engine, text: string | undefined, data: Data, field: string): string {
  try {
    return engine.render(text ?? "", data);
  } catch (error) {
    throw error instanceof RenderError ? error.inField(field) : error;
  }
}

export function renderInAppWith(
  engine: Engine,
  template: InAppTemplate,
  context: RenderContext,
): RenderedInApp {
  const data = { ...payloadWithDefaults(context.payload), branding: templateBranding(context.branding) };
  const buttons = template.cta?.action?.buttons ?? [];
  const result: RenderedInApp = {
    content: renderField(engine, template.content, data, "content"),
    ctaButtons: buttons.map(
      (button, index): InAppButton => ({
        type: button.type,
        content: renderField(engine, button.content, data, `cta.action.buttons[${index}].content`),
      }),
    ),
  };
  const url = template.cta?.data?.url;
  if (url) result.url = renderField(engine, url, data, "cta.data.url");
  return result;
}

function renderText(engine: Engine, template: TextTemplate, context: RenderContext): RenderedText {
  return { content: renderField(engine, template.content, payloadWithDefaults(context.payload), "content") };
}

export function renderSmsWith(engine: Engine, template: TextTemplate, context: RenderContext): RenderedText {
  return renderText(engine, template, context);
}

export function renderChatWith(engine: Engine, template: TextTemplate, context: RenderContext): RenderedText {
  return renderText(engine, template, context);
}

export function renderPushWith(engine: Engine, template: PushTemplate, context: RenderContext): RenderedPush {
  const data = payloadWithDefaults(context.payload);
  const result: RenderedPush = { content: renderField(engine, template.content, data, "content") };
  if (template.title !== undefined) result.title = renderField(engine, template.title, data, "title");
  return result;
}
