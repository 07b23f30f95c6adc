// The HTTP request each notification group operation sends (the plan shows it; apply sends exactly it).
import { type PlannedRequest, pathSegment } from "../operations.js";
import type { NotificationGroupOperation } from "./types.js";

export function notificationGroupRequest(op: NotificationGroupOperation): PlannedRequest {
  switch (op.type) {
    case "notificationGroup.create":
      return { method: "POST", path: "/v1/notification-groups", body: { name: op.name } };
    case "notificationGroup.rename":
      return {
        method: "PATCH",
        path: `/v1/notification-groups/${pathSegment(op.groupId)}`,
        body: { name: op.name },
      };
  }
}
