// What a preview is made of, before it becomes pages: every message step of the config with each
// example rendered (and, with --changed, rendered from the server's current content too). The
// site writer, the JSON files and the screenshots all read this one model. Pure data.

import type { Position } from "../errors.js";

export const MESSAGE_CHANNELS = ["email", "in_app", "sms", "chat", "push"] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];

/** An SMS's length as a phone counts it: GSM-7 160 (153 a part), UCS-2 70 (67 a part). */
export interface SmsSegments {
  encoding: "GSM-7" | "UCS-2";
  /** Characters as the encoding counts them (GSM-7 extension characters count twice). */
  characters: number;
  segments: number;
}

/** A message as its channel receives it. */
export interface RenderedMessage {
  channel: MessageChannel;
  /** email */
  subject?: string;
  preheader?: string;
  senderName?: string;
  /** email: exactly the HTML the server would send. */
  html?: string;
  /** in_app, sms, chat, push: the text. */
  content?: string;
  /** push */
  title?: string;
  /** in_app: where the item leads, and its buttons. */
  cta?: { url?: string; buttons: { type: string; content: string }[] };
  /** sms */
  segments?: SmsSegments;
}

/**
 * One render of a step: the message, or why the server would refuse to render it; `withheld`: a
 * live side not rendered at all, because its content held a value from the environment when last
 * applied (the state's heldSecrets), and `error` says so.
 */
export type RenderOutcome =
  | { ok: true; message: RenderedMessage }
  | { ok: false; error: string; withheld?: true };

export interface RenderedExample {
  name: string;
  /** No example in the config: the template's variables with visible placeholder values. */
  placeholder: boolean;
  /** The config's content (after the change, with --changed). */
  after: RenderOutcome;
  /** The server's current content (--changed); undefined when the step is new. */
  before?: RenderOutcome;
}

export interface PreviewStep {
  /** The workflow's config key and name. */
  workflow: string;
  workflowName: string | undefined;
  step: string;
  channel: MessageChannel;
  /** Files of this step, relative to the site's folder, without extension: `<workflow>/<step>`. */
  base: string;
  examples: RenderedExample[];
  /** With --changed: the plan changes this step (new, or its template changed). */
  change?: "added" | "changed";
  /** What the reader should know (a layout the config does not hold, placeholder values). */
  notes: string[];
  source?: Position;
}

export interface PreviewSite {
  steps: PreviewStep[];
  /** --changed: only the steps the plan changes are in `steps`. */
  changedOnly: boolean;
}
