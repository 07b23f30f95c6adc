// Which server id each configured notification group has: the state file's record first;
// otherwise, where the server lists groups, one group of the same name is adopted. Two groups
// of one name cannot be told apart (the server allows duplicates), so that case is a warning.
import type { DesiredState } from "../config/model.js";
import type { LiveByKind } from "../kinds/kinds.js";
import type { PlanWarning } from "../kinds/plan-action.js";
import { ownRecord, type StateFile } from "../state/model.js";

export function resolveGroupIds(
  desired: DesiredState,
  /** The server's groups, where it lists them. */
  live: LiveByKind["notificationGroup"],
  state: StateFile,
  warnings: PlanWarning[],
): { groupIds: Map<string, string>; groupKeys: Map<string, string> } {
  const groupIds = new Map<string, string>();
  const claimed = new Set<string>();
  for (const { spec, source } of desired.resources.notificationGroup) {
    const record = ownRecord(state.notificationGroups, spec.key);
    if (record === undefined) continue;
    if (live !== undefined && !live.some((g) => g._id === record.id)) {
      warnings.push({
        code: "group-gone",
        message: `notification group ${spec.key}: the state file's id ${record.id} no longer exists on the server; it will be created again`,
        source: source.pos,
      });
      continue;
    }
    groupIds.set(spec.key, record.id);
    claimed.add(record.id);
  }
  if (live !== undefined) {
    for (const { spec, source } of desired.resources.notificationGroup) {
      if (groupIds.has(spec.key) || ownRecord(state.notificationGroups, spec.key) !== undefined) continue;
      const candidates = live
        .filter((g) => g.name === spec.name && !claimed.has(g._id))
        .sort((a, b) => (a._id < b._id ? -1 : 1));
      const first = candidates[0];
      if (first === undefined) continue;
      // After an interrupted create, two candidates may be this run's and a stranger's: the
      // plan says so (uncertain) instead of guessing.
      if (candidates.length > 1 && ownRecord(state.intents ?? {}, `notificationGroup/${spec.key}`)) continue;
      if (candidates.length > 1) {
        warnings.push({
          code: "group-ambiguous",
          message: `notification group ${spec.key}: ${candidates.length} groups on the server are named "${spec.name}"; adopting the oldest (${first._id})`,
          source: source.pos,
        });
      }
      groupIds.set(spec.key, first._id);
      claimed.add(first._id);
    }
  }
  const groupKeys = new Map<string, string>();
  for (const [key, id] of groupIds) groupKeys.set(id, key);
  return { groupIds, groupKeys };
}
