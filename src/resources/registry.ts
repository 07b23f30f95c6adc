// Every resource kind's planning module, in a registry typed by Kind: adding a kind without its
// module fails to compile, and the planner iterates this instead of switching on kind names.
// (The executors live in executors.ts so the pure planner never imports client code.)
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
