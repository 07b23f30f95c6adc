// What a workflow's planned changes become, beyond its plain fields: content changes turn into
// the whole `steps` list of the PUT (steps-body.ts), a missing workflow into a create in
// Development, and everything about a workflow into "arrives by promotion" with a key of any
// other environment: workflows are authored in Development, and a Production PUT would be
// overwritten by the next promotion anyway. Pure: the live workflow and the layout ids come in.

import type { JsonObject } from "../../canonical.js";
import type { StepSpec } from "./step-spec.js";
import { stepsBody } from "./steps-body.js";
import { isContentField } from "./steps-canonical.js";
import type { Step } from "./wire.js";

/** Why a Production key's plan sends nothing for a workflow. */
export const ARRIVES_BY_PROMOTION =
  "workflows are authored in Development: this arrives by promotion (notiform promote)";

/** Why content cannot be managed on a server without the workflow read extension. */
export const CONTENT_NEEDS_READ =
  "workflow content needs the server's workflow read (GET /v1/workflows/{id}), which this server does not serve (it serves the spec alone)";

/** Whether any of the changes is to the workflow's content. */
export function changesContent(changes: readonly { field: string }[]): boolean {
  return changes.some((change) => isContentField(change.field));
}

/** The `steps` of the PUT for a workflow whose content changed. */
export function contentUpdate(
  steps: readonly StepSpec[],
  live: readonly Step[] | undefined,
  layoutIds: ReadonlyMap<string, string>,
): JsonObject[] {
  return stepsBody(steps, live, layoutIds);
}

/** The settings a create sends besides name, group and steps (what the config sets). */
export function createSettings(spec: {
  description?: string;
  tags?: string[];
  critical?: boolean;
  active?: boolean;
  data?: Record<string, unknown>;
  preferenceSettings?: Partial<Record<string, boolean>>;
}): JsonObject {
  const out: JsonObject = {};
  if (spec.description !== undefined) out.description = spec.description;
  if (spec.tags !== undefined) out.tags = [...new Set(spec.tags)].sort();
  if (spec.critical !== undefined) out.critical = spec.critical;
  // A real server creates a workflow inactive unless told otherwise.
  out.active = spec.active ?? true;
  if (spec.data !== undefined) out.data = spec.data as JsonObject;
  if (spec.preferenceSettings !== undefined) {
    const all: JsonObject = {};
    for (const channel of ["email", "sms", "in_app", "chat", "push"])
      all[channel] = spec.preferenceSettings[channel] ?? true;
    out.preferenceSettings = all;
  }
  return out;
}
