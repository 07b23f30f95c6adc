// The template fields of a workflow's steps, as the server renders them: an email's subject,
// content (custom HTML, or each editor block's content and url), preheader and sender name; an
// in-app message's content, CTA url and button texts; SMS and chat content; push title and
// content. Paths run inside one workflow entry; a field a step type does not have is simply
// absent, and an editor block list at `content` is skipped there and read through its blocks.

import { isTextFileRef } from "../../config/file-ref.js";
import type { Problem } from "../../errors.js";
import type { KindModule, TemplateFieldSpec } from "../kind.js";
import { checkPreviewExamples, previewExamplesOf, previewPayloadOf } from "./preview-examples.js";

/**
 * What the server (or the trigger) supplies besides the payload: the organization's branding,
 * an email's subject, body, blocks and preheader (r4-15), digest data, tenant and actor.
 */
const SUPPLIED = ["branding", "subject", "body", "blocks", "preheader", "step", "tenant", "actor"] as const;

const TEMPLATE = ["steps", "*", "template"] as const;

export const STEP_TEMPLATE_FIELDS: readonly TemplateFieldSpec[] = [
  ["subject"],
  ["content"],
  ["content", "*", "content"],
  ["content", "*", "url"],
  ["preheader"],
  ["senderName"],
  ["title"],
  ["cta", "data", "url"],
  ["cta", "action", "buttons", "*", "content"],
].map((path) => ({ path: [...TEMPLATE, ...path], supplied: SUPPLIED }));

/** The workflow kind's template fields, and the payloads its preview examples render with. */
export const WORKFLOW_TEMPLATES: Pick<KindModule<"workflow">, "templateFields" | "previewPayloads"> = {
  templateFields: STEP_TEMPLATE_FIELDS,
  previewPayloads(spec) {
    // Examples that are themselves wrong (reported by the workflow's checks) say nothing of variables.
    const problems: Problem[] = [];
    checkPreviewExamples(spec, { file: "", line: 1, col: 1 }, problems);
    const written =
      spec.preview === undefined ? [] : Array.isArray(spec.preview) ? spec.preview : [spec.preview];
    // A `{ file: }` left in place is one that failed to load (reported at the reference).
    const unread = written.some(
      (e) => isTextFileRef(e) || isTextFileRef(e?.payload) || isTextFileRef(e?.subscriber),
    );
    return problems.length > 0 || unread ? [] : previewExamplesOf(spec).map(previewPayloadOf);
  },
};
