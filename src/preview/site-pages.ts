// The pages of a preview site: the index (every workflow and step, its channel and rendered
// subject or first line, with links) and one page per step (each example as the channel shows
// it; with --changed the server's current message beside the config's, and the text diff). Pure:
// model in, HTML text out.

import { createTwoFilesPatch } from "diff";
import { channelLabel, messageText, outcomeView } from "./channel-views.js";
import { escapeHtml as e, page } from "./html.js";
import type { PreviewSite, PreviewStep, RenderOutcome } from "./model.js";

/**
 * A name or summary from the config, isolated from the text around it: a bidi override in it
 * (U+202E) would otherwise reverse what follows on the line (` / step`, the channel), so a
 * reviewer reads something the config does not say.
 */
const n = (text: string) => `<bdi>${e(text)}</bdi>`;

/** The same isolation in plain text (a page's title holds no markup): first-strong isolate to pop. */
const isolated = (text: string) => `\u2068${text}\u2069`;

/** The human page of a step, beside its machine-readable files. */
export function stepPagePath(step: PreviewStep): string {
  return `${step.base}.preview.html`;
}

export function indexPage(site: PreviewSite): string {
  const title = site.changedOnly ? "notiform preview: changed messages" : "notiform preview";
  const rows = site.steps.map((step) => {
    const first = step.examples[0];
    const summary = first === undefined ? "" : summaryOf(first.after);
    const change = step.change === undefined ? "" : ` <span class="${step.change}">${step.change}</span>`;
    const failed = step.examples.some((x) => !x.after.ok)
      ? ' <span class="changed">does not render</span>'
      : "";
    return `<tr><td>${n(step.workflowName ?? step.workflow)}<br><small>${n(step.workflow)}</small></td><td><a href="${e(stepPagePath(step))}">${n(step.step)}</a>${change}${failed}</td><td><span class="channel">${e(channelLabel(step.channel))}</span></td><td>${n(summary)}</td><td>${step.examples.length}</td></tr>`;
  });
  const empty = site.changedOnly ? "The plan changes no message." : "The config has no message steps.";
  const body = `<h1>${e(title)}</h1>
${
  rows.length === 0
    ? `<p>${empty}</p>`
    : `<table><thead><tr><th>workflow</th><th>step</th><th>channel</th><th>subject / text</th><th>examples</th></tr></thead><tbody>
${rows.join("\n")}
</tbody></table>`
}`;
  return page(title, ".", body);
}

/** What the index shows of a message: its subject, title or the start of its text. */
export function summaryOf(outcome: RenderOutcome): string {
  if (!outcome.ok) return "(does not render)";
  const m = outcome.message;
  const text = m.subject ?? m.title ?? m.content ?? "";
  const line = text.replace(/\s+/g, " ").trim();
  if (line.length <= 120) return line;
  // Not between the two halves of a character outside the BMP (an emoji): a lone half is
  // written to the page as U+FFFD.
  const cut = /[\ud800-\udbff]/.test(line[118] ?? "") ? 118 : 119;
  return `${line.slice(0, cut)}…`;
}

export function stepPage(step: PreviewStep): string {
  const title = `${isolated(step.workflow)} / ${isolated(step.step)}`;
  const notes = step.notes.map((note) => `<div class="note">${e(note)}</div>`).join("\n");
  const examples = step.examples.map((example) => {
    const label = `${step.step}, ${example.name}`;
    const heading = `<h2>${n(example.name)}${example.placeholder ? " <small>(placeholder values)</small>" : ""}</h2>`;
    if (step.change === undefined) return `${heading}\n${outcomeView(example.after, label)}`;
    const before =
      example.before === undefined
        ? "<p><em>New step: the server has no message here yet.</em></p>"
        : outcomeView(example.before, `${label}, live`);
    const patch = createTwoFilesPatch(
      "live",
      "config",
      messageText(example.before),
      messageText(example.after),
      undefined,
      undefined,
      { context: 3 },
    );
    return `${heading}
<div class="sides"><section><h3>live (before)</h3>${before}</section><section><h3>config (after)</h3>${outcomeView(example.after, `${label}, config`)}</section></div>
<h3>text diff</h3>
<pre class="diff">${diffLines(patch)}</pre>`;
  });
  const depth = step.base.split("/").length - 1;
  const root = depth === 0 ? "." : Array.from({ length: depth }, () => "..").join("/");
  const body = `<p><a href="${e(root)}/index.html">all messages</a></p>
<h1>${n(step.workflowName ?? step.workflow)} / ${n(step.step)} <span class="channel">${e(channelLabel(step.channel))}</span>${step.change === undefined ? "" : ` <span class="${step.change}">${step.change}</span>`}</h1>
${notes}
${examples.join("\n")}`;
  return page(title, root, body);
}

function diffLines(patch: string): string {
  return patch
    .split("\n")
    .slice(2)
    .map((line) => {
      const cls = line.startsWith("+") ? "add" : line.startsWith("-") ? "del" : undefined;
      return cls === undefined ? e(line) : `<span class="${cls}">${e(line)}</span>`;
    })
    .join("\n");
}
