// Workflows (endpoints 12-13 and the read extensions) and notification groups (14-15 and the
// list/get extensions), following the real server where the spec is silent: every PUT field
// optional, tags/preferenceSettings/steps/data replaced, an empty body refused, `active`
// ignored; the status call refuses an unchanged status; the same group name twice makes two.
import type { Workflow } from "../../kinds/workflow/wire.js";
import { layoutsNamed, recordChange, recordWorkflowChange } from "../changes.js";
import { badRequest, HttpError, notFound } from "../http-error.js";
import { checkStepTexts, loadHandlebars } from "../layout-variables.js";
import { buildSteps, checkSteps, triggerVariables } from "../steps.js";
import { nextId } from "../store.js";
import {
  CHANNELS,
  type Handler,
  type HandlerContext,
  isObject,
  OBJECT_ID,
  ok,
  requireName,
  validatorLength,
} from "./context.js";

function findWorkflow({ store, params }: HandlerContext): Workflow {
  const id = params.id ?? "";
  if (!OBJECT_ID.test(id)) throw badRequest(["id must be a mongodb id"]);
  const workflow = store.workflows.find((w) => w._id === id);
  if (!workflow) throw notFound(`Notification template with id ${id} not found`);
  return workflow;
}

function withGroup(ctx: HandlerContext, workflow: Workflow): Workflow {
  const group = ctx.store.notificationGroups.find((g) => g._id === workflow._notificationGroupId);
  return group ? { ...workflow, notificationGroup: group } : workflow;
}

export const updateWorkflow: Handler = async (ctx) => {
  // Loaded before the store is read: no other request runs between the checks and the write.
  const engine = await loadHandlebars();
  const workflow = findWorkflow(ctx);
  const b = isObject(ctx.body) ? ctx.body : {};
  const fields = [
    "name",
    "description",
    "tags",
    "critical",
    "preferenceSettings",
    "notificationGroupId",
    "identifier",
    "steps",
    "data",
  ];
  if (!fields.some((f) => b[f] !== undefined)) throw badRequest("No properties found for update");
  const problems: string[] = [];
  if (b.name !== undefined && typeof b.name !== "string") problems.push("name must be a string");
  if (
    b.description !== undefined &&
    (typeof b.description !== "string" || validatorLength(b.description) > 300)
  ) {
    problems.push("description must be shorter than or equal to 300 characters");
  }
  if (b.tags !== undefined && (!Array.isArray(b.tags) || b.tags.some((t) => typeof t !== "string")))
    problems.push("tags must be an array of strings");
  if (b.critical !== undefined && typeof b.critical !== "boolean")
    problems.push("critical must be a boolean value");
  if (b.preferenceSettings !== undefined) {
    const p = b.preferenceSettings;
    if (
      !isObject(p) ||
      Object.entries(p).some(
        ([k, v]) => !(CHANNELS as readonly string[]).includes(k) || typeof v !== "boolean",
      )
    ) {
      problems.push("preferenceSettings must hold boolean email, sms, in_app, chat, push");
    }
  }
  if (b.data !== undefined && !isObject(b.data)) problems.push("data must be an object");
  problems.push(...checkSteps(b.steps));
  if (problems.length > 0) throw badRequest(problems);
  // As UpdateWorkflow: another workflow's trigger identifier is refused.
  if (
    typeof b.identifier === "string" &&
    ctx.store.workflows.some(
      (w) => w !== workflow && w.deleted !== true && w.triggers.some((t) => t.identifier === b.identifier),
    )
  )
    throw badRequest(`Workflow with identifier ${b.identifier} already exists`);
  checkStepTexts(engine, b.steps);
  if (b.notificationGroupId !== undefined) {
    const group = ctx.store.notificationGroups.find((g) => g._id === b.notificationGroupId);
    if (!group) throw notFound(`Notification group with id ${String(b.notificationGroupId)} not found`);
    workflow._notificationGroupId = group._id;
  }
  if (typeof b.name === "string" && b.name !== "") workflow.name = b.name;
  if (typeof b.description === "string") workflow.description = b.description;
  if (Array.isArray(b.tags)) workflow.tags = b.tags as string[];
  if (typeof b.critical === "boolean") workflow.critical = b.critical;
  if (isObject(b.preferenceSettings)) {
    // Replaced, not merged (observed); channels left out come back as on.
    workflow.preferenceSettings = {
      email: true,
      sms: true,
      in_app: true,
      chat: true,
      push: true,
      ...(b.preferenceSettings as object),
    };
  }
  // The layouts this PUT's steps name: their pending changes move under the workflow's own.
  let named = new Set<string>();
  if (Array.isArray(b.steps)) {
    named = layoutsNamed(b.steps);
    // The list sent replaces the stored one, each step matched by its _templateId (steps.ts).
    workflow.steps = buildSteps(ctx, b.steps as Record<string, unknown>[], workflow);
    const trigger = workflow.triggers[0];
    if (trigger !== undefined) Object.assign(trigger, triggerVariables(ctx, workflow.steps));
  }
  if (isObject(b.data)) workflow.data = b.data;
  if (typeof b.identifier === "string" && workflow.triggers[0])
    workflow.triggers[0].identifier = b.identifier;
  (workflow as { updatedAt?: string }).updatedAt = ctx.now;
  recordWrite(ctx, workflow, named);
  return ok(withGroup(ctx, workflow), 200, true);
};

export const updateWorkflowStatus: Handler = (ctx) => {
  developmentOnly(ctx);
  const workflow = findWorkflow(ctx);
  const b = isObject(ctx.body) ? ctx.body : {};
  if (typeof b.active !== "boolean") throw badRequest(["active must be a boolean value"]);
  if (b.active === workflow.active)
    throw badRequest("You must provide a different status from the current status");
  workflow.active = b.active;
  workflow.draft = !b.active;
  (workflow as { updatedAt?: string }).updatedAt = ctx.now;
  recordWrite(ctx, workflow);
  return ok(withGroup(ctx, workflow), 200, true);
};

export const getWorkflow: Handler = (ctx) => {
  const id = ctx.params.id ?? "";
  const workflow = ctx.store.workflows.find(
    (w) => w._id === id || w.triggers.some((t) => t.identifier === id),
  );
  if (!workflow) throw notFound(`Template with id ${id} not found`);
  return ok(withGroup(ctx, workflow));
};

const NO_INTEGRATIONS = {
  hasActiveIntegrations: false,
  hasPrimaryIntegrations: false,
  channels: {
    in_app: { hasActiveIntegrations: false },
    email: { hasActiveIntegrations: false, hasPrimaryIntegrations: false },
    sms: { hasActiveIntegrations: false, hasPrimaryIntegrations: false },
    chat: { hasActiveIntegrations: false },
    push: { hasActiveIntegrations: false },
  },
};

export const listWorkflows: Handler = (ctx) => {
  const page = Number(ctx.query.get("page") || 0);
  const limit = Number(ctx.query.get("limit") || 10);
  const problems: string[] = [];
  if (!Number.isInteger(page) || page < 0) problems.push("page must not be less than 0");
  if (!Number.isInteger(limit) || limit < 1) problems.push("limit must not be less than 1");
  if (limit > 100) problems.push("limit must not be greater than 100");
  if (problems.length > 0) throw badRequest(problems);
  const text = (ctx.query.get("query") ?? "").toLowerCase();
  // Newest first, as real servers list them (r3-q1-30, r3-q2-07): the store keeps creation order.
  const newestFirst = [...ctx.store.workflows].reverse();
  const all = text === "" ? newestFirst : newestFirst.filter((w) => w.name.toLowerCase().includes(text));
  // The real list adds each workflow's integration status (the emulator has no integrations).
  // The real list holds each step's template as {_id, type} only: content needs a read by id.
  const data = all.slice(page * limit, page * limit + limit).map((w) => ({
    ...withGroup(ctx, w),
    ...(ctx.flavor === "real" ? { steps: w.steps.map(listedStep) } : {}),
    workflowIntegrationStatus: NO_INTEGRATIONS,
  }));
  return { status: 200, body: { data, totalCount: all.length, page, pageSize: limit } };
};

function listedStep(step: Workflow["steps"][number]): Workflow["steps"][number] {
  const { template, ...rest } = step;
  return template === undefined ? rest : { ...rest, template: { _id: template._id, type: template.type } };
}

/** DELETE /v1/workflows/{id} (extension, Development only): gone, and gone from Production once promoted. */
export const deleteWorkflow: Handler = (ctx) => {
  developmentOnly(ctx);
  const workflow = findWorkflow(ctx);
  ctx.store.workflows.splice(ctx.store.workflows.indexOf(workflow), 1);
  workflow.deleted = true;
  (workflow as { updatedAt?: string }).updatedAt = ctx.now;
  recordWrite(ctx, workflow);
  return ok(true, 200, true);
};

// Notification groups ---------------------------------------------------------------------------
export const createGroup: Handler = (ctx) => {
  const name = requireName(ctx.body);
  const group = {
    _id: nextId(ctx.data),
    name,
    _environmentId: ctx.store.environmentId,
    _organizationId: ctx.data.organization._id,
    _parentId: ctx.store.notificationGroups[0]?._id ?? "",
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  ctx.store.notificationGroups.push(group);
  recordGroupWrite(ctx, group);
  return ok(group, ctx.flavor === "real" ? 201 : 200, true);
};

export const renameGroup: Handler = (ctx) => {
  const group = ctx.store.notificationGroups.find((g) => g._id === ctx.params.id);
  // The real server answers this 404 without an `error` field.
  if (!group) throw new HttpError(404, "Not Found", null);
  const name = requireName(ctx.body);
  group.name = name;
  (group as { updatedAt?: string }).updatedAt = ctx.now;
  recordGroupWrite(ctx, group);
  return ok(group, 200, true);
};

export const listGroups: Handler = (ctx) => ok(ctx.store.notificationGroups);

export const getGroup: Handler = (ctx) => {
  const group = ctx.store.notificationGroups.find((g) => g._id === ctx.params.id);
  if (!group) throw new HttpError(404, "Not Found", null);
  return ok(group);
};

/**
 * Every workflow write is a change of the environment written: a Production key's PUT makes a
 * Production change, listed to that key (r3-q1-15, -16, -17), which can never be promoted.
 */
function recordWrite(ctx: HandlerContext, workflow: Workflow, named?: ReadonlySet<string>): void {
  recordWorkflowChange(ctx.data, ctx.environment, workflow, ctx.now, named);
}

/**
 * A Development group write is recorded for promotion. A Production one is not: no capture shows
 * what a real server records there (workflows and layouts are recorded in Production).
 */
function recordGroupWrite(ctx: HandlerContext, group: { _id: string }): void {
  if (ctx.environment === "development")
    recordChange(ctx.data, "development", "NotificationGroup", group, ctx.now);
}

export function developmentOnly(ctx: HandlerContext): void {
  if (ctx.environment !== "development") {
    throw new HttpError(401, "This action is only allowed in Development environment");
  }
}
