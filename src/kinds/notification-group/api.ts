// Endpoints 14-15 (create, rename a notification group) and the read extensions GET
// /v1/notification-groups (unpaged) and GET /v1/notification-groups/{id}. A create is never
// retried once it may have reached the server: the same name twice makes two groups.

import { NEVER_ID } from "../../api/capabilities.js";
import { expectArray, expectShape, unwrap } from "../../api/envelope.js";
import { checkName, segment } from "../../api/request-checks.js";
import type { Requester } from "../../api/requester.js";
import type { RequestOptions } from "../../api/types.js";
import type { EndpointGroup } from "../endpoint-group.js";
import type { NotificationGroup } from "./wire.js";

// The fields a group must have for notiform to work with it.
const GROUP = { _id: "string", name: "string" } as const;

export interface NotificationGroupEndpoints {
  /** 14 POST /v1/notification-groups (never retried once sent: the same name twice makes two groups) */
  createNotificationGroup(body: { name: string }, options?: RequestOptions): Promise<NotificationGroup>;
  /** 15 PATCH /v1/notification-groups/{id} */
  renameNotificationGroup(
    id: string,
    body: { name: string },
    options?: RequestOptions,
  ): Promise<NotificationGroup>;
  /** Extension: GET /v1/notification-groups (unpaged). */
  listNotificationGroups(options?: RequestOptions): Promise<NotificationGroup[]>;
  /** Extension: GET /v1/notification-groups/{id}. */
  getNotificationGroup(id: string, options?: RequestOptions): Promise<NotificationGroup>;
}

export type NotificationGroupExtension = "listNotificationGroups" | "getNotificationGroup";

export const notificationGroupApi: EndpointGroup<NotificationGroupEndpoints, NotificationGroupExtension> = {
  create: (requester) => createNotificationGroupEndpoints(requester),
  extensions: {
    listNotificationGroups: (api, options) => api.listNotificationGroups(options),
    getNotificationGroup: (api, options) => api.getNotificationGroup(NEVER_ID, options),
  },
};

function createNotificationGroupEndpoints(requester: Requester): NotificationGroupEndpoints {
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
