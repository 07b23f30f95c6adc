// The planner: a pure function (desired, live, state) -> Plan. No I/O, no clock, no logging.
// Both sides arrive in one canonical flat field model (src/kinds/), so comparing is a field
// by field equality of canonical JSON: an unchanged resource can never show as a change.

import { digestOf, type JsonValue, sameValue } from "../canonical.js";
import type { DesiredState } from "../config/model.js";
import { NotiformError } from "../errors.js";
import { desiredItemsOf } from "../kinds/desired-items.js";
import type { DesiredItem, KindModule, LiveItem, LiveSnapshot, PlanContext } from "../kinds/kind.js";
import type { FieldChange, PlanAction, PlanWarning, UnmanagedResource } from "../kinds/plan-action.js";
import { describeKind, KINDS, registry } from "../kinds/registry.js";
import { requestOf } from "../kinds/requests.js";
import { type Protect, unprotected } from "../secrets/keyed-digest.js";
import { type CreateIntent, ownRecord, type StateFile } from "../state/model.js";
import { type Kind, PLAN_FORMAT_VERSION, type Plan, type PlanTarget, summarizePlan } from "./model.js";
import { resolveGroupIds } from "./resolve-groups.js";

export interface PlanInput {
  desired: DesiredState;
  live: LiveSnapshot;
  state: StateFile;
  target: PlanTarget;
  createdBy: string;
  /** `--target KIND/KEY` filters: those resources and what they depend on. */
  targets?: readonly string[];
  /** Only these action ids (re-planning the objects of a saved plan); no unmanaged listing. */
  only?: ReadonlySet<string>;
  /** What the state file keeps of a value that held a secret (default: the value itself). */
  protect?: Protect;
}

const ABSENT = "sha256:absent";

export function planChanges(input: PlanInput): Plan {
  const warnings: PlanWarning[] = [];
  const { groupIds, groupKeys } = resolveGroupIds(input.desired, input.live, input.state, warnings);
  const context: PlanContext = {
    desired: input.desired,
    live: input.live,
    state: input.state,
    groupIds,
    groupKeys,
    warnings,
    protect: input.protect ?? unprotected,
  };

  const itemsByKind = new Map<Kind, readonly DesiredItem[]>();
  for (const kind of KINDS)
    itemsByKind.set(kind, desiredItemsOf(registry[kind] as KindModule<Kind>, input.desired));
  warnDuplicates(input.live, warnings);
  // undefined: everything is selected (the common case: no --target, not a saved plan's refresh).
  const selected = selectItems(itemsByKind, input.targets ?? [], input.only);
  // Most plans settle no interrupted create: then no item needs looking up among the intents.
  const intents = input.state.intents ?? {};
  const anyIntent = Object.keys(intents).length > 0;

  const actions: PlanAction[] = [];
  const resolvedIntents: string[] = [];
  let unchanged = 0;
  for (const kind of KINDS) {
    const items = [...(itemsByKind.get(kind) ?? [])].sort((a, b) => compareKeys(a.key, b.key));
    for (const item of items) {
      const id = selected === undefined && !anyIntent ? "" : `${kind}/${item.key}`;
      if (selected !== undefined && !selected.has(id)) continue;
      const action = planItem(kind, item, context, anyIntent ? intents : undefined);
      if (anyIntent && ownRecord(intents, id) !== undefined && action?.op !== "uncertain")
        resolvedIntents.push(id);
      if (action === undefined) unchanged += 1;
      else actions.push(action);
    }
  }

  // Most actions depend on nothing: the set of ids is made only when one does.
  let actionIds: Set<string> | undefined;
  for (const action of actions) {
    if (action.dependsOn.length === 0) continue;
    actionIds ??= new Set(actions.map((each) => each.id));
    const planned = actionIds;
    action.dependsOn = action.dependsOn.filter((id) => planned.has(id)).sort();
  }

  let unmanaged: UnmanagedResource[] = [];
  const unlisted = input.only === undefined ? (input.live.unlisted ?? []) : [];
  if (input.only === undefined) {
    for (const kind of KINDS) {
      if (unlisted.includes(kind)) continue;
      const managed = new Set((itemsByKind.get(kind) ?? []).map((item) => item.key));
      // By kind in KINDS order, by key within each: sorting kind by kind gives the order one sort
      // of the whole list by (kind, key) gives, without looking up two kinds' places per comparison.
      const listed = registry[kind].unmanaged(context, managed).sort((a, b) => compareKeys(a.key, b.key));
      // concat, not push(...): an organization can hold far more unmanaged items than the stack.
      unmanaged = unmanaged.concat(listed);
    }
  }

  // Null prototype: group keys are user data, and "__proto__" is a fine key.
  const bindings: Record<string, string> = Object.create(null);
  for (const group of input.desired.resources.notificationGroup) {
    const id = groupIds.get(group.spec.key);
    if (id !== undefined) bindings[group.spec.key] = id;
  }

  return {
    formatVersion: PLAN_FORMAT_VERSION,
    createdBy: input.createdBy,
    target: input.target,
    configDigest: input.desired.digest,
    ...(input.desired.shapeDigest !== undefined ? { configShapeDigest: input.desired.shapeDigest } : {}),
    actions,
    unmanaged,
    ...(unlisted.length > 0 ? { unmanagedNotListed: [...unlisted] } : {}),
    bindings: { notificationGroups: bindings },
    resolvedIntents,
    warnings,
    summary: summarizePlan({ actions, unmanaged }, unchanged),
  };
}

/** A warning for every identity the server holds more than once: only one of them is managed. */
function warnDuplicates(live: LiveSnapshot, warnings: PlanWarning[]): void {
  for (const kind of KINDS) {
    for (const identity of live.duplicates[kind] ?? []) {
      warnings.push({
        code: "duplicate-on-server",
        message: `the server holds more than one ${describeKind(kind)} ${identity}; notiform manages one of them and cannot tell which the others are meant to be`,
      });
    }
  }
}

/** `intents`: the interrupted creates to settle, undefined when there are none (most plans). */
function planItem(
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
    requests: operations.map(requestOf),
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

/**
 * The action ids `--target` selects (with their dependencies), checked against the config before
 * anything is read; undefined without targets (everything).
 */
export function selectTargets(desired: DesiredState, targets: readonly string[]): Set<string> | undefined {
  if (targets.length === 0) return undefined;
  const itemsByKind = new Map<Kind, readonly DesiredItem[]>();
  for (const kind of KINDS)
    itemsByKind.set(kind, desiredItemsOf(registry[kind] as KindModule<Kind>, desired));
  // Never undefined here: there are targets.
  return selectItems(itemsByKind, targets, undefined) ?? new Set<string>();
}

/** The action ids to plan: everything, or the targets and their transitive dependencies. */
function selectItems(
  itemsByKind: ReadonlyMap<Kind, readonly DesiredItem[]>,
  targets: readonly string[],
  only: ReadonlySet<string> | undefined,
): Set<string> | undefined {
  if (only === undefined && targets.length === 0) return undefined;
  const byId = new Map<string, DesiredItem>();
  for (const [kind, items] of itemsByKind) for (const item of items) byId.set(`${kind}/${item.key}`, item);
  if (only !== undefined) return new Set([...only].filter((id) => byId.has(id)));
  const selected = new Set<string>();
  const visit = (id: string) => {
    if (selected.has(id)) return;
    const item = byId.get(id);
    if (item === undefined) return;
    selected.add(id);
    for (const dependency of item.dependsOn) visit(dependency);
  };
  for (const target of targets) {
    if (!byId.has(target)) {
      throw new NotiformError("USAGE", `--target ${target}: no such resource in the config`, {
        hint: `Use KIND/KEY with KIND one of ${KINDS.join(", ")}; an override's key is WORKFLOW@TENANT.`,
      });
    }
    visit(target);
  }
  return selected;
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
