// The workflow section's cross-reference checks, after the schema: no two workflows with one id,
// and every notificationGroup a workflow names is a notificationGroups key of this config.

import { didYouMean } from "../../config/did-you-mean.js";
import { isFlagged } from "../../config/flagged.js";
import type { Resources } from "../../config/model.js";
import { where } from "../../config/where.js";
import type { Problem } from "../../errors.js";
import { checkWorkflowSteps } from "./step-checks.js";

export function checkWorkflowReferences(resources: Resources, problems: Problem[]): void {
  checkWorkflowSteps(resources, problems);
  const byId = new Map<string, { key: string; pos: string }>();
  for (const { spec, source } of resources.workflow) {
    // An id or identifier the schema refused was taken out: already told.
    const refused = isFlagged(source, "id") || isFlagged(source, "identifier");
    if (spec.id === undefined && spec.identifier === undefined && !refused) {
      problems.push({
        severity: "error",
        rule: "workflow-unnamed",
        message: `workflow "${spec.key}": give its trigger identifier (identifier:) or, in an environment's overlay, its id (id:)`,
        pos: source.pos,
      });
    }
    if (spec.id === undefined) continue;
    const other = byId.get(spec.id.toLowerCase());
    if (other !== undefined) {
      problems.push({
        severity: "error",
        rule: "duplicate-workflow-id",
        message: `workflows "${other.key}" (${other.pos}) and "${spec.key}" have the same id ${spec.id}`,
        pos: source.fields.id ?? source.pos,
      });
    } else {
      byId.set(spec.id.toLowerCase(), { key: spec.key, pos: where(source.fields.id ?? source.pos) });
    }
  }
  const byIdentifier = new Map<string, string>();
  for (const { spec, source } of resources.workflow) {
    if (spec.identifier === undefined) continue;
    const other = byIdentifier.get(spec.identifier);
    if (other !== undefined) {
      problems.push({
        severity: "error",
        rule: "duplicate-workflow-identifier",
        message: `workflows ${other} and "${spec.key}" have the same identifier ${spec.identifier}`,
        pos: source.fields.identifier ?? source.pos,
      });
    } else {
      byIdentifier.set(spec.identifier, `"${spec.key}" (${where(source.fields.identifier ?? source.pos)})`);
    }
  }
  const groupKeys = new Set(resources.notificationGroup.map((g) => g.spec.key));
  for (const { spec, source } of resources.workflow) {
    if (spec.notificationGroup !== undefined && !groupKeys.has(spec.notificationGroup)) {
      problems.push({
        severity: "error",
        rule: "unknown-reference",
        message: `workflow "${spec.key}" names notification group "${spec.notificationGroup}", which is not a notificationGroups key of this config${didYouMean(spec.notificationGroup, groupKeys)}`,
        pos: source.fields.notificationGroup ?? source.pos,
      });
    }
  }
}
