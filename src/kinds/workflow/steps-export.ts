// A workflow's steps as `notiform export` writes them: each step as a config entry that plans
// back to nothing (what the server holds, defaults left out), and each step's long text in a file
// of its own, `templates/<workflow>/<step>.<ext>` (html for e-mail, txt otherwise), named in the
// entry as `{ file: PATH }` relative to the exported YAML file. Editor block lists stay in the
// YAML (they are data, not text). Pure: the caller writes the files.

import { DEVICE_NAMES, isDeviceName, slug, uniqueKey } from "../export-keys.js";
import { STEP_TYPES } from "./step-spec.js";
import { liveStepName, withoutSubIds } from "./steps-canonical.js";
import type { Step } from "./wire.js";

/** Text longer than this, or on more than one line, goes to a file (e-mail content always does). */
const INLINE_MAX = 80;

export interface ExportedSteps {
  /** undefined: a step the config cannot describe; the workflow's content stays unmanaged. */
  steps: Record<string, unknown>[] | undefined;
  /** Path (relative to the exported YAML file) -> text. */
  files: Map<string, string>;
  /** What the config cannot hold, for the user. */
  leftOut: string[];
}

export function exportSteps(
  workflowKey: string,
  steps: readonly Step[],
  layoutIdentifiers: ReadonlyMap<string, string> | undefined,
): ExportedSteps {
  const files = new Map<string, string>();
  const leftOut: string[] = [];
  // A device name (con, aux...) is no file on Windows: taken as used, such a step gets a suffix.
  const usedNames = new Set<string>(DEVICE_NAMES);
  const usedFiles = new Set<string>();
  const seen = new Set<string>();
  const out: Record<string, unknown>[] = [];
  const unsupported: string[] = [];
  steps.forEach((step, index) => {
    const name = liveStepName(step, index);
    if (seen.has(name)) {
      leftOut.push(
        `workflow ${workflowKey}: a second step named "${name}" left out (step names must be unique)`,
      );
      return;
    }
    seen.add(name);
    const template = (step.template ?? {}) as Record<string, unknown>;
    const type = String(template.type ?? "");
    if (!(STEP_TYPES as readonly string[]).includes(type)) unsupported.push(`${name} (${type || "no type"})`);
    // What the config requires of a step that the server does not hold: the entry would not validate.
    for (const field of NEEDED[type] ?? []) {
      const value = template[field];
      if (value === undefined || value === null || value === "") unsupported.push(`${name} (no ${field})`);
    }
    const entry: Record<string, unknown> = { name, type };
    if (step.active === false) entry.active = false;
    if (step.shouldStopOnFail === true) entry.shouldStopOnFail = true;
    const filters = withoutSubIds(step.filters ?? []) as unknown[];
    if (filters.length > 0) entry.filters = filters;
    const { timed, ...metadata } = (withoutSubIds(step.metadata ?? {}) ?? {}) as Record<string, unknown>;
    const timedSet =
      typeof timed === "object" && timed !== null && Object.values(timed).some((v) => !isEmpty(v));
    if (timedSet) metadata.timed = timed;
    // Channel steps' metadata is not the config's to hold (left as it is on the server).
    const action = type === "digest" || type === "delay";
    if (Object.keys(metadata).length > 0 && action) entry.metadata = metadata;
    const reply = withoutSubIds(step.replyCallback ?? {}) as Record<string, unknown>;
    if (Object.keys(reply).length > 0 && type === "email") entry.replyCallback = reply;
    if (((step as { variants?: unknown[] }).variants ?? []).length > 0)
      leftOut.push(
        `workflow ${workflowKey} step ${name}: its variants stay as they are on the server (unmanaged)`,
      );
    if (action) {
      out.push(entry);
      return;
    }
    const exported = liveTemplateOf(step, layoutIdentifiers);
    const content = exported.content;
    if (
      typeof content === "string" &&
      (type === "email" || content.length > INLINE_MAX || content.includes("\n"))
    ) {
      const folder = slug(workflowKey) || "workflow";
      const base = `templates/${isDeviceName(folder) ? `${folder}-2` : folder}/${uniqueKey(slug(name) || "step", usedNames)}`;
      const path = uniqueFile(`${base}.${type === "email" ? "html" : "txt"}`, usedFiles);
      files.set(path, content);
      exported.content = { file: path };
    }
    // Keys in the order a person reads them.
    const order = [
      "subject",
      "preheader",
      "senderName",
      "title",
      "content",
      "contentType",
      "cta",
      "layout",
      "variables",
    ];
    entry.template = Object.fromEntries(
      order.filter((k) => exported[k] !== undefined).map((k) => [k, exported[k]]),
    );
    out.push(entry);
  });
  if (unsupported.length > 0) {
    leftOut.push(
      `workflow ${workflowKey}: its steps stay unmanaged (steps the config cannot hold as they are: ${unsupported.join(", ")})`,
    );
    return { steps: undefined, files: new Map(), leftOut };
  }
  return { steps: out, files, leftOut };
}

/**
 * A live step's template in the config's terms: the fields its type takes, when set, without the
 * server's sub-ids, its content as the server holds it, and its layout by identifier (e-mail).
 * What export writes (the content then perhaps moved to a file) and what preview renders as the
 * server's side of a change.
 */
export function liveTemplateOf(
  step: Step,
  layoutIdentifiers: ReadonlyMap<string, string> | undefined,
): Record<string, unknown> {
  const template = (step.template ?? {}) as Record<string, unknown>;
  const type = String(template.type ?? "");
  const out: Record<string, unknown> = {};
  for (const field of ["subject", "contentType", "preheader", "senderName", "title", "cta"]) {
    const value = template[field];
    if (!usableBy(field, type)) continue;
    if (value !== undefined && value !== null && value !== "") out[field] = withoutSubIds(value);
  }
  const content = template.content;
  if (typeof content === "string") out.content = content;
  else if (Array.isArray(content)) out.content = withoutSubIds(content);
  const variables = withoutSubIds(template.variables ?? []) as unknown[];
  if (variables.length > 0) out.variables = variables;
  if (typeof template._layoutId === "string" && type === "email") {
    const layout = layoutIdentifiers?.get(template._layoutId);
    if (layout !== undefined) out.layout = layout;
  }
  return out;
}

/** Template fields the offline checks require of each type (workflow-step-checks.ts). */
const NEEDED: Record<string, readonly string[]> = {
  email: ["subject", "content"],
  in_app: ["content"],
  sms: ["content"],
  chat: ["content"],
  push: ["title", "content"],
};

/** Template fields only some step types take (the offline checks refuse them elsewhere). */
function usableBy(field: string, type: string): boolean {
  if (["subject", "contentType", "preheader", "senderName"].includes(field)) return type === "email";
  if (field === "cta") return type === "in_app";
  if (field === "title") return type === "push";
  return true;
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (Array.isArray(value) && value.length === 0);
}

function uniqueFile(path: string, used: Set<string>): string {
  let candidate = path;
  for (let n = 2; used.has(candidate); n += 1) candidate = path.replace(/(\.\w+)$/, `-${n}$1`);
  used.add(candidate);
  return candidate;
}
