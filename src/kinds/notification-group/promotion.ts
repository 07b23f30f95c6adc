// A notification group's part in promotion: its changes are NotificationGroup records; the
// config's groups are found through the state file (group key -> Development id, as apply
// recorded them); Production receives the group's name.
import type { DesiredState } from "../../config/model.js";
import type { StateFile } from "../../state/model.js";
import { type KindPromotion, type PromotionHandle, promotedField, topField } from "../promotion.js";

async function managedGroups(desired: DesiredState, state: StateFile) {
  const warnings: string[] = [];
  const handles = new Map<string, PromotionHandle>();
  for (const { spec } of desired.resources.notificationGroup) {
    const record = Object.hasOwn(state.notificationGroups, spec.key)
      ? state.notificationGroups[spec.key]
      : undefined;
    if (record !== undefined) handles.set(record.id, { key: spec.key });
    else
      warnings.push(
        `notification group ${spec.key}: the state file has no Development id for it (apply in Development first); its changes show as unmanaged`,
      );
  }
  return { handles, warnings };
}

export const notificationGroupPromotion: KindPromotion = {
  changeTypes: ["NotificationGroup"],
  managed: managedGroups,
  describe: (ops) => ({
    fields: ops.flatMap((op) => (topField(op) === "name" ? [promotedField("name", op)] : [])),
  }),
};
