// The override section's cross-reference checks, after the schema: each override names a
// workflow of this config (or a raw 24-hex id), and no two overrides mean one workflow and
// tenant, whether the workflow is named by key or by raw id.
import { didYouMean } from "../../config/did-you-mean.js";
import type { Resources } from "../../config/model.js";
import { where } from "../../config/where.js";
import type { Problem } from "../../errors.js";

const HEX_ID = /^[0-9a-fA-F]{24}$/;

export function checkOverrideReferences(resources: Resources, problems: Problem[]): void {
  const workflowIds = new Map(
    resources.workflow.map((w) => [w.spec.key, w.spec.id?.toLowerCase() ?? `key:${w.spec.key}`]),
  );
  const pairs = new Map<string, string>();
  for (const { spec, source } of resources.override) {
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
    const tenant = spec.tenantId ?? spec.tenant ?? "";
    const pair = `${workflowId}/${tenant.toLowerCase()}`;
    const first = pairs.get(pair);
    if (first !== undefined) {
      problems.push({
        severity: "error",
        rule: "duplicate-override",
        message: `two overrides for workflow "${spec.workflow}" and tenant ${tenant}: ${first} and ${where(source.pos)}`,
        pos: source.pos,
      });
    } else {
      pairs.set(pair, where(source.pos));
    }
  }
}
