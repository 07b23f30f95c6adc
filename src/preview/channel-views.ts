// A rendered message as its channel shows it, as an HTML fragment of a step's page: an email at
// desktop and mobile widths under its sender, subject and preheader; an in-app message as a feed
// item with its buttons; an SMS as a bubble with its length and segments; chat and push as text.
// Every value is escaped; the email's own HTML only ever goes into a sandboxed frame (html.ts).

import { escapeHtml as e, frameSource, messageFrame } from "./html.js";
import type { RenderedMessage, RenderOutcome } from "./model.js";

/** Desktop and mobile frame widths, in CSS pixels (the screenshots use the same). */
export const EMAIL_WIDTHS = { desktop: 800, mobile: 375 } as const;
const FRAME_HEIGHT = 720;

/** How a channel is named for people. */
export function channelLabel(channel: RenderedMessage["channel"]): string {
  return channel === "in_app" ? "in-app" : channel === "sms" ? "SMS" : channel;
}

/** One render of a step: the message as its channel shows it, or the render's error. */
export function outcomeView(outcome: RenderOutcome, label: string): string {
  if (!outcome.ok && outcome.withheld === true) return `<p><em>${e(capitalized(outcome.error))}.</em></p>`;
  if (!outcome.ok)
    return `<div class="error">The server would refuse to render this message:\n${e(outcome.error)}</div>`;
  return messageView(outcome.message, label);
}

export function messageView(message: RenderedMessage, label: string): string {
  switch (message.channel) {
    case "email":
      return emailView(message, label);
    case "in_app":
      return inAppView(message);
    case "sms":
      return smsView(message);
    case "chat":
      return `<div class="text">${e(message.content ?? "")}</div>`;
    case "push":
      return `<div class="text"><strong>${e(message.title ?? "")}</strong>\n${e(message.content ?? "")}</div>`;
  }
}

function emailView(message: RenderedMessage, label: string): string {
  const source = frameSource(message.html ?? "");
  return `<div class="envelope">
<div><span class="label">From</span> ${message.senderName ? e(message.senderName) : "<em>(the provider's sender name)</em>"}</div>
<div><span class="label">Subject</span> <strong>${e(message.subject ?? "")}</strong></div>
<div><span class="label">Preheader</span> ${message.preheader ? e(message.preheader) : "<em>(none)</em>"}</div>
</div>
<div class="widths">
<figure><figcaption>desktop, ${EMAIL_WIDTHS.desktop} px</figcaption>${messageFrame(source, EMAIL_WIDTHS.desktop, FRAME_HEIGHT, `${label}, desktop`)}</figure>
<figure><figcaption>mobile, ${EMAIL_WIDTHS.mobile} px</figcaption>${messageFrame(source, EMAIL_WIDTHS.mobile, FRAME_HEIGHT, `${label}, mobile`)}</figure>
</div>`;
}

function inAppView(message: RenderedMessage): string {
  const buttons = message.cta?.buttons ?? [];
  const url = message.cta?.url;
  return `<div class="feed"><div class="dot"></div><div>
<div>${e(message.content ?? "")}</div>
${buttons.length > 0 ? `<div class="buttons">${buttons.map((b) => `<span class="button ${b.type === "primary" ? "primary" : ""}">${e(b.content)}</span>`).join("")}</div>` : ""}
${url !== undefined ? `<div class="meta">opens ${e(url)}</div>` : ""}
</div></div>`;
}

function smsView(message: RenderedMessage): string {
  const s = message.segments;
  const counted =
    s === undefined
      ? ""
      : `<div class="meta">${s.characters} characters, ${s.encoding}, ${s.segments} segment${s.segments === 1 ? "" : "s"} (${s.encoding === "GSM-7" ? "160, or 153 a part" : "70, or 67 a part"})</div>`;
  return `<div class="phone"><div class="bubble">${e(message.content ?? "")}</div>${counted}</div>`;
}

/** The message as text, for the before/after diff: what a reader compares. */
export function messageText(outcome: RenderOutcome | undefined): string {
  if (outcome === undefined) return "";
  if (!outcome.ok && outcome.withheld === true) return `(${outcome.error})\n`;
  if (!outcome.ok) return `(does not render: ${outcome.error})\n`;
  const m = outcome.message;
  const lines: string[] = [];
  if (m.senderName !== undefined) lines.push(`From: ${m.senderName}`);
  if (m.subject !== undefined) lines.push(`Subject: ${m.subject}`);
  if (m.preheader !== undefined) lines.push(`Preheader: ${m.preheader}`);
  if (m.title !== undefined) lines.push(`Title: ${m.title}`);
  if (m.cta?.url !== undefined) lines.push(`Opens: ${m.cta.url}`);
  for (const b of m.cta?.buttons ?? []) lines.push(`Button (${b.type}): ${b.content}`);
  if (m.segments !== undefined)
    lines.push(
      `Segments: ${m.segments.segments} (${m.segments.encoding}, ${m.segments.characters} characters)`,
    );
  lines.push("", m.html ?? m.content ?? "");
  return `${lines.join("\n").replace(/\n*$/, "")}\n`;
}

function capitalized(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}
