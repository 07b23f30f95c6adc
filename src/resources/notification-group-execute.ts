// Executing notification group actions. The server makes a second group for the same name, so
// a create is never sent twice: a lost response is resolved through the list extension (adopt
// the unclaimed group of that name) or reported with what to do; it is never retried blind.
import { NotiformError } from "../errors.js";
import type { ExecuteResult, ResourceExecutor } from "./kind.js";
import { unlessUnsupported } from "./read-live.js";
import { mayHaveBeenApplied } from "./write-outcomes.js";

export const notificationGroupExecutor: ResourceExecutor = {
  async execute(action, request, { client, groupKeys, signal }): Promise<ExecuteResult> {
    const options = signal ? { signal } : {};
    const name = String(request.body.name);
    if (request.method === "PATCH") {
      const group = await client.renameNotificationGroup(action.live.serverId ?? "", { name }, options);
      return {
        serverId: group._id,
        fields: { name: group.name },
        stateChange: { section: "notificationGroups", key: action.key, id: group._id, name: group.name },
      };
    }
    try {
      const group = await client.createNotificationGroup({ name }, options);
      return {
        serverId: group._id,
        fields: { name: group.name },
        stateChange: { section: "notificationGroups", key: action.key, id: group._id, name: group.name },
      };
    } catch (error) {
      if (!mayHaveBeenApplied(error)) throw error;
      const groups = await unlessUnsupported(client.listNotificationGroups());
      const candidates = (groups ?? []).filter((g) => g.name === name && !groupKeys.has(g._id));
      const newest = candidates.sort((a, b) => (a._id < b._id ? 1 : -1))[0];
      if (newest === undefined || groups === undefined) {
        throw new NotiformError(
          "API_ERROR",
          `notification group ${action.key}: the create's response was lost and the server cannot list groups, so it is unknown whether "${name}" was created`,
          {
            cause: error,
            hint: `Look for a group named "${name}" in the dashboard; if it exists, record its id under notificationGroups.${action.key} in the state file before re-running, or a second group will be created.`,
          },
        );
      }
      return {
        serverId: newest._id,
        fields: { name: newest.name },
        stateChange: { section: "notificationGroups", key: action.key, id: newest._id, name: newest.name },
        note: "response lost; read back: created",
      };
    }
  },

  async reread() {
    // Groups are re-read as a whole list by the caller (the only read the server may offer);
    // a group known only from the state file needs no read.
  },
};
