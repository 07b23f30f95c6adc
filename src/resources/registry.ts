// Every resource kind's module, typed by Kind: a kind without its module, or a module missing a
// part, fails to compile. Everything that works across kinds (config sections, planner, applier,
// saved-plan check, export, labels) iterates this and never names a kind.
import { brandingKind } from "./branding.js";
import type { ResourceRegistry } from "./kind.js";
import { KINDS, type Kind } from "./kinds.js";
import { layoutKind } from "./layout.js";
import { notificationGroupKind } from "./notification-group.js";
import { tenantKind } from "./tenant.js";
import { topicKind } from "./topic.js";
import { workflowKind } from "./workflow.js";
import { overrideKind } from "./workflow-override.js";

export const registry: ResourceRegistry = {
  notificationGroup: notificationGroupKind,
  topic: topicKind,
  tenant: tenantKind,
  layout: layoutKind,
  workflow: workflowKind,
  override: overrideKind,
  branding: brandingKind,
};

export { KINDS, type Kind };

/** "topic", "notification group": how people read a kind. */
export function describeKind(kind: Kind, count = 1): string {
  const label = registry[kind].label;
  return count === 1 ? label.one : label.many;
}
