// Before planning (I/O edge): each kind that can name its server records by portable identifiers
// turns them into the ids of the environment the key reaches (see KindModule.resolve). Kinds
// resolve in registry order, so an override sees its workflow's resolved id. Every entry that
// cannot be resolved is reported at once, at its position.

import { setImmediate as nextTurn } from "node:timers/promises";
import type { DesiredState, Resources } from "../config/model.js";
import { ConfigError, type Problem } from "../errors.js";
import type { IdentifierSection } from "../state/model.js";
import { desiredItemsInTurns } from "./desired-items.js";
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
  const shared = problems.length === 0 ? await sharedServerObjects(current) : [];
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
async function sharedServerObjects(desired: DesiredState): Promise<Problem[]> {
  const problems: Problem[] = [];
  for (const kind of KINDS) {
    const module = registry[kind] as KindModule<Kind>;
    const seen = new Map<string, DesiredItem>();
    // A plan runs this while its reads are in flight, on the thread that reads their answers and
    // sends the next requests: it yields a turn of the event loop now and then (tens of ms on a
    // large config would otherwise hold every connection idle).
    await nextTurn();
    const items = await desiredItemsInTurns(module, desired, nextTurn);
    for (let index = 0; index < items.length; index += 1) {
      if (index % YIELD_EVERY === YIELD_EVERY - 1) await nextTurn();
      const item = items[index] as DesiredItem;
      const identity = serverIdentity(item.ids);
      if (identity === undefined) continue;
      const first = seen.get(identity);
      if (first === undefined) {
        seen.set(identity, item);
        continue;
      }
      const where = `${first.source.pos.file}:${first.source.pos.line}`;
      problems.push({
        severity: "error",
        rule: "same-server-object",
        message: `${describeKind(kind)} "${item.key}" is the same server object as "${first.key}" (${where}): ${namedIds(item.ids)}; keep one entry`,
        pos: item.source.pos,
      });
    }
  }
  return problems;
}

/** Items between two turns of the event loop in sharedServerObjects (a few ms of work). */
const YIELD_EVERY = 1000;

/**
 * The server object an item names: its ids by name (names sorted), or undefined when it names
 * none yet (no ids, or one still unresolved).
 */
function serverIdentity(ids: Readonly<Record<string, string>>): string | undefined {
  const names = Object.keys(ids);
  if (names.length === 0) return undefined;
  if (names.length > 1) names.sort();
  const values: string[] = [];
  for (const name of names) {
    const id = ids[name] as string;
    if (id === "") return undefined;
    values.push(id);
  }
  return `${names.join("\n")}\n${JSON.stringify(values)}`;
}

/** "tenantId 65…, workflowId 64…": an item's ids as the message names them, by name. */
function namedIds(ids: Readonly<Record<string, string>>): string {
  return Object.keys(ids)
    .sort()
    .map((name) => `${name} ${ids[name]}`)
    .join(", ");
}
