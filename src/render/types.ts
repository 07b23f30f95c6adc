// The renderer's inputs and outputs: a message step's template fields, what it is rendered with
// (payload, the organization's branding, the step's layout), and the message the server would
// produce. Plain data only; nothing here loads the engine.

/** The organization's branding as templates see it: only `logo` and `color` reach a template. */
export interface Branding {
  logo?: string;
  color?: string;
}

/** One variable a layout declares: its default fills a missing payload key; required is checked. */
export interface LayoutVariable {
  name: string;
  /** "String" | "Array" | "Boolean" (the server's names); absent: "String". */
  type?: string;
  required?: boolean;
  defaultValue?: unknown;
}

/** A layout as the server stores it: content holding `{{{body}}}`, and its variables. */
export interface LayoutTemplate {
  content: string;
  variables?: readonly LayoutVariable[];
}

/** One editor block of an email step (`contentType: editor`). */
export interface EditorBlock {
  type: string;
  content: string;
  url?: string;
  styles?: { textAlign?: string };
}

/** An email step's template fields. */
export interface EmailTemplate {
  subject: string;
  content: string | readonly EditorBlock[];
  /** "customHtml" or "editor"; absent: "editor" (the server's default at send time). */
  contentType?: "customHtml" | "editor";
  preheader?: string;
  senderName?: string;
}

/**
 * How the server produces the message:
 * - "preview": as `POST /v1/content-templates/preview/email` answers (the captures): preheader and
 *   senderName are ignored, the preheader block renders empty;
 * - "send": as the worker renders a message it sends: preheader and senderName are rendered, and
 *   the preheader fills the block the server inserts after `<body…>`.
 */
export type RenderMode = "preview" | "send";

/** What a message is rendered with. */
export interface RenderContext {
  /** The trigger's payload (preview examples: payload and `subscriber` merged by the caller). */
  payload: Readonly<Record<string, unknown>>;
  /** The organization's branding; absent: none set (color falls back to the server's #f47373). */
  branding?: Branding;
  /**
   * The email step's layout; absent: none (customHtml renders alone, editor blocks are wrapped in
   * Novu's default layout, as the server does).
   */
  layout?: LayoutTemplate;
  /** Default "send". */
  mode?: RenderMode;
}

export interface RenderedEmail {
  subject: string;
  html: string;
  /** customHtml: the template unchanged; editor: the blocks rendered, each with a `url` ("" when none). */
  content: string | EditorBlock[];
  /** Send mode only: the rendered preheader, when the step has one. */
  preheader?: string;
  /** Send mode only: the rendered sender name, when the step has one. */
  senderName?: string;
}

export interface InAppButton {
  type: string;
  content: string;
}

export interface InAppTemplate {
  content: string;
  cta?: {
    type?: string;
    data?: { url?: string };
    action?: { buttons?: readonly InAppButton[] };
  };
}

export interface RenderedInApp {
  content: string;
  ctaButtons: InAppButton[];
  /** Present only when the template has `cta.data.url`. */
  url?: string;
}

export interface TextTemplate {
  content: string;
}

export interface RenderedText {
  content: string;
}

export interface PushTemplate {
  title?: string;
  content: string;
}

export interface RenderedPush {
  content: string;
  title?: string;
}

/** SMS length as a carrier counts it. */
export interface SmsSegments {
  encoding: "GSM-7" | "UCS-2";
  /** Septets for GSM-7 (an extension character counts 2), UTF-16 units for UCS-2. */
  characters: number;
  segments: number;
}

/** A position inside a template's text; 1-based line and column. */
export interface TemplatePosition {
  line: number;
  col: number;
}

/** One problem a template check found. */
export interface TemplateProblem {
  severity: "error" | "warning";
  /** "template-parse" | "template-partial" | "template-helper" */
  rule: string;
  message: string;
  /** Where in the template text, when known. */
  pos?: TemplatePosition;
}
