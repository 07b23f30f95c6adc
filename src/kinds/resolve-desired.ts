// Before planning (I/O edge): each kind that can name its server records by portable identifiers
// turns them into the ids of the environment the key reaches (see KindModule.resolve). Kinds
// resolve in registry order, so an override sees its workflow's resolved id. Every entry that
// cannot be resolved is reported at once, at its position.

import type { DesiredState, Resources } from "../config/model.js";
import { ConfigError, type Problem } from "../errors.js";
import type { IdentifierSection } from "../state/model.js";
import type { KindModule, ResolveContext } from "./kind.js";
import type { NotificationApi } from "./notification-api.js";
import { KINDS, type Kind, registry } from "./registry.js";

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
  if (problems.length > 0) {
    throw new ConfigError(
      problems,
      `${problems.length === 1 ? "an identifier" : `${problems.length} identifiers`} could not be resolved in this environment`,
      desired.sensitive,
    );
  }
  return { desired: current, identifiers };
}
