// The renderer: a message step's template + payload + layout + branding -> the message as a real
// server renders it (Handlebars 4 with the server's helper set, its escaping and trimming, layout
// wrapping, preheader placement, editor blocks), and the offline template checks. Pure: no I/O, no
// clock. The engine (the `handlebars` package) loads on first use, through loadRenderer(), so a
// command that renders nothing never loads it.

import { renderChatWith, renderInAppWith, renderPushWith, renderSmsWith } from "./channels.js";
import { checkTemplateWith, templateVariablesWith } from "./checks.js";
import { renderEmailWith } from "./email.js";
import { loadEngine } from "./engine.js";
import type {
  EmailTemplate,
  InAppTemplate,
  PushTemplate,
  RenderContext,
  RenderedEmail,
  RenderedInApp,
  RenderedPush,
  RenderedText,
  TemplateProblem,
  TextTemplate,
} from "./types.js";

export { DEFAULT_BRAND_COLOR } from "./context.js";
export { SERVER_HELPERS } from "./helper-names.js";
export { RenderError, type RenderErrorKind } from "./render-error.js";
export { smsSegments } from "./sms-segments.js";
export type * from "./types.js";

/**
 * Everything that needs the engine. Every method is synchronous once loaded; each throws a
 * RenderError (with the engine's message and the failing field) where the server answers 400.
 */
export interface Renderer {
  renderEmail(template: EmailTemplate, context: RenderContext): RenderedEmail;
  renderInApp(template: InAppTemplate, context: RenderContext): RenderedInApp;
  renderSms(template: TextTemplate, context: RenderContext): RenderedText;
  renderChat(template: TextTemplate, context: RenderContext): RenderedText;
  renderPush(template: PushTemplate, context: RenderContext): RenderedPush;
  /** Parse errors, partials without fallback, unknown helpers: every problem, none thrown. */
  checkTemplate(text: string): TemplateProblem[];
  /**
   * The payload paths a template reads (`order.items`, `firstName`), in first-use order, without
   * helper names, `@data`, `this` or names bound inside blocks; [] when it does not parse.
   */
  templateVariables(text: string): string[];
}

let loaded: Promise<Renderer> | undefined;

/** Texts whose checks and variables are kept; a config's workflows often share texts. */
const MEMO_LIMIT = 5000;

/**
 * `find` remembered per text: the loader checks every template field (and reads its variables for
 * the examples' warning), and the preview reads the variables again, of texts many workflows
 * share. A copy is returned, so no caller can change what the next one gets.
 */
function memoized<T>(find: (text: string) => T[]): (text: string) => T[] {
  const memo = new Map<string, T[]>();
  return (text) => {
    let found = memo.get(text);
    if (found === undefined) {
      if (memo.size >= MEMO_LIMIT) memo.clear();
      found = find(text);
      memo.set(text, found);
    }
    return [...found];
  };
}

/** The renderer, loading the engine the first time. */
export function loadRenderer(): Promise<Renderer> {
  loaded ??= loadEngine().then((engine) => ({
    renderEmail: (template, context) => renderEmailWith(engine, template, context),
    renderInApp: (template, context) => renderInAppWith(engine, template, context),
    renderSms: (template, context) => renderSmsWith(engine, template, context),
    renderChat: (template, context) => renderChatWith(engine, template, context),
    renderPush: (template, context) => renderPushWith(engine, template, context),
    checkTemplate: memoized((text) => checkTemplateWith(engine, text)),
    templateVariables: memoized((text) => templateVariablesWith(engine, text)),
  }));
  return loaded;
}
