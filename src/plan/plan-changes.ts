// The planner: a pure function (desired, live, state) -> Plan. No I/O, no clock, no logging.
// Both sides arrive in one canonical flat field model (src/kinds/), so comparing is a field
// by field equality of canonical JSON: an unchanged resource can never show as a change.
//
// It plans kind by kind (startPlan): a kind is planned once its read and the reads it declares
// (KindModule.planReads) are in, a slice of items at a time, so the I/O edge can plan the fast
// kinds while the slow ones are still being read. Each kind's actions, warnings and unmanaged
// list are kept apart and joined in the registry's order, so the plan is the same whatever
// order the reads come in; planChanges is the same planner with the whole snapshot at once.

import type { DesiredState } from "../config/model.js";
import { InternalError, NotiformError } from "../errors.js";
import { desiredItemsOf } from "../kinds/desired-items.js";
import type { DesiredItem, KindModule, LiveShare, LiveSnapshot, PlanContext } from "../kinds/kind.js";
import type { PlanAction, PlanWarning, UnmanagedResource } from "../kinds/plan-action.js";
import { describeKind, KINDS, registry } from "../kinds/registry.js";
import { type Protect, unprotected } from "../secrets/keyed-digest.js";
import { type CreateIntent, ownRecord, type StateFile } from "../state/model.js";
import { withholdHeldSecrets } from "./held-secrets.js";
import { type Kind, PLAN_FORMAT_VERSION, type Plan, type PlanTarget, summarizePlan } from "./model.js";
import { planItem } from "./plan-item.js";
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

/** A plan's input before any kind's read is in: the snapshot's facts known from the start. */
export type PlanStart = Omit<PlanInput, "live"> & {
  live: Pick<LiveSnapshot, "organization" | "environment">;
};

/** A plan made kind by kind as the reads come in (startPlan). */
export interface PlanInTurns {
  /** A kind's read is in. */
  take<K extends Kind>(kind: K, share: LiveShare<K>): void;
  /**
   * Plans at most `budget` more items (or one kind's sort or unmanaged listing) of what can be
   * planned now; true while more of that remains. Never throws: a kind's failure is kept for
   * finish, which throws the first kind's in the registry's order, as planning them in turn would.
   */
  step(budget: number): boolean;
  /** The resources planned so far, of all the plan covers. */
  progress(): { planned: number; total: number };
  /** Once every kind's read is in: plans what is left and returns the plan. */
  finish(): Plan;
}

export function planChanges(input: PlanInput): Plan {
  const planning = startPlan(input);
  for (const kind of KINDS) planning.take(kind, shareOf(input.live, kind));
  return planning.finish();
}

/** One kind's share of a whole snapshot (what readLive hands over as that kind's read ends). */
export function shareOf<K extends Kind>(live: LiveSnapshot, kind: K): LiveShare<K> {
  return {
    live: live.kinds[kind],
    duplicates: live.duplicates[kind] ?? [],
    unlisted: live.unlisted?.includes(kind) === true,
  };
}

/** Where one kind's planning stands. */
interface KindTurn {
  kind: Kind;
  /** Its selected items; sorted by key once `sorted`. */
  items: DesiredItem[];
  sorted: boolean;
  /** The keys of all its items, for the unmanaged list (made with the sort). */
  managed?: ReadonlySet<string>;
  share?: LiveShare<Kind>;
  /** Made once the kind can be planned (its reads, and the groups' ids where it reads them). */
  context?: PlanContext;
  next: number;
  actions: PlanAction[];
  resolvedIntents: string[];
  unchanged: number;
  warnings: PlanWarning[];
  /** Its unmanaged list once made (never made for a saved plan's refresh). */
  unmanaged?: UnmanagedResource[];
  unmanagedWarnings: PlanWarning[];
  failed?: { error: unknown };
}

export function startPlan(input: PlanStart): PlanInTurns {
  const itemsByKind = new Map<Kind, readonly DesiredItem[]>();
  for (const kind of KINDS)
    itemsByKind.set(kind, desiredItemsOf(registry[kind] as KindModule<Kind>, input.desired));
  // undefined: everything is selected (the common case: no --target, not a saved plan's refresh).
  const selected = selectItems(itemsByKind, input.targets ?? [], input.only);
  // Most plans settle no interrupted create: then no item needs looking up among the intents.
  const intents = input.state.intents ?? {};
  const anyIntent = Object.keys(intents).length > 0;
  const protect = input.protect ?? unprotected;
  const listsUnmanaged = input.only === undefined;

  const turns = new Map<Kind, KindTurn>();
  for (const kind of KINDS) {
    const all = itemsByKind.get(kind) ?? [];
    turns.set(kind, {
      kind,
      items: selected === undefined ? [...all] : all.filter((item) => selected.has(`${kind}/${item.key}`)),
      sorted: false,
      next: 0,
      actions: [],
      resolvedIntents: [],
      unchanged: 0,
      warnings: [],
      unmanagedWarnings: [],
    });
  }
  const groupWarnings: PlanWarning[] = [];
  let groups: { groupIds: Map<string, string>; groupKeys: Map<string, string> } | undefined;
  const noGroups = { groupIds: new Map<string, string>(), groupKeys: new Map<string, string>() };

  /** The facts a kind's planning may read: its own live state and what it declares it reads. */
  const contextOf = (turn: KindTurn): PlanContext | undefined => {
    const reads = [turn.kind, ...(registry[turn.kind].planReads ?? [])];
    const kinds: Partial<Record<Kind, unknown>> = {};
    for (const kind of reads) {
      const share = turns.get(kind)?.share;
      if (share === undefined) return undefined;
      kinds[kind] = share.live;
    }
    const ids = reads.includes("notificationGroup") ? groups : noGroups;
    if (ids === undefined) return undefined;
    return {
      desired: input.desired,
      live: {
        organization: input.live.organization,
        ...(input.live.environment !== undefined ? { environment: input.live.environment } : {}),
        kinds: kinds as LiveSnapshot["kinds"],
        duplicates: {},
      },
      state: input.state,
      groupIds: ids.groupIds,
      groupKeys: ids.groupKeys,
      warnings: turn.warnings,
      protect,
    };
  };

  /** One piece of a kind's planning; false when the kind has none left that can be done now. */
  const stepKind = (turn: KindTurn, budget: number): boolean => {
    if (turn.failed !== undefined) return false;
    if (!turn.sorted) {
      // Needs no live state: done while the reads are in flight.
      turn.items.sort((a, b) => compareKeys(a.key, b.key));
      turn.sorted = true;
      if (listsUnmanaged) turn.managed = new Set((itemsByKind.get(turn.kind) ?? []).map((item) => item.key));
      return true;
    }
    const context = turn.context ?? contextOf(turn);
    if (context === undefined) return false;
    turn.context = context;
    try {
      if (turn.next < turn.items.length) {
        const end = Math.min(turn.items.length, turn.next + Math.max(1, budget));
        for (; turn.next < end; turn.next += 1) planOne(turn, turn.items[turn.next] as DesiredItem, context);
        return true;
      }
      if (listsUnmanaged && turn.unmanaged === undefined && turn.share?.unlisted === false) {
        // Sorted by key within the kind; the kinds are joined in the registry's order.
        turn.unmanaged = registry[turn.kind]
          .unmanaged({ ...context, warnings: turn.unmanagedWarnings }, turn.managed ?? new Set())
          .sort((a, b) => compareKeys(a.key, b.key));
        return true;
      }
    } catch (error) {
      turn.failed = { error };
    }
    return false;
  };

  const planOne = (turn: KindTurn, item: DesiredItem, context: PlanContext): void => {
    const action = planItem(turn.kind, item, context, anyIntent ? intents : undefined);
    // The id is made only where there are intents to settle (most plans have none).
    if (anyIntent) {
      const id = `${turn.kind}/${item.key}`;
      if (ownRecord<CreateIntent>(intents, id) !== undefined && action?.op !== "uncertain")
        turn.resolvedIntents.push(id);
    }
    if (action === undefined) turn.unchanged += 1;
    else turn.actions.push(action);
  };

  const take = <K extends Kind>(kind: K, share: LiveShare<K>): void => {
    const turn = turns.get(kind);
    if (turn === undefined || turn.share !== undefined)
      throw new InternalError(`the read of ${kind} was handed to the planner twice`);
    turn.share = share as LiveShare<Kind>;
    if (kind === "notificationGroup") {
      const live = share.live as LiveShare<"notificationGroup">["live"];
      groups = resolveGroupIds(input.desired, live, input.state, groupWarnings);
    }
  };

  const step = (budget: number): boolean => {
    for (const turn of turns.values()) if (stepKind(turn, budget)) return true;
    return false;
  };

  const finish = (): Plan => {
    for (const turn of turns.values()) {
      if (turn.share === undefined) throw new InternalError(`planned before the read of ${turn.kind}`);
      while (stepKind(turn, Number.POSITIVE_INFINITY));
    }
    for (const turn of turns.values()) if (turn.failed !== undefined) throw turn.failed.error;
    return assemble(input, [...turns.values()], groups ?? noGroups, groupWarnings, listsUnmanaged);
  };

  const progress = () => {
    let planned = 0;
    let total = 0;
    for (const turn of turns.values()) {
      planned += turn.next;
      total += turn.items.length;
    }
    return { planned, total };
  };

  return { take, step, progress, finish };
}

/** The kinds' parts joined in the registry's order (turns are in it), as one plan. */
function assemble(
  input: PlanStart,
  turns: readonly KindTurn[],
  groups: { groupIds: ReadonlyMap<string, string> },
  groupWarnings: readonly PlanWarning[],
  listsUnmanaged: boolean,
): Plan {
  // concat, never push(...): a kind can hold far more actions, intents or warnings than the stack.
  let warnings: PlanWarning[] = [...groupWarnings];
  for (const turn of turns) {
    for (const identity of turn.share?.duplicates ?? []) {
      warnings.push({
        code: "duplicate-on-server",
        message: `the server holds more than one ${describeKind(turn.kind)} ${identity}; notiform manages one of them and cannot tell which the others are meant to be`,
      });
    }
  }
  let actions: PlanAction[] = [];
  let resolvedIntents: string[] = [];
  let unchanged = 0;
  for (const turn of turns) {
    actions = actions.concat(turn.actions);
    resolvedIntents = resolvedIntents.concat(turn.resolvedIntents);
    unchanged += turn.unchanged;
    warnings = warnings.concat(turn.warnings);
  }

  // An action waits for those it depends on, and is skipped when one is. Not for one that sends
  // nothing to a resource the server has (not applicable there): what depends on it needs only
  // that resource's id. Most actions depend on nothing: the set of ids is made only when one does.
  let awaited: Set<string> | undefined;
  for (const action of actions) {
    if (action.dependsOn.length === 0) continue;
    awaited ??= new Set(
      actions
        .filter((each) => each.op !== "not-applicable" || each.live.origin === "none")
        .map((each) => each.id),
    );
    const planned = awaited;
    action.dependsOn = action.dependsOn.filter((id) => planned.has(id)).sort();
  }

  let unmanaged: UnmanagedResource[] = [];
  const unlisted: Kind[] = [];
  for (const turn of turns) {
    if (!listsUnmanaged) continue;
    if (turn.share?.unlisted === true) unlisted.push(turn.kind);
    unmanaged = unmanaged.concat(turn.unmanaged ?? []);
    warnings = warnings.concat(turn.unmanagedWarnings);
  }

  // Null prototype: group keys are user data, and "__proto__" is a fine key.
  const bindings: Record<string, string> = Object.create(null);
  for (const group of input.desired.resources.notificationGroup) {
    const id = groups.groupIds.get(group.spec.key);
    if (id !== undefined) bindings[group.spec.key] = id;
  }

  return {
    formatVersion: PLAN_FORMAT_VERSION,
    createdBy: input.createdBy,
    target: input.target,
    configDigest: input.desired.digest,
    ...(input.desired.shapeDigest !== undefined ? { configShapeDigest: input.desired.shapeDigest } : {}),
    // A field whose live value is a secret the config no longer names: its old side is withheld.
    actions: withholdHeldSecrets(actions, input.state.heldSecrets, input.protect ?? unprotected),
    unmanaged,
    ...(unlisted.length > 0 ? { unmanagedNotListed: unlisted } : {}),
    bindings: { notificationGroups: bindings },
    resolvedIntents,
    warnings,
    summary: summarizePlan({ actions, unmanaged }, unchanged),
  };
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

/** The id (`kind/key`) of every resource the config holds. */
export function desiredIds(desired: DesiredState): string[] {
  return KINDS.flatMap((kind) =>
    desiredItemsOf(registry[kind] as KindModule<Kind>, desired).map((item) => `${kind}/${item.key}`),
  );
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
