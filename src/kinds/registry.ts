// The one list of kinds: every resource kind's module, in the order apply runs their phases
// (groups before the workflows that join them, layouts before the workflows that use them, tenants and workflows before their overrides). Typed by Kind
// (the names the kinds' folders declare in kinds.ts), so a kind without its line here, or a
// module missing a part, fails to compile. Everything that works across kinds (config sections,
// planner, applier, saved-plan check, export, labels, the typed client) iterates this and never
// names a kind. Adding a kind: its folder, and one line here.
import { brandingKind } from "./branding/index.js";
import type { ResourceRegistry } from "./kind.js";
import type { Kind } from "./kinds.js";
import { layoutKind } from "./layout/index.js";
import { notificationGroupKind } from "./notification-group/index.js";
import { overrideKind } from "./override/index.js";
import { tenantKind } from "./tenant/index.js";
import { topicKind } from "./topic/index.js";
import { workflowKind } from "./workflow/index.js";

export const registry: ResourceRegistry = {
  notificationGroup: notificationGroupKind,
  topic: topicKind,
  tenant: tenantKind,
  layout: layoutKind,
  workflow: workflowKind,
  override: overrideKind,
  branding: brandingKind,
};

/** Every kind, in the registry's (phase) order. */
export const KINDS: readonly Kind[] = Object.keys(registry) as Kind[];

export type { Kind };

/** "topic", "notification group": how people read a kind. */
export function describeKind(kind: Kind, count = 1): string {
  const label = registry[kind].label;
  return count === 1 ? label.one : label.many;
}
