// Cross-reference checks on the merged resources, after the schema: references between
// resources resolve, and no two entries mean the same thing (two workflows with one id, two
// overrides for one workflow and tenant, whether named by key or by raw id).
import type { Problem } from "../errors.js";
import type { FileResources } from "./collect.js";
import { didYouMean } from "./did-you-mean.js";
import { where } from "./merge.js";

const HEX_ID = /^[0-9a-fA-F]{24}$/;

export function checkReferences(resources: FileResources, problems: Problem[]): void {
  const workflowIds = new Map<string, string>();
  const byId = new Map<string, { key: string; pos: string }>();
  for (const { spec, source } of resources.workflows) {
    workflowIds.set(spec.key, spec.id.toLowerCase());
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

  const groupKeys = new Set(resources.notificationGroups.map((g) => g.spec.key));
  for (const { spec, source } of resources.workflows) {
    if (spec.notificationGroup !== undefined && !groupKeys.has(spec.notificationGroup)) {
      problems.push({
        severity: "error",
        rule: "unknown-reference",
        message: `workflow "${spec.key}" names notification group "${spec.notificationGroup}", which is not a notificationGroups key of this config${didYouMean(spec.notificationGroup, groupKeys)}`,
        pos: source.fields.notificationGroup ?? source.pos,
      });
    }
  }

  const pairs = new Map<string, string>();
  for (const { spec, source } of resources.overrides) {
    let workflowId = workflowIds.get(spec.workflow);
    if (workflowId === undefined) {
      if (!HEX_ID.test(spec.workflow)) {
        problems.push({
          severity: "error",
          rule: "unknown-reference",
          message: `override names workflow "${spec.workflow}", which is neither a workflows key of this config nor a 24-hex workflow id${didYouMean(spec.workflow, workflowIds.keys())}`,
          pos: source.fields.workflow ?? source.pos,
        });
        continue;
      }
      workflowId = spec.workflow.toLowerCase();
    }
    const pair = `${workflowId}/${spec.tenant.toLowerCase()}`;
    const first = pairs.get(pair);
    if (first !== undefined) {
      problems.push({
        severity: "error",
        rule: "duplicate-override",
        message: `two overrides for workflow "${spec.workflow}" and tenant ${spec.tenant}: ${first} and ${where(source.pos)}`,
        pos: source.pos,
      });
    } else {
      pairs.set(pair, where(source.pos));
    }
  }
}
