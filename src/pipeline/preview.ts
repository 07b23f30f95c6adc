// The composition root of `notiform preview`: config -> message steps -> rendered site -> files.
// Offline by default (the config alone: its layouts and branding, no API key); with --changed the
// plan's own pipeline (prepare-plan.ts) connects, reads and plans, and only the steps the plan
// changes are rendered, from the server's current content too. Screenshots and the local server
// are the preview folder's (src/preview/); the command only chooses.

import { dirname, resolve, sep } from "node:path";
import { didYouMean } from "../config/did-you-mean.js";
import type { DesiredState } from "../config/model.js";
import { NotiformError } from "../errors.js";
import { buildMaskedSite, type LiveSide } from "../preview/build-site.js";
import { changedSteps } from "../preview/changed-steps.js";
import { type MessageStep, messageStepsOf, workflowNamesOf } from "../preview/message-steps.js";
import type { PreviewSite } from "../preview/model.js";
import { findBrowser, shotsOf, takeShots } from "../preview/screenshots.js";
import { exposureWarning, type SiteServer, serveSite } from "../preview/serve-site.js";
import { siteFileEntries } from "../preview/site-files.js";
import { addToSite, writeSite } from "../preview/write-site.js";
import { loadRenderer } from "../render/index.js";
import type { RunContext } from "./context.js";
import { preparePlan } from "./prepare-plan.js";
import { loadDesired, type SessionArgs } from "./session.js";

export interface PreviewArgs extends SessionArgs {
  out: string;
  workflow: string[];
  changed: boolean;
}

export interface PreviewResult {
  site: PreviewSite;
  /** The folder written (absolute). */
  out: string;
  /** Every file the config names (the root, includes, `{ file: }` texts): what --serve watches. */
  files: string[];
}

/** Render the config's messages and write the site; the result says what was written. */
export async function runPreview(args: PreviewArgs, context: RunContext): Promise<PreviewResult> {
  const out = resolve(context.cwd, args.out);
  const { desired, steps, changed } = args.changed
    ? await readChanged(args, context)
    : await readOffline(args, context);
  // The engine (handlebars) loads here; this module itself loads only when `preview` runs.
  const renderer = await loadRenderer();
  // Rendered from masked inputs (build-site.ts); the finished files are masked again below, as
  // every output is.
  const { masker } = context;
  const site = buildMaskedSite(renderer, desired, steps, changed, masker);
  await writeSite(out, args.out, maskedEntries(siteFileEntries(site), masker));
  return { site, out, files: desired.files };
}

/**
 * Every file of the site passes the masker, as every other output does: a template or example that
 * interpolates ${VAR} renders the environment's value into the message, and the site is uploaded
 * as a CI artifact. (The masker knows the config's sensitive values once loadDesired has run.)
 */
function* maskedEntries(
  entries: Iterable<[string, string]>,
  masker: RunContext["masker"],
): Iterable<[string, string]> {
  for (const [path, text] of entries) yield [path, masker.mask(text)];
}

async function readOffline(args: PreviewArgs, context: RunContext) {
  const { desired } = await loadDesired(args, context);
  return { desired, steps: selectSteps(desired, args.workflow, context), changed: undefined };
}

async function readChanged(
  args: PreviewArgs,
  context: RunContext,
): Promise<{ desired: DesiredState; steps: MessageStep[]; changed: Map<string, LiveSide> }> {
  const { session, plan, live, state } = await preparePlan({ ...args, target: [] }, context);
  try {
    const desired = session.desired;
    const steps = selectSteps(desired, args.workflow, context);
    return { desired, steps, changed: changedSteps(plan, live, desired, steps, state.heldSecrets) };
  } finally {
    await session.close();
  }
}

function selectSteps(desired: DesiredState, only: readonly string[], context: RunContext): MessageStep[] {
  const names = workflowNamesOf(desired);
  for (const name of only) {
    if (!names.includes(name))
      throw new NotiformError(
        "USAGE",
        `--workflow ${name}: the config has no workflow with that key or identifier${didYouMean(name, names)}`,
        {
          hint:
            names.length > 0 ? `workflows: ${names.slice(0, 20).join(", ")}` : "The config has no workflows.",
        },
      );
  }
  // Files are named after the names as shown (masked): a name from the environment names none.
  return messageStepsOf(desired, only, (name) => context.masker.mask(name));
}

/** --screenshots: the browser, found before anything is rendered (none found: nothing is written). */
export function browserFor(context: RunContext): string {
  return findBrowser(context.env);
}

/** PNGs of the site's emails (changed ones with --changed), added to the written site. */
export async function screenshotSite(browser: string, result: PreviewResult): Promise<number> {
  const shots = await takeShots(browser, shotsOf(result.site));
  await addToSite(result.out, shots);
  return shots.size;
}

/**
 * --serve: the written site over HTTP, rebuilt (config read again, and with --changed planned
 * again) whenever a file of the config changes. `first` is the site already written.
 */
export async function servePreview(
  args: PreviewArgs,
  context: RunContext,
  first: PreviewResult,
  listen: { host: string; port: number },
): Promise<SiteServer> {
  const warning = exposureWarning(listen.host);
  if (warning !== undefined) context.note(warning);
  return serveSite({
    dir: first.out,
    host: listen.host,
    port: listen.port,
    watch: watchedFolders(first.files),
    rebuild: async () => watchedFolders((await runPreview(args, context)).files),
    note: context.note,
  });
}

/** The root file's folder, whole, and the folder of any file outside it. */
function watchedFolders(files: readonly string[]): [string, boolean][] {
  const root = files[0];
  if (root === undefined) return [];
  const base = dirname(root);
  const outside = new Set(
    files.map(dirname).filter((dir) => dir !== base && !dir.startsWith(`${base}${sep}`)),
  );
  return [[base, true], ...[...outside].map((dir): [string, boolean] => [dir, false])];
}
