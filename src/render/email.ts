// An email step rendered as the server renders it (r4-01..r4-56): the subject (trimmed), the
// preheader and sender name (send mode only, trimmed), editor blocks (each content and url
// rendered and trimmed), the body, then the layout around it with `{{{body}}}` and `subject`,
// after the server's preheader block was inserted behind the layout's first `<body…>` tag.

import { type Data, payloadWithDefaults, templateBranding } from "./context.js";
import { NOVU_DEFAULT_LAYOUT } from "./default-layout.js";
import { editorBody } from "./editor-blocks.js";
import type { Engine } from "./engine.js";
import { layoutDefaults } from "./layout-variables.js";
import { RenderError } from "./render-error.js";
import type { EditorBlock, EmailTemplate, RenderContext, RenderedEmail } from "./types.js";

/**
 * The block the server inserts after the first `<body…>` tag. Its closing tag stands alone on a
 * line, so Handlebars' standalone rule drops the whitespace and newline that followed `<body…>`:
 * the one visible effect when there is no preheader (r4-47, r4-56, r4-38).
 */
const PREHEADER_BLOCK = [
  "{{#if preheader}}",
  '          <div style="display: none; max-height: 0px; overflow: hidden;">',
  "            {{preheader}}",
  // Spacing that keeps the start of the body out of an inbox's preview line.
  `            ${"&nbsp;&zwnj;".repeat(232)}&nbsp;`,
  "          </div>",
  "        {{/if}}",
].join("\n");

const BODY_TAG = /<body\b[^<>]*?>/;

/** The layout with the preheader block inserted (cached by the engine's compile cache, keyed by text). */
const withPreheaderCache = new Map<string, string>();
function withPreheader(layout: string): string {
  let text = withPreheaderCache.get(layout);
  if (text === undefined) {
    text = layout.replace(BODY_TAG, (tag) => tag + PREHEADER_BLOCK);
    if (withPreheaderCache.size > 1000) withPreheaderCache.clear();
    withPreheaderCache.set(layout, text);
  }
  return text;
}

/** Render one field, naming it in the error; `trim` as the server trims subject, preheader, blocks. */
function renderField(
  engine: Engine,
  text: string | undefined,
  data: Data,
  field: string,
  trim: boolean,
): string {
  try {
    const out = engine.render(text ?? "", data);
    return trim ? out.trim() : out;
  } catch (error) {
    throw error instanceof RenderError ? error.inField(field) : error;
  }
}

export function renderEmailWith(
  engine: Engine,
  template: EmailTemplate,
  context: RenderContext,
): RenderedEmail {
  const send = (context.mode ?? "send") === "send";
  const editor = (template.contentType ?? "editor") === "editor";
  if (editor && !Array.isArray(template.content))
    throw new RenderError("render", "editor content must be a list of blocks", { field: "content" });
  const layout = context.layout?.content ?? (editor ? NOVU_DEFAULT_LAYOUT : undefined);
  const defaults = layoutDefaults(context.layout?.variables ?? [], context.payload);
  const payload = payloadWithDefaults(context.payload, defaults);
  // The raw preheader template is what the subject (and blocks) see as `preheader`: the server
  // puts it in the context before rendering it.
  const rawPreheader = send ? template.preheader : undefined;
  const base: Data = {
    ...payload,
    preheader: rawPreheader,
    blocks: [],
    branding: templateBranding(context.branding),
  };

  const subject = renderField(engine, template.subject, base, "subject", true);
  const preheader = rawPreheader ? renderField(engine, rawPreheader, base, "preheader", true) : rawPreheader;
  const senderName =
    send && template.senderName
      ? renderField(engine, template.senderName, base, "senderName", true)
      : undefined;

  let content: string | EditorBlock[];
  let blocks: EditorBlock[] = [];
  if (editor) {
    blocks = (template.content as readonly EditorBlock[]).map((block, index) => {
      const rendered = { ...block };
      rendered.content = renderField(engine, block.content, base, `content[${index}].content`, true);
      rendered.url = renderField(engine, block.url || "", base, `content[${index}].url`, true);
      return rendered;
    });
    content = blocks;
  } else content = template.content as string;

  const variables: Data = { ...base, subject, preheader, body: "", blocks: editor ? blocks : [] };
  const body = editor
    ? editorBody(blocks, (variables.branding as Data | undefined)?.color)
    : renderField(engine, content as string, variables, "content", false);
  variables.body = body;
  const html = layout ? renderField(engine, withPreheader(layout), variables, "layout", false) : body;

  const result: RenderedEmail = { subject, html, content };
  if (send && preheader !== undefined) result.preheader = preheader;
  if (senderName !== undefined) result.senderName = senderName;
  return result;
}
