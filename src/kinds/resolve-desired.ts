// Before planning (I/O edge): each kind that can name its server records by portable identifiers
// turns them into the ids of the environment the key reaches (see KindModule.resolve). Kinds
// resolve in registry order, so an override sees its workflow's resolved id. Every entry that
// cannot be resolved is reported at once, at its position.

import type { DesiredState, Resources } from "../config/model.js";
import { ConfigError, type Problem } from "../errors.js";
import type { IdentifierSection } from "../state/model.js";
import { desiredItemsOf } from "./desired-items.js";
import type { DesiredItem, KindModule, ResolveContext } from "./kind.js";
import type { NotificationApi } from "./notification-api.js";
import { describeKind, KINDS, type Kind, registry } from "./registry.js";

export type ResolvedIdentifiers = Partial<Record<IdentifierSection, Record<string, string>>>;

export async function resolveDesired(
  client: NotificationApi,
  desired: DesiredState,
  context: ResolveContext,
): Promise<{ desired: DesiredState; identifiers: ResolvedIdentifiers }> {
  let current = desired;
  const identifiers: ResolvedIdentifiers = {};
  const problems: Problem[] = [];
  for (const kind of KINDS) {
    const module = registry[kind] as KindModule<Kind>;
    if (module.resolve === undefined) continue;
    const result = await module.resolve(client, current, context);
    for (const problem of result.problems) problems.push(problem);
    if (result.record !== undefined && Object.keys(result.record.ids).length > 0)
      identifiers[result.record.section] = result.record.ids;
    const resources = { ...current.resources, [kind]: result.entries } as Resources;
    current = { ...current, resources };
  }
  const shared = problems.length === 0 ? sharedServerObjects(current) : [];
  if (shared.length > 0)
    throw new ConfigError(
      shared,
      `${shared.length === 1 ? "an entry names" : `${shared.length} entries name`} a server object another entry names`,
      desired.sensitive,
    );
  if (problems.length > 0) {
    throw new ConfigError(
      problems,
      `${problems.length === 1 ? "an identifier" : `${problems.length} identifiers`} could not be resolved in this environment`,
      desired.sensitive,
    );
  }
  return { desired: current, identifiers };
}

/**
 * Two entries that resolve to one server object (a workflow named by id and again by identifier;
 * an override written with `tenant` and with `tenantId`) would plan as two changes that undo each
 * other on every apply. Once identities are resolved, each is an error at its position, naming
 * the other.
 */
function sharedServerObjects(desired: DesiredState): Problem[] {
  const problems: Problem[] = [];
  for (const kind of KINDS) {
    const module = registry[kind] as KindModule<Kind>;
    const seen = new Map<string, DesiredItem>();
    for (const item of desiredItemsOf(module, desired)) {
      const ids = Object.entries(item.ids).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      if (ids.length === 0 || ids.some(([, id]) => id === "")) continue;
      const identity = JSON.stringify(ids);
      const first = seen.get(identity);
      if (first === undefined) {
        seen.set(identity, item);
        continue;
      }
      const where = `${first.source.pos.file}:${first.source.pos.line}`;
      problems.push({
        severity: "error",
        rule: "same-server-object",
        message: `${describeKind(kind)} "${item.key}" is the same server object as "${first.key}" (${where}): ${ids.map(([name, id]) => `${name} ${id}`).join(", ")}; keep one entry`,
        pos: item.source.pos,
      });
    }
  }
  return problems;
}
