// Every resource kind, in one registry typed by Kind: adding a kind without its module fails
// to compile, and the planner and applier iterate this instead of switching on kind names.
import type { Kind } from "../plan/model.js";
import type { ResourceRegistry } from "./kind.js";
import { notificationGroupModule } from "./notification-group.js";
import { topicModule } from "./topic.js";
import { workflowModule } from "./workflow.js";
import { overrideModule } from "./workflow-override.js";

export const resourceModules: ResourceRegistry = {
  notificationGroup: notificationGroupModule,
  topic: topicModule,
  workflow: workflowModule,
  override: overrideModule,
};

export function moduleFor<K extends Kind>(kind: K): ResourceRegistry[K] {
  return resourceModules[kind];
}
