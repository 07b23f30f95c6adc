// A config and a matching emulator seed of a chosen size, for the reliability tests: topics,
// notification groups, workflows that name them, and one override per tenant.
import type { Seed } from "../../src/emulator/index.js";

export interface Scale {
  topics: number;
  groups: number;
  workflows: number;
  tenants: number;
}

export function workflowId(index: number): string {
  return `64f1c0ffee00000000${(0xb000 + index).toString(16).padStart(6, "0")}`;
}

export function tenantId(index: number): string {
  return `6500000000000000000${(0x10000 + index).toString(16).padStart(5, "0")}`;
}

export function scaleSeed(scale: Scale): Seed {
  const workflows = Array.from({ length: scale.workflows }, (_, i) => ({
    _id: workflowId(i),
    name: `Workflow ${i}`,
    active: false,
  }));
  const tenants = Array.from({ length: scale.tenants }, (_, i) => ({ _id: tenantId(i) }));
  return { environments: { development: { workflows, tenants } } } as Seed;
}

export function buildScaleConfig(scale: Scale): string {
  const lines = ["version: 1", "organization: Acme Inc", "topics:"];
  for (let i = 0; i < scale.topics; i += 1) lines.push(`  - key: topic-${i}`, `    name: Topic ${i}`);
  lines.push("notificationGroups:");
  for (let i = 0; i < scale.groups; i += 1) lines.push(`  - key: group-${i}`, `    name: Group ${i}`);
  lines.push("workflows:");
  for (let i = 0; i < scale.workflows; i += 1) {
    lines.push(`  - key: workflow-${i}`, `    id: ${workflowId(i)}`, `    name: Workflow ${i} renamed`);
    lines.push("    active: true", `    notificationGroup: group-${i % Math.max(1, scale.groups)}`);
  }
  lines.push("overrides:");
  for (let i = 0; i < scale.tenants; i += 1) {
    lines.push(
      `  - workflow: workflow-${i % scale.workflows}`,
      `    tenant: ${tenantId(i)}`,
      "    active: true",
    );
    lines.push("    preferenceSettings: { sms: false }");
  }
  return `${lines.join("\n")}\n`;
}
