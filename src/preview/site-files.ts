// A preview site as files (path relative to the site's folder -> text): the index, each step's
// page, and beside it the machine-readable files, `<workflow>/<step>.html` (an email exactly as the
// server would send it: the first example's; other examples and the live side of --changed get a
// suffix) and `<workflow>/<step>.json` (schemas/preview.schema.json). Pure: the writer writes them.

import { slug, uniqueKey } from "../kinds/export-keys.js";
import type { PreviewSite, PreviewStep, RenderOutcome } from "./model.js";
import { indexPage, stepPage, stepPagePath } from "./site-pages.js";

/** The format of the step files; bumped when a reader would misread the new one. */
export const PREVIEW_FORMAT_VERSION = 1;

export function siteFiles(site: PreviewSite): Map<string, string> {
  return new Map(siteFileEntries(site));
}

/** The same files one step at a time, so a large site is written without holding all of it. */
export function* siteFileEntries(site: PreviewSite): Generator<[string, string]> {
  yield ["index.html", indexPage(site)];
  for (const step of site.steps) {
    const files = new Map<string, string>();
    files.set(stepPagePath(step), stepPage(step));
    const json = stepJson(step, files);
    files.set(`${step.base}.json`, `${JSON.stringify(json, null, 2)}\n`);
    yield* files;
  }
}

/** `<step>.preview.html` is the step's page, `<step>.before.html` the first example's live side. */
const RESERVED_SUFFIXES = ["preview", "before"];

/** The step's JSON; adds each email's HTML file to `files`. */
function stepJson(step: PreviewStep, files: Map<string, string>): Record<string, unknown> {
  // An example's suffix never takes the name of a file the step already has: an example named
  // "preview" would overwrite the step's page (which frames messages in a sandbox) with a raw
  // message, and one named "before" the first example's live side.
  const used = new Set<string>(RESERVED_SUFFIXES);
  const examples = step.examples.map((example, index) => {
    const suffix = index === 0 ? "" : `.${uniqueKey(slug(example.name) || `example-${index + 1}`, used)}`;
    const out: Record<string, unknown> = { name: example.name, placeholder: example.placeholder };
    Object.assign(out, outcomeJson(example.after, `${step.base}${suffix}.html`, files));
    if (example.before !== undefined)
      out.before = outcomeJson(example.before, `${step.base}${suffix}.before.html`, files);
    return out;
  });
  return {
    formatVersion: PREVIEW_FORMAT_VERSION,
    workflow: step.workflow,
    ...(step.workflowName !== undefined ? { workflowName: step.workflowName } : {}),
    step: step.step,
    channel: step.channel,
    ...(step.change !== undefined ? { change: step.change } : {}),
    page: stepPagePath(step),
    notes: step.notes,
    examples,
  };
}

function outcomeJson(
  outcome: RenderOutcome,
  htmlPath: string,
  files: Map<string, string>,
): Record<string, unknown> {
  if (!outcome.ok) return { error: outcome.error, ...(outcome.withheld === true ? { withheld: true } : {}) };
  const { channel: _channel, html, ...rest } = outcome.message;
  const out: Record<string, unknown> = { ...rest };
  if (html !== undefined) {
    files.set(htmlPath, html);
    out.html = htmlPath;
  }
  return out;
}
