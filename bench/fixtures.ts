// Synthetic organizations for the benchmark: deterministic ids, a config text and the emulator
// seed that holds what the API cannot create (workflows, tenants; each tenant with an identifier
// and a name, so a config may manage them as it finds them).
import type { Seed } from "../src/emulator/index.js";

export function workflowId(index: number): string {
  return `64f1c0ffee${index.toString(16).padStart(14, "0")}`;
}

export function tenantId(index: number): string {
  return `65${index.toString(16).padStart(22, "0")}`;
}

export function tenantIdentifier(index: number): string {
  return `tenant-${index}`;
}

/** The HTML of a benchmark layout (it holds `{{{body}}}`, as every layout must). */
export const LAYOUT_CONTENT = "<html><body><main>{{{body}}}</main></body></html>";

export interface Size {
  topics: number;
  overrides: number;
  workflows: number;
  /** Tenants the config manages: the first ones the seed holds, unchanged. */
  tenants?: number;
  /** Layouts the config manages (layout-N). */
  layouts?: number;
  /** Topic names get this suffix: change it to make every topic an update. */
  topicSuffix?: string;
  /** Start topic numbering here (new topics beyond an existing range). */
  topicOffset?: number;
}

export function seedFor(size: { workflows: number; tenants: number }): Seed {
  const workflows = Array.from({ length: size.workflows }, (_, i) => ({
    _id: workflowId(i),
    name: `Workflow ${i}`,
    active: true,
  }));
  const tenants = Array.from({ length: size.tenants }, (_, i) => ({
    _id: tenantId(i),
    identifier: tenantIdentifier(i),
    name: `Tenant ${i}`,
  }));
  return {
    organization: { name: "Bench Inc" },
    apiKeys: [{ key: "nf_bench_key", environment: "development" }],
    environments: { development: { workflows, tenants } },
  } as Seed;
}

/** A config text naming `size` resources: topics, workflows (unchanged names), one override per tenant. */
export function configFor(size: Size): string {
  const out: string[] = ["version: 1", "organization: Bench Inc"];
  if (size.topics > 0) out.push("topics:");
  const offset = size.topicOffset ?? 0;
  for (let i = offset; i < offset + size.topics; i += 1) {
    out.push(`  - key: topic-${i}`, `    name: Topic ${i}${size.topicSuffix ?? ""}`);
  }
  if (size.workflows > 0) out.push("workflows:");
  for (let i = 0; i < size.workflows; i += 1) {
    out.push(
      `  - key: workflow-${i}`,
      `    id: ${workflowId(i)}`,
      `    name: Workflow ${i}`,
      "    active: true",
    );
  }
  if ((size.tenants ?? 0) > 0) out.push("tenants:");
  for (let i = 0; i < (size.tenants ?? 0); i += 1)
    out.push(`  - identifier: ${tenantIdentifier(i)}`, `    name: Tenant ${i}`);
  if ((size.layouts ?? 0) > 0) out.push("layouts:");
  for (let i = 0; i < (size.layouts ?? 0); i += 1)
    out.push(`  - identifier: layout-${i}`, `    name: Layout ${i}`, `    content: "${LAYOUT_CONTENT}"`);
  if (size.overrides > 0) out.push("overrides:");
  for (let i = 0; i < size.overrides; i += 1) {
    out.push(
      `  - workflow: workflow-${i % Math.max(1, size.workflows)}`,
      `    tenant: ${tenantId(i)}`,
      "    active: true",
    );
  }
  return `${out.join("\n")}\n`;
}
