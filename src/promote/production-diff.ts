// What Production will receive, as a diff against Production (issue 26): for each workflow a
// promotion carries, its Development record against Production's current one (found by trigger
// identifier), and for each layout, against Production's of the same identifier, field by field
// in the plan's canonical model. Groups and layouts are compared by name and identifier: their
// ids differ per environment. Pure: records in, field changes out.
import { canonicalJson, digestOf, type JsonObject } from "../canonical.js";
import { canonicalLayout } from "../kinds/layout/canonical.js";
import type { Layout } from "../kinds/layout/wire.js";
import { canonicalWorkflowFields } from "../kinds/workflow/canonical.js";
import { liveStepFields } from "../kinds/workflow/steps-canonical.js";
import type { Workflow } from "../kinds/workflow/wire.js";
import type { FieldChange } from "../plan/model.js";

/** What names an environment's ids: notification group id -> name, layout id -> identifier. */
export interface EnvironmentNames {
  groups: ReadonlyMap<string, string>;
  layouts: ReadonlyMap<string, string>;
}

/** A workflow's settings and content as plan compares them, its group by name. */
export function promotedWorkflowFields(workflow: Workflow, names: EnvironmentNames): JsonObject {
  // The group map stands in for plan's group keys: a group is named the same in both environments.
  const fields = canonicalWorkflowFields(workflow, names.groups);
  liveStepFields(workflow.steps ?? [], names.layouts, fields);
  return fields;
}

/** A layout's fields as plan compares them (its content a text a diff shows line by line). */
export function promotedLayoutFields(layout: Layout): JsonObject {
  return canonicalLayout(layout);
}

/**
 * What a carried layout's digest covers: its compared fields, masked. Made when the promotion is
 * saved and again before a saved one is promoted: one formula, so the two always agree.
 */
export function carriedLayoutDigest(layout: Layout, mask: <T>(value: T) => T): string {
  // The identifier too: Production's copy takes it when the layout is promoted.
  return digestOf(mask({ identifier: layout.identifier, ...promotedLayoutFields(layout) }));
}

/**
 * Whether Production lacks anything an entry carries: true when the entry has no diff (Production
 * was not read, or the kind is not compared) or a non-empty one. An entry whose content
 * Production already has (a change promoted by hand, or made twice) is pending on the server, but
 * not ahead of Production.
 */
export function isAheadOfProduction(entry: { diff?: readonly unknown[] }): boolean {
  return entry.diff === undefined || entry.diff.length > 0;
}

/**
 * Whether promoting adds anything Production lacks: an entry ahead of it, or a layout with no change
 * of its own listed that Production has otherwise (--detailed-exitcode's 2): a promoted workflow's
 * change may hold its change.
 */
export function promotionAheadOfProduction(promotion: {
  entries: readonly { diff?: readonly unknown[] }[];
  carried?: readonly { diff?: readonly unknown[] }[];
}): boolean {
  return (
    promotion.entries.some(isAheadOfProduction) ||
    (promotion.carried ?? []).some((layout) => (layout.diff?.length ?? 0) > 0)
  );
}

/**
 * Development's fields against Production's (undefined: Production has no such workflow yet, so
 * every field is new). A field only Production has (a step Development dropped) shows as null.
 */
export function diffAgainstProduction(
  development: JsonObject,
  production: JsonObject | undefined,
): FieldChange[] {
  const fields = [...new Set([...Object.keys(development), ...Object.keys(production ?? {})])].sort();
  const out: FieldChange[] = [];
  for (const field of fields) {
    const now = production?.[field];
    const next = development[field] ?? null;
    if (now !== undefined && canonicalJson(now) === canonicalJson(next)) continue;
    out.push(now === undefined ? { field, new: next } : { field, old: now, new: next });
  }
  return out;
}
