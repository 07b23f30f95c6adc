// Promotion as a real server models it: a write records a change of the written entity in the
// environment written (one pending change per entity: a later write before promotion rewrites
// that change's diff instead of adding another), and applying a Development change copies the
// entity's current Development state into Production (a new record with `_parentId` = the
// Development id the first time, an update of that record afterwards). Production's own writes
// are recorded too and listed to a Production key (r3-q1-17, r3-q3-21), but Production has no
// environment to promote into: applying one is 404 (r3-q2-16). Never touches the network or the
// clock: `now` comes in.
import type { NotificationGroup } from "../kinds/notification-group/wire.js";
import type { Step, Workflow } from "../kinds/workflow/wire.js";
import { applyOps, diffOps } from "./change-diff.js";
import { notFound } from "./http-error.js";
import { promoteLayout } from "./promote-layout.js";
import {
  type Change,
  type ChangeType,
  CREATOR_ID,
  type EmulatorData,
  type EmulatorStore,
  type EnvironmentName,
  nextId,
} from "./store.js";

type Json = Record<string, unknown>;

/** The entity as JSON, without what a read joins in (the workflow's notificationGroup). */
function snapshot(entity: object): Json {
  const { notificationGroup: _joined, ...rest } = entity as Json;
  return JSON.parse(JSON.stringify(rest)) as Json;
}

/** What the entity looked like when last promoted: the ops of its promoted changes, in order. */
function promotedState(data: EmulatorData, type: ChangeType, entityId: string): Json {
  const state: Json = {};
  for (const change of data.changes)
    if (change.enabled && change.type === type && change._entityId === entityId)
      applyOps(state, change.change);
  return state;
}

/**
 * Record a write of `entity` in `environment`. The pending change of the entity, when there is
 * one, is rewritten (diff from the promoted state to now) and keeps its id; else a new one is added.
 */
export function recordChange(
  data: EmulatorData,
  environment: EnvironmentName,
  type: ChangeType,
  entity: { _id: string },
  now: string,
  parentChangeId?: string,
): Change {
  const environmentId = data.environments[environment].environmentId;
  const ops = diffOps(promotedState(data, type, entity._id), snapshot(entity));
  const pending = data.changes.find(
    (c) => !c.enabled && c.type === type && c._entityId === entity._id && c._environmentId === environmentId,
  );
  if (pending !== undefined) {
    pending.change = ops;
    pending.updatedAt = now;
    return pending;
  }
  const change: Change = {
    _id: nextId(data),
    type,
    _entityId: entity._id,
    ...(parentChangeId !== undefined ? { _parentId: parentChangeId } : {}),
    enabled: false,
    change: ops,
    _environmentId: environmentId,
    _organizationId: data.organization._id,
    _creatorId: CREATOR_ID,
    createdAt: now,
    updatedAt: now,
  };
  data.changes.push(change);
  return change;
}

/**
 * A workflow write: its change, plus a MessageTemplate child per step template not yet recorded.
 * The pending Layout change of each layout in `named` (the layouts the write's steps name in
 * `layoutId`) becomes a child of the workflow's change too, wherever it was: a real server
 * re-parents it on every step template write naming the layout (UpdateMessageTemplate and
 * CreateMessageTemplate in Novu's source; r3-q3-15, -20, -22 show a workflow created with one):
 * it leaves the list and is applied with the workflow. A DefaultLayout change is not moved
 * (r3-q1-05).
 */
export function recordWorkflowChange(
  data: EmulatorData,
  environment: EnvironmentName,
  workflow: Workflow,
  now: string,
  named: ReadonlySet<string> = new Set(),
): Change {
  const parent = recordChange(data, environment, "NotificationTemplate", workflow, now);
  for (const step of workflow.steps) {
    const template = step.template;
    if (template === undefined || typeof template._id !== "string") continue;
    if (data.changes.some((c) => c._parentId === parent._id && c._entityId === template._id)) continue;
    recordChange(data, environment, "MessageTemplate", template as { _id: string }, now, parent._id);
  }
  for (const change of data.changes) {
    if (change.enabled || change.type !== "Layout" || !named.has(change._entityId)) continue;
    if (change._environmentId === parent._environmentId) change._parentId = parent._id;
  }
  return parent;
}

type StepLike = { template?: Record<string, unknown>; variants?: StepLike[] };

/** The layouts a write's steps (and their variants) name in `layoutId`. */
export function layoutsNamed(steps: readonly unknown[]): Set<string> {
  const named = new Set<string>();
  const visit = (step: StepLike) => {
    const id = step.template?.layoutId;
    if (typeof id === "string") named.add(id);
    for (const variant of step.variants ?? []) visit(variant);
  };
  for (const step of steps) if (step !== null && typeof step === "object") visit(step as StepLike);
  return named;
}

/** A change as the list answers it: who made it and the name of what it changes. */
export function describeChange(data: EmulatorData, change: Change): Json {
  const store = storeOf(data, change._environmentId);
  const user = { _id: CREATOR_ID, firstName: "Emulated", lastName: "User" };
  if (change.type === "NotificationTemplate") {
    const workflow = store.workflows.find((w) => w._id === change._entityId);
    return { ...change, user, templateId: change._entityId, templateName: workflow?.name ?? "" };
  }
  if (change.type === "Layout" || change.type === "DefaultLayout") {
    const layout = store.layouts?.find((l) => l._id === change._entityId);
    return { ...change, user, templateName: layout?.name ?? "" };
  }
  const group = store.notificationGroups.find((g) => g._id === change._entityId);
  return { ...change, user, templateName: group?.name ?? "" };
}

function storeOf(data: EmulatorData, environmentId: string): EmulatorStore {
  const production = data.environments.production;
  return production.environmentId === environmentId ? production : data.environments.development;
}

/** Top-level changes of an environment (children travel with their parent), newest first. */
export function listChanges(data: EmulatorData, environmentId: string, promoted: boolean): Change[] {
  return data.changes
    .filter((c) => c._environmentId === environmentId && c._parentId === undefined && c.enabled === promoted)
    .reverse();
}

/**
 * POST /v1/changes/{id}/apply: promote the entity, mark the change and its children applied, and
 * answer them (children first) as they were before, like a real server (`enabled: false`). An
 * applied change may be applied again: it copies the current Development state once more.
 */
export function applyChange(
  data: EmulatorData,
  environmentId: string,
  changeId: string,
  now: string,
): Change[] {
  const parent = data.changes.find(
    (c) => c._id === changeId && c._parentId === undefined && c._environmentId === environmentId,
  );
  if (parent === undefined) throw notFound("Parent Change not found");
  // Production's own changes have nowhere to go: a real server looks for an environment below it.
  if (environmentId !== data.environments.development.environmentId)
    throw notFound(`Environment ${environmentId} not found`);
  const family = [...data.changes.filter((c) => c._parentId === parent._id), parent];
  const answer = family.map((c) => structuredClone(c));
  // A layout's change nested under a workflow's is promoted with it, before it (r3-q3-22).
  for (const child of family)
    if (child !== parent && child.type === "Layout") promoteLayout(data, child._entityId, now);
  if (parent.type === "NotificationGroup") promoteGroup(data, parent._entityId, now);
  else if (parent.type === "Layout" || parent.type === "DefaultLayout")
    promoteLayout(data, parent._entityId, now);
  else promoteWorkflow(data, parent._entityId, now);
  for (const change of family) {
    change.enabled = true;
    change.updatedAt = now;
  }
  return answer;
}

function promoteGroup(data: EmulatorData, groupId: string, now: string): NotificationGroup | undefined {
  const source = data.environments.development.notificationGroups.find((g) => g._id === groupId);
  if (source === undefined) return undefined;
  const production = data.environments.production;
  const copy = production.notificationGroups.find((g) => g._parentId === source._id);
  if (copy !== undefined) {
    copy.name = source.name;
    (copy as { updatedAt?: string }).updatedAt = now;
    return copy;
  }
  const created = {
    _id: nextId(data),
    name: source.name,
    _organizationId: data.organization._id,
    _environmentId: production.environmentId,
    _parentId: source._id,
    createdAt: now,
    updatedAt: now,
  };
  production.notificationGroups.push(created);
  return created;
}

/** The Production group standing for a Development one; its pending change is applied first when needed. */
function productionGroup(data: EmulatorData, groupId: string, now: string): NotificationGroup | undefined {
  const production = data.environments.production;
  const existing = production.notificationGroups.find((g) => g._parentId === groupId);
  if (existing !== undefined) return existing;
  const pending = data.changes.find(
    (c) => !c.enabled && c.type === "NotificationGroup" && c._entityId === groupId,
  );
  if (pending === undefined) return undefined;
  const group = promoteGroup(data, groupId, now);
  pending.enabled = true;
  pending.updatedAt = now;
  return group;
}

function promoteWorkflow(data: EmulatorData, workflowId: string, now: string): void {
  const source = data.environments.development.workflows.find((w) => w._id === workflowId);
  const production = data.environments.production;
  if (source === undefined) {
    // Deleted in Development: the promotion removes Production's copy.
    production.workflows = production.workflows.filter((w) => w._parentId !== workflowId);
    return;
  }
  const group = productionGroup(data, source._notificationGroupId, now);
  if (group === undefined) {
    throw notFound(
      `Notification Group Id ${source._notificationGroupId} not found, Notification Template: ${source.name}`,
    );
  }
  const existing = production.workflows.find((w) => w._parentId === source._id);
  const copied = {
    name: source.name,
    description: source.description ?? "",
    active: source.active,
    draft: source.draft,
    tags: [...source.tags],
    critical: source.critical,
    preferenceSettings: { ...source.preferenceSettings },
    triggers: structuredClone(source.triggers),
    steps: copySteps(data, source.steps, existing?.steps ?? [], production.environmentId, now),
    _notificationGroupId: group._id,
    ...(source.data !== undefined ? { data: structuredClone(source.data) } : {}),
  };
  if (existing !== undefined) {
    Object.assign(existing, copied, { updatedAt: now });
    return;
  }
  production.workflows.push({
    ...copied,
    _id: nextId(data),
    _parentId: source._id,
    _organizationId: data.organization._id,
    _environmentId: production.environmentId,
    _creatorId: CREATOR_ID,
    deleted: false,
    isBlueprint: false,
    origin: "novu-cloud",
    type: "REGULAR",
    createdAt: now,
    updatedAt: now,
  } as Workflow);
}

/**
 * Steps keep their Development ids (and `_parentId` chain); each step's and variant's message
 * template becomes a Production template whose `_parentId` is the Development one (the same
 * Production template again on a later promotion), pointing at Production's copy of its layout
 * once that layout has been promoted (else at none).
 */
function copySteps(
  data: EmulatorData,
  steps: Step[],
  previous: Step[],
  environmentId: string,
  now: string,
): Step[] {
  const earlier = new Map<string, string>();
  const remember = (step: Step) => {
    const template = step.template;
    if (typeof template?._parentId === "string" && typeof template._id === "string")
      earlier.set(template._parentId, template._id);
    for (const variant of (step as { variants?: Step[] }).variants ?? []) remember(variant);
  };
  for (const step of previous) remember(step);
  const copy = (step: Step): Step => {
    const copied = structuredClone(step) as Step & { variants?: Step[] };
    const variants = (step as { variants?: Step[] }).variants;
    if (variants !== undefined) copied.variants = variants.map(copy);
    const template = step.template;
    if (template === undefined || typeof template._id !== "string") return copied;
    const id = earlier.get(template._id) ?? nextId(data);
    copied._templateId = id;
    const layout =
      typeof template._layoutId === "string" ? productionLayoutOf(data, template._layoutId, now) : null;
    const { _feedId: _feed, ...rest } = structuredClone(template);
    copied.template = {
      ...rest,
      _id: id,
      _parentId: template._id,
      _environmentId: environmentId,
      _layoutId: layout,
      updatedAt: now,
    };
    return copied;
  };
  return steps.map(copy);
}

/**
 * Production's copy of a Development layout, or null. A layout still pending is promoted with the
 * workflow that uses it, as a real server re-parents its change under the workflow's (r3-q3-22);
 * not the fresh organization's DefaultLayout change: a workflow promoted before it points at no
 * layout in Production (r3-q2-01, r3-q2-03).
 */
function productionLayoutOf(data: EmulatorData, developmentId: string, now: string): string | null {
  const existing = data.environments.production.layouts?.find((l) => l._parentId === developmentId);
  if (existing !== undefined) return existing._id;
  const pending = data.changes.find(
    (c) => !c.enabled && c.type === "Layout" && c._entityId === developmentId,
  );
  if (pending === undefined) return null;
  const copy = promoteLayout(data, developmentId, now);
  pending.enabled = true;
  pending.updatedAt = now;
  return copy?._id ?? null;
}
