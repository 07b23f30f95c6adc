// One desired item against its live counterpart: the action that brings it there, or nothing
// when it is unchanged. Pure; every kind's planning goes through here (plan-changes.ts).

import { digestOf, type JsonValue, sameValue } from "../canonical.js";
import type { DesiredItem, LiveItem, PlanContext } from "../kinds/kind.js";
import type { FieldChange, PlanAction } from "../kinds/plan-action.js";
import { registry } from "../kinds/registry.js";
import { requestsOf } from "../kinds/requests.js";
import { type CreateIntent, ownRecord } from "../state/model.js";
import type { Kind } from "./model.js";

const ABSENT = "sha256:absent";

/** `intents`: the interrupted creates to settle, undefined when there are none (most plans). */
export function planItem(
  kind: Kind,
  item: DesiredItem,
  context: PlanContext,
  intents: Readonly<Record<string, CreateIntent>> | undefined,
): PlanAction | undefined {
  const module = registry[kind];
  const lookup = module.lookupLive(item, context);
  let op: "create" | "update" | "unverified";
  let changes: FieldChange[];
  let live: LiveItem | undefined;
  let reason: string | undefined;
  // Only an absent resource can have an interrupted create to settle: the rest skip the lookup.
  const intent =
    lookup.status === "absent" && intents !== undefined
      ? ownRecord(intents, `${kind}/${item.key}`)
      : undefined;
  if (intent !== undefined) {
    // An earlier create was interrupted in flight. Where the kind can see that it did not
    // happen, it is planned again; where it cannot, it is never silently sent a second time.
    const doubt = module.intentDoubt?.(item, context);
    if (doubt !== undefined) {
      return {
        id: `${kind}/${item.key}`,
        kind,
        key: item.key,
        op: "uncertain",
        changes: newValues(item, false),
        operations: [],
        requests: [],
        dependsOn: [...item.dependsOn],
        live: { origin: "none", digest: ABSENT },
        reason: `a create started ${intent.startedAt} was interrupted before its answer was recorded, and ${doubt}; run \`notiform resolve ${kind}/${item.key} --id ID\` if it exists, or \`--not-created\` if it does not`,
        source: item.source.pos,
      };
    }
  }
  if (lookup.status === "absent") {
    op = "create";
    changes = newValues(item, false);
  } else if (lookup.status === "unknown") {
    op = "unverified";
    reason = lookup.reason;
    changes = newValues(item, true);
  } else {
    live = lookup.item;
    changes = diffFields(item, live);
    if (changes.length === 0) return undefined;
    const unknown = changes.some((change) => change.unknown === true);
    op = unknown ? "unverified" : "update";
    if (unknown)
      reason = "the state file has no record of some fields and the server does not let notiform read them";
  }
  const result = module.operationsFor(op, item, live, changes, context);
  const operations = "notApplicable" in result ? [] : result.operations;
  const action: PlanAction = {
    id: `${kind}/${item.key}`,
    kind,
    key: item.key,
    op: "notApplicable" in result ? "not-applicable" : op,
    changes,
    operations,
    requests: operations.flatMap(requestsOf),
    dependsOn: [...item.dependsOn],
    live:
      live === undefined
        ? { origin: "none", digest: ABSENT }
        : {
            origin: live.origin,
            digest: live.digest,
            ...(live.serverId ? { serverId: live.serverId } : {}),
            fields: fieldDigests(item, live),
          },
    source: item.source.pos,
  };
  const why = "notApplicable" in result ? result.notApplicable : reason;
  if (why !== undefined) action.reason = why;
  return action;
}

/**
 * Every field as new (a create), or as new of an unknown live value. A loop over the keys rather
 * than entries mapped: each create of a large apply makes these.
 */
function newValues(item: DesiredItem, unknown: boolean): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const field of Object.keys(item.fields)) {
    const value = item.fields[field] as JsonValue;
    changes.push(unknown ? { field, new: value, unknown: true } : { field, new: value });
  }
  return changes;
}

/** A digest per managed field the live object has, so a stale saved plan can name what moved. */
function fieldDigests(item: DesiredItem, live: LiveItem): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of Object.keys(item.fields).sort()) {
    if (Object.hasOwn(live.fields, field)) out[field] = digestOf(live.fields[field]);
  }
  return out;
}

function diffFields(item: DesiredItem, live: LiveItem): FieldChange[] {
  const known = live.knownFields === undefined ? undefined : new Set(live.knownFields);
  const changes: FieldChange[] = [];
  // Keys, not entries: this runs for every resource of a plan, and most have no change.
  for (const field of Object.keys(item.fields)) {
    const value = item.fields[field] as JsonValue;
    if (known !== undefined && !known.has(field)) {
      changes.push({ field, new: value, unknown: true });
      continue;
    }
    const old = live.fields[field];
    if (!sameValue(old, value))
      changes.push(old === undefined ? { field, new: value } : { field, old, new: value });
  }
  return changes;
}
