// Endpoints 14-15 (create, rename a notification group) and the read extensions GET
// /v1/notification-groups (unpaged) and GET /v1/notification-groups/{id}. A create is never
// retried once it may have reached the server: the same name twice makes two groups.
import { expectArray, expectShape, GROUP, unwrap } from "../../api/envelope.js";
import { checkName, segment } from "../../api/request-checks.js";
import type { Requester } from "../../api/requester.js";
import type { NotificationApi, NotificationGroup } from "../../api/types.js";

export type NotificationGroupEndpoints = Pick<
  NotificationApi,
  "createNotificationGroup" | "renameNotificationGroup" | "listNotificationGroups" | "getNotificationGroup"
>;

export function createNotificationGroupEndpoints(requester: Requester): NotificationGroupEndpoints {
  return {
    async createNotificationGroup(body, options = {}): Promise<NotificationGroup> {
      checkName("notification group name", body.name);
      return requester.read(
        {
          endpoint: "createNotificationGroup",
          method: "POST",
          path: "/v1/notification-groups",
          body: { name: body.name },
        },
        options,
        ({ json, ctx }) => {
          return expectShape<NotificationGroup>(unwrap(json, ctx), GROUP, ctx, "data");
        },
      );
    },

    async renameNotificationGroup(id, body, options = {}): Promise<NotificationGroup> {
      checkName("notification group name", body.name);
      return requester.read(
        {
          endpoint: "renameNotificationGroup",
          method: "PATCH",
          path: `/v1/notification-groups/${segment("notification group id", id)}`,
          body: { name: body.name },
        },
        options,
        ({ json, ctx }) => {
          return expectShape<NotificationGroup>(unwrap(json, ctx), GROUP, ctx, "data");
        },
      );
    },

    async listNotificationGroups(options = {}): Promise<NotificationGroup[]> {
      return requester.read(
        {
          endpoint: "listNotificationGroups",
          extension: "listNotificationGroups",
          method: "GET",
          path: "/v1/notification-groups",
        },
        options,
        ({ json, ctx }) => {
          return expectArray<NotificationGroup>(unwrap(json, ctx), GROUP, ctx, "data");
        },
      );
    },

    async getNotificationGroup(id, options = {}): Promise<NotificationGroup> {
      return requester.read(
        {
          endpoint: "getNotificationGroup",
          extension: "getNotificationGroup",
          method: "GET",
          path: `/v1/notification-groups/${segment("notification group id", id)}`,
        },
        options,
        ({ json, ctx }) => {
          return expectShape<NotificationGroup>(unwrap(json, ctx), GROUP, ctx, "data");
        },
      );
    },
  };
}
