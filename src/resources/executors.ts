// Every resource kind's executor (the apply side), typed by Kind like the planning registry.
import type { Kind } from "../plan/model.js";
import type { ResourceExecutor } from "./kind.js";
import { notificationGroupExecutor } from "./notification-group-execute.js";
import { topicExecutor } from "./topic-execute.js";
import { workflowExecutor } from "./workflow-execute.js";
import { overrideExecutor } from "./workflow-override-execute.js";

export const resourceExecutors: { [K in Kind]: ResourceExecutor } = {
  notificationGroup: notificationGroupExecutor,
  topic: topicExecutor,
  workflow: workflowExecutor,
  override: overrideExecutor,
};
