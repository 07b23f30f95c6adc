// Workflow overrides (endpoints 9-11) and the update/pair extensions. Development-only like on
// a real server. POST is create-only: a second POST for the same workflow and tenant is 409
// (a real server hits a unique index and most likely answers 500). Omitted channels default to
// on and an omitted `active` to false; the update extension merges channels.
import type { WorkflowOverride } from "../../kinds/override/wire.js";
import { badRequest, HttpError, notFound } from "../http-error.js";
import { nextId } from "../store.js";
import { CHANNELS, type Handler, type HandlerContext, isObject, OBJECT_ID, ok } from "./context.js";
import { developmentOnly } from "./workflows.js";

export const listOverrides: Handler = (ctx) => {
  developmentOnly(ctx);
  const page = Number(ctx.query.get("page") ?? 0);
  const limit = Number(ctx.query.get("limit") ?? 10);
  const problems: string[] = [];
  if (!Number.isInteger(page) || page < 0) problems.push("page must not be less than 0");
  if (!Number.isInteger(limit) || limit < 1) problems.push("limit must not be less than 1");
  if (limit > 100) problems.push("limit must not be greater than 100");
  if (problems.length > 0) throw badRequest(problems);
  const all = ctx.store.overrides.filter((o) => !o.deleted);
  const data = all.slice(page * limit, page * limit + limit);
  const result = { hasMore: (page + 1) * limit < all.length, data, pageSize: limit, page };
  // Spec: nested in the envelope; the real server answers it flat.
  return { status: 200, body: ctx.flavor === "real" ? result : { data: result } };
};

function checkPreferences(value: unknown, problems: string[]): void {
  if (value === undefined) return;
  if (
    !isObject(value) ||
    Object.entries(value).some(
      ([k, v]) => !(CHANNELS as readonly string[]).includes(k) || typeof v !== "boolean",
    )
  ) {
    problems.push("preferenceSettings must hold boolean email, sms, in_app, chat, push");
  }
}

export const createOverride: Handler = (ctx) => {
  developmentOnly(ctx);
  const b = isObject(ctx.body) ? ctx.body : {};
  const problems: string[] = [];
  if (typeof b.workflowId !== "string" || !OBJECT_ID.test(b.workflowId))
    problems.push("_workflowId must be a mongodb id");
  if (typeof b.tenantId !== "string" || !OBJECT_ID.test(b.tenantId))
    problems.push("_tenantId must be a mongodb id");
  if (b.active !== undefined && typeof b.active !== "boolean")
    problems.push("active must be a boolean value");
  checkPreferences(b.preferenceSettings, problems);
  if (problems.length > 0) throw badRequest(problems);
  const workflowId = b.workflowId as string;
  const tenantId = b.tenantId as string;
  // As CreateWorkflowOverride looks them up: the tenant first.
  if (!ctx.store.tenants.some((t) => t._id === tenantId))
    throw notFound(`Tenant with id ${tenantId} is not found`);
  if (!ctx.store.workflows.some((w) => w._id === workflowId))
    throw notFound(`Workflow with id ${workflowId} is not found`);
  if (ctx.index.override(workflowId, tenantId)) {
    throw new HttpError(
      409,
      `Workflow override for workflow ${workflowId} and tenant ${tenantId} already exists`,
    );
  }
  const override: WorkflowOverride = {
    _id: nextId(ctx.data),
    _organizationId: ctx.data.organization._id,
    _environmentId: ctx.store.environmentId,
    _workflowId: workflowId,
    _tenantId: tenantId,
    active: b.active === true,
    preferenceSettings: {
      email: true,
      sms: true,
      in_app: true,
      chat: true,
      push: true,
      ...(isObject(b.preferenceSettings) ? b.preferenceSettings : {}),
    },
    deleted: false,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  ctx.index.addOverride(override);
  return ok(override, ctx.flavor === "real" ? 201 : 200, true);
};

function byId(ctx: HandlerContext): WorkflowOverride {
  const id = ctx.params.id ?? "";
  if (!OBJECT_ID.test(id)) throw badRequest(["overrideId must be a mongodb id"]);
  const override = ctx.store.overrides.find((o) => o._id === id && !o.deleted);
  if (!override) throw notFound(`Workflow Override with id ${id} not found`);
  return override;
}

function byPair(ctx: HandlerContext): WorkflowOverride {
  const { workflowId = "", tenantId = "" } = ctx.params;
  const override = ctx.index.override(workflowId, tenantId);
  if (!override || override.deleted)
    throw notFound(`Workflow Override for workflow ${workflowId} and tenant ${tenantId} not found`);
  return override;
}

function update(ctx: HandlerContext, override: WorkflowOverride) {
  const b = isObject(ctx.body) ? ctx.body : {};
  const problems: string[] = [];
  if (b.active !== undefined && typeof b.active !== "boolean")
    problems.push("active must be a boolean value");
  checkPreferences(b.preferenceSettings, problems);
  if (problems.length > 0) throw badRequest(problems);
  if (typeof b.active === "boolean") override.active = b.active;
  if (isObject(b.preferenceSettings))
    override.preferenceSettings = { ...override.preferenceSettings, ...b.preferenceSettings };
  override.updatedAt = ctx.now;
  return ok(override, 200, true);
}

export const getOverride: Handler = (ctx) => {
  developmentOnly(ctx);
  return ok(byId(ctx));
};

export const updateOverride: Handler = (ctx) => {
  developmentOnly(ctx);
  return update(ctx, byId(ctx));
};

export const getOverrideByPair: Handler = (ctx) => {
  developmentOnly(ctx);
  return ok(byPair(ctx));
};

export const updateOverrideByPair: Handler = (ctx) => {
  developmentOnly(ctx);
  return update(ctx, byPair(ctx));
};
