// The pull request's view of changed messages: for each message step a plan adds or changes, its
// rendered subject (or title, or first line of text) before and after, and an SMS's segments,
// one compact table row each, capped. The messages are rendered elsewhere (the preview's
// renderer, loaded only for a plan that changes content); this only formats them.

import { LAYOUT_RENDER_FIELDS } from "../kinds/layout/render-fields.js";
import { isContentField } from "../kinds/workflow/steps-canonical.js";
import { clipText, markdownCode, markdownText } from "../sanitize.js";
import type { Plan } from "./model.js";

/** One side of a changed message, as the comment shows it. */
export interface MessageSide {
  /** The subject (email), title (push) or first line of the text. */
  headline?: string;
  /** SMS: how many parts the text is sent in. */
  segments?: number;
  /** The server would refuse to render it: its message. */
  error?: string;
  /** Not rendered: its content held a value from the environment when last applied. */
  withheld?: true;
}

export interface MessageChange {
  workflow: string;
  step: string;
  channel: string;
  /** undefined: the step is new. */
  before?: MessageSide;
  after: MessageSide;
}

/** The widest headline shown: a 70 KB subject must not fill the comment. */
const HEADLINE_WIDTH = 320;

/** The most message rows one comment shows. */
export const MESSAGE_ROWS = 30;

/**
 * Whether the plan changes any workflow content or how a layout renders (and so may change how a
 * message renders).
 */
export function changesMessages(plan: Plan): boolean {
  return plan.actions.some((action) =>
    action.changes.some((change) =>
      action.kind === "layout" ? LAYOUT_RENDER_FIELDS.has(change.field) : isContentField(change.field),
    ),
  );
}

export function renderMessagesMarkdown(messages: readonly MessageChange[]): string {
  if (messages.length === 0) return "";
  const rows = messages.slice(0, MESSAGE_ROWS).map((m) => {
    const before = m.before === undefined ? "_(new)_" : side(m.before);
    return `| ${markdownCode(`${m.workflow} / ${m.step}`)} | ${markdownText(m.channel)} | ${before} | ${side(m.after)} |`;
  });
  const more = messages.length - rows.length;
  return [
    `#### Messages: ${messages.length} changed, rendered with the preview examples`,
    "",
    "| step | channel | before | after |",
    "|---|---|---|---|",
    ...rows,
    ...(more > 0 ? ["", `_… ${more} more changed message${more === 1 ? "" : "s"}: see the preview._`] : []),
    "",
    "",
  ].join("\n");
}

function side(s: MessageSide): string {
  if (s.withheld === true) return "_(held back: it held a value from the environment)_";
  if (s.error !== undefined)
    return `⚠ does not render: ${markdownCode(clipText(firstLine(s.error), HEADLINE_WIDTH))}`;
  const parts = [
    s.headline === undefined || s.headline === ""
      ? "_(empty)_"
      : markdownCode(clipText(s.headline, HEADLINE_WIDTH)),
  ];
  if (s.segments !== undefined) parts.push(`${s.segments} SMS segment${s.segments === 1 ? "" : "s"}`);
  return parts.join(" · ");
}

function firstLine(text: string): string {
  const line = text.split("\n").find((l) => l.trim() !== "") ?? "";
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}
