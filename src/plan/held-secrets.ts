// Fields whose value on the server holds a secret (the state file's heldSecrets). A value that
// came from the environment is masked wherever it is shown, but only while the config still takes
// it from there: once a field's `${VAR}` is replaced by a literal, or the variable is renamed and
// rotated, the live value a plan shows as the field's old side is the old secret, which nothing
// registers any more. The state file therefore names (never holds) the fields an apply sent such a
// value to, and the planner withholds their old side. A field's name may hold a secret itself (a
// step named from the environment names its fields): such a name is kept as its keyed digest
// (Protect), as the state keeps values. Where no field record reaches (a request carrying a step
// as the server holds it, a group named in a workflow's field, an unmanaged name), the texts
// themselves are found again by their keyed digests (the state's secretValues). Pure: desired,
// state and plan in; names, digests and withheld plans out.
import type { JsonValue } from "../canonical.js";
import type { DesiredState } from "../config/model.js";
import { desiredItemsOf } from "../kinds/desired-items.js";
import type { KindModule } from "../kinds/kind.js";
import type { FieldChange, PlanAction } from "../kinds/plan-action.js";
import { KINDS, registry } from "../kinds/registry.js";
import { MASK, type Masker } from "../mask.js";
import type { KeyedDigest, Protect } from "../secrets/keyed-digest.js";
import { ownRecord, type StateFile } from "../state/model.js";
import type { Kind, Plan } from "./model.js";

/** What a plan shows of a value held back: the mask every secret is shown as. */
export const WITHHELD = MASK;

/**
 * Plan action id -> the desired fields whose value holds a value from the environment (`holds`,
 * from secretHolder), each list sorted; empty when nothing came from the environment.
 */
export function secretFieldsOf(
  desired: DesiredState,
  holds: ((value: JsonValue) => boolean) | undefined,
): Map<string, string[]> {
  const fields = new Map<string, string[]>();
  if (holds === undefined) return fields;
  for (const kind of KINDS) {
    for (const item of desiredItemsOf(registry[kind] as KindModule<Kind>, desired)) {
      const held = Object.keys(item.fields)
        .filter((field) => holds(item.fields[field] as JsonValue))
        .sort();
      if (held.length > 0) fields.set(`${kind}/${item.key}`, held);
    }
  }
  return fields;
}

/**
 * The actions with the old side of every change to a field the state says holds a secret
 * withheld (WITHHELD). Actions with none are returned as they are; nothing is changed in place.
 */
export function withholdHeldSecrets(
  actions: PlanAction[],
  heldSecrets: StateFile["heldSecrets"],
  protect: Protect,
): PlanAction[] {
  if (heldSecrets === undefined || Object.keys(heldSecrets).length === 0) return actions;
  return withholdOld(actions, (action) => {
    const record = ownRecord(heldSecrets, action.id);
    if (record === undefined) return undefined;
    const held = new Set(record);
    return (change) => held.has(nameAsKept(change.field, protect));
  });
}

/**
 * The actions with the old side of each change `withheldIn(action)` picks withheld (undefined:
 * none of that action's); the very list, and each action, where none is.
 */
function withholdOld(
  actions: PlanAction[],
  withheldIn: (action: PlanAction) => ((change: FieldChange) => boolean) | undefined,
): PlanAction[] {
  let any = false;
  const out = actions.map((action) => {
    const withheld = withheldIn(action);
    if (withheld === undefined) return action;
    let changed = false;
    const changes = action.changes.map((change) => {
      if (change.old === undefined || change.old === WITHHELD || !withheld(change)) return change;
      changed = true;
      return { ...change, old: WITHHELD };
    });
    if (!changed) return action;
    any = true;
    return { ...action, changes };
  });
  return any ? out : actions;
}

/** A field's name as heldSecrets keeps it: itself, or its keyed digest when it holds a secret. */
function nameAsKept(field: string, protect: Protect): string {
  return String(protect(field));
}

/**
 * The state's heldSecrets before an apply sends anything: every desired field holding a value
 * from the environment is added (the writes about to go put it on the server, or it is there
 * already). With `inSync`, the plan of every desired resource, a recorded field the config now
 * manages without such a value and the plan leaves unchanged is released: the server holds the
 * config's value there. A field of a resource the config no longer manages, or no longer sets,
 * stays: the server still holds what was sent.
 */
export function heldSecretsBeforeApply(
  held: StateFile["heldSecrets"],
  desired: DesiredState,
  holds: ((value: JsonValue) => boolean) | undefined,
  inSync: { actions: readonly PlanAction[] } | undefined,
  protect: Protect,
): Record<string, string[]> {
  const secret = secretFieldsOf(desired, holds);
  const next: Record<string, string[]> = Object.create(null);
  const recorded = held === undefined ? [] : Object.keys(held);
  if (recorded.length > 0) {
    const settled = inSync === undefined ? undefined : settledFields(desired, inSync.actions, protect);
    for (const id of recorded) {
      const fields = (held?.[id] ?? []).filter((field) => settled?.(id, field) !== true);
      if (fields.length > 0) next[id] = fields;
    }
  }
  for (const [id, fields] of secret) {
    const kept = fields.map((field) => nameAsKept(field, protect));
    next[id] = [...new Set([...(ownRecord(next, id) ?? []), ...kept])].sort();
  }
  return next;
}

/**
 * Whether the server holds a field's desired value (the field as kept): the config manages it and
 * the plan changes nothing there.
 */
function settledFields(
  desired: DesiredState,
  actions: readonly PlanAction[],
  protect: Protect,
): (id: string, field: string) => boolean {
  const kept = (fields: Iterable<string>) => new Set([...fields].map((field) => nameAsKept(field, protect)));
  const managed = new Map<string, ReadonlySet<string>>();
  for (const kind of KINDS) {
    for (const item of desiredItemsOf(registry[kind] as KindModule<Kind>, desired))
      managed.set(`${kind}/${item.key}`, kept(Object.keys(item.fields)));
  }
  const changed = new Map(actions.map((action) => [action.id, kept(action.changes.map((c) => c.field))]));
  return (id, field) => managed.get(id)?.has(field) === true && changed.get(id)?.has(field) !== true;
}

/**
 * The state's secretValues before an apply sends anything: with the recorded ones, the keyed
 * digest of every text the desired fields hold (a name, a step's name, a template, a string in
 * data) that holds a value from the environment. What the server holds of such a text is the
 * secret, whatever field or resource it is found in later: a name in the unmanaged list
 * (withholdSecretValues), a promotion's step, an exported value.
 */
export function secretValuesBeforeApply(
  recorded: readonly string[] | undefined,
  desired: DesiredState,
  holds: ((value: JsonValue) => boolean) | undefined,
  keyed: KeyedDigest,
): string[] {
  const values = new Set(recorded ?? []);
  if (holds !== undefined) {
    for (const kind of KINDS) {
      for (const item of desiredItemsOf(registry[kind] as KindModule<Kind>, desired)) {
        for (const field of Object.keys(item.fields)) {
          const value = item.fields[field] as JsonValue;
          if (!holds(value)) continue;
          for (const text of textsIn(value)) if (holds(text)) values.add(keyed(text));
        }
      }
    }
  }
  return [...values].sort();
}

/**
 * Whether a value holds a text whose keyed digest is among `values` (the state's secretValues),
 * anywhere inside it.
 */
export function holdsSecretValue(value: unknown, values: ReadonlySet<string>, keyed: KeyedDigest): boolean {
  for (const text of textsIn(value)) if (values.has(keyed(text))) return true;
  return false;
}

/** Every string inside a plain JSON value (object keys aside). */
function* textsIn(value: unknown): Generator<string> {
  if (typeof value === "string") yield value;
  else if (Array.isArray(value)) for (const each of value) yield* textsIn(each);
  else if (value !== null && typeof value === "object")
    for (const each of Object.values(value)) yield* textsIn(each);
}

/**
 * The plan with every text the state's secretValues name withheld wherever heldSecrets did not
 * reach it: an unmanaged resource's name, and the old side of a change that holds one elsewhere
 * (a workflow's group, named by a group name that held a secret).
 */
function withholdSecretValues(
  plan: Plan,
  secretValues: readonly string[] | undefined,
  keyed: KeyedDigest,
): Plan {
  if (secretValues === undefined || secretValues.length === 0) return plan;
  const values = new Set(secretValues);
  const held = (value: unknown) => holdsSecretValue(value, values, keyed);
  const actions = withholdOld(plan.actions, () => (change) => held(change.old));
  const unmanaged = plan.unmanaged.some((resource) => held(resource.name))
    ? plan.unmanaged.map((resource) => (held(resource.name) ? { ...resource, name: WITHHELD } : resource))
    : plan.unmanaged;
  return actions === plan.actions && unmanaged === plan.unmanaged ? plan : { ...plan, actions, unmanaged };
}

/**
 * The plan as it is shown of the texts the state's secretValues name: withheld where an old side
 * or an unmanaged name holds one (withholdSecretValues), and each one it still carries registered
 * with `masker` (heldTextsOf). A plan and a saved plan's fresh one are both made so: the saved
 * one is compared as it was shown.
 */
export function withholdAndMaskSecretValues(
  plan: Plan,
  secretValues: readonly string[] | undefined,
  keyed: KeyedDigest,
  masker: Masker,
): Plan {
  const withheld = withholdSecretValues(plan, secretValues, keyed);
  masker.addAll(heldTextsOf(withheld, secretValues, keyed, (text) => masker.mask(text)));
  return withheld;
}

/**
 * The texts in a plan (changes, the requests' bodies, unmanaged names) whose keyed digest is
 * among `secretValues`: secrets the config no longer names, found again in what the server holds.
 * A request may carry one the plan does not change (a workflow's PUT carries every step as the
 * server holds it): registered with the masker, each is masked wherever the plan is shown.
 * Not a text `mask` already changes: it holds a value the config still names, which is masked
 * as ever ("new ********"). Masked whole, it would read otherwise once recorded, and a saved
 * plan re-run after an interrupted apply (which records what it sends first) would be stale.
 */
export function heldTextsOf(
  plan: Plan,
  secretValues: readonly string[] | undefined,
  keyed: KeyedDigest,
  mask: (text: string) => string,
): string[] {
  if (secretValues === undefined || secretValues.length === 0) return [];
  const values = new Set(secretValues);
  const found = new Set<string>();
  const visit = (value: unknown) => {
    for (const text of textsIn(value)) if (values.has(keyed(text)) && mask(text) === text) found.add(text);
  };
  for (const action of plan.actions) {
    for (const change of action.changes) visit([change.old, change.new]);
    for (const request of action.requests) visit(request.body);
  }
  for (const resource of plan.unmanaged) visit(resource.name);
  return [...found];
}
