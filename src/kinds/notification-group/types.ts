// A notification group's types, declared into KindTypes (src/kinds/kinds.ts): its config entry,
// what a plan reads of it, the writes a plan can make, and its share of the typed client.
import type { NotificationGroupEndpoints, NotificationGroupExtension } from "./api.js";
import type { NotificationGroup } from "./wire.js";

export interface NotificationGroupSpec {
  /** Local handle, stable across renames; the server `_id` lives in the state file. */
  key: string;
  name: string;
}

export type NotificationGroupOperation =
  | { type: "notificationGroup.create"; name: string }
  | { type: "notificationGroup.rename"; groupId: string; name: string };

declare module "../kinds.js" {
  interface KindTypes {
    notificationGroup: {
      spec: NotificationGroupSpec;
      /** undefined: the server has no notification-group list extension. */
      live: NotificationGroup[] | undefined;
      operation: NotificationGroupOperation;
      endpoints: NotificationGroupEndpoints;
      extension: NotificationGroupExtension;
      promoted: true;
    };
  }
}
