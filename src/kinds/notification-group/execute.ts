// Executing notification group operations. The server makes a second group for the same name,
// so a create is never sent twice: a lost response is resolved through the list extension
// (adopt the unclaimed group of that name) or reported with what to do; never retried blind.
import { NotiformError } from "../../errors.js";
import type { ExecuteContext, ExecuteResult } from "../kind.js";
import type { PlanAction } from "../plan-action.js";
import { unlessUnsupported } from "../unsupported.js";
import { mayHaveBeenApplied } from "../write-outcomes.js";
import type { NotificationGroupOperation } from "./types.js";

export async function executeNotificationGroup(
  action: PlanAction,
  op: NotificationGroupOperation,
  { client, groupKeys, signal }: ExecuteContext,
): Promise<ExecuteResult> {
  const options = signal ? { signal } : {};
  const recorded = (group: { _id: string; name: string }, note?: string): ExecuteResult => ({
    serverId: group._id,
    fields: { name: group.name },
    stateChange: { section: "notificationGroups", key: action.key, id: group._id, name: group.name },
    ...(note !== undefined ? { note } : {}),
  });
  if (op.type === "notificationGroup.rename") {
    return recorded(await client.renameNotificationGroup(op.groupId, { name: op.name }, options));
  }
  try {
    return recorded(await client.createNotificationGroup({ name: op.name }, options));
  } catch (error) {
    if (!mayHaveBeenApplied(error)) throw error;
    const groups = await unlessUnsupported(client.listNotificationGroups());
    const candidates = (groups ?? []).filter((g) => g.name === op.name && !groupKeys.has(g._id));
    const newest = candidates.sort((a, b) => (a._id < b._id ? 1 : -1))[0];
    if (groups === undefined) {
      throw new NotiformError(
        "CREATE_UNCERTAIN",
        `notification group ${action.key}: the create's response was lost and the server cannot list groups, so it is unknown whether "${op.name}" was created`,
        {
          cause: error,
          hint: `Look for a group named "${op.name}" in the dashboard, then run \`notiform resolve ${action.id} --id ID\` if it exists, or \`--not-created\` if it does not (never a second group meanwhile: apply refuses to create it again).`,
        },
      );
    }
    if (newest === undefined) {
      throw new NotiformError(
        "API_ERROR",
        `notification group ${action.key}: the create's response was lost, and the server lists no unbound group named "${op.name}": it was not created`,
        { cause: error, hint: "Run apply again: the next plan creates it." },
      );
    }
    return recorded(newest, "response lost; read back: created");
  }
}
