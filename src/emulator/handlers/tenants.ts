// Tenants (extension), as a real server serves them (r3-q4-*): one environment's own, never
// promoted and never recorded as changes, so a Development tenant is 404 to a Production key and
// both keys may write. POST answers 201 with the tenant; PATCH by identifier replaces `data`
// whole and may rename the identifier (onto an existing one: 409); DELETE answers 204.
// The list is flat (`{data, page, pageSize, hasMore}`, no totalCount), newest first, limit at
// most 100, and `hasMore` is only `data.length === limit`, so a full last page says true.
import { badRequest, HttpError, notFound } from "../http-error.js";
import { nextId, type Tenant } from "../store.js";
import { type Handler, type HandlerContext, isObject, ok } from "./context.js";

/** A tenant with the fields a real server sends (seeds written before them lack a few). */
function served(ctx: HandlerContext, tenant: Tenant): Tenant {
  return {
    identifier: tenant.identifier ?? tenant._id,
    name: tenant.name ?? tenant.identifier ?? tenant._id,
    _environmentId: ctx.store.environmentId,
    _organizationId: ctx.data.organization._id,
    createdAt: ctx.now,
    updatedAt: ctx.now,
    ...tenant,
  };
}

const missing = (ctx: HandlerContext, identifier: string) =>
  notFound(
    `Tenant with identifier: ${identifier} does not exist under environment ${ctx.store.environmentId}`,
  );

const taken = (ctx: HandlerContext, identifier: string) =>
  new HttpError(
    409,
    `Tenant with identifier: ${identifier} already exists under environment ${ctx.store.environmentId}`,
  );

function find(ctx: HandlerContext, identifier: string): Tenant | undefined {
  return ctx.store.tenants.find((t) => (t.identifier ?? t._id) === identifier);
}

function dataOf(body: Record<string, unknown>): Record<string, unknown> | undefined {
  if (body.data === undefined) return undefined;
  if (!isObject(body.data)) throw badRequest(["data must be an object"]);
  return structuredClone(body.data);
}

export const getTenant: Handler = (ctx) => {
  const identifier = ctx.params.identifier ?? "";
  const tenant = find(ctx, identifier);
  if (!tenant) throw missing(ctx, identifier);
  return ok(served(ctx, tenant));
};

export const listTenants: Handler = (ctx) => {
  const page = Number(ctx.query.get("page") || 0);
  const limit = Number(ctx.query.get("limit") || 10);
  const problems: string[] = [];
  if (!Number.isInteger(page) || page < 0) problems.push("page must not be less than 0");
  if (!Number.isInteger(limit) || limit < 1) problems.push("limit must not be less than 1");
  if (limit > 100) problems.push("limit must not be greater than 100");
  if (problems.length > 0) throw badRequest(problems);
  const all = ctx.store.tenants;
  // Newest first without copying the (possibly 10,000s long) list.
  const data: Tenant[] = [];
  for (let i = all.length - 1 - page * limit; i >= 0 && data.length < limit; i -= 1) {
    const tenant = all[i];
    if (tenant !== undefined) data.push(served(ctx, tenant));
  }
  return { status: 200, body: { data, page, pageSize: limit, hasMore: data.length === limit } };
};

export const createTenant: Handler = (ctx) => {
  const body = isObject(ctx.body) ? ctx.body : {};
  if (typeof body.identifier !== "string" || body.identifier.trim() === "")
    throw badRequest(["identifier should not be empty", "identifier must be a string"]);
  // CreateTenantCommand: IsString, IsNotEmpty, told in this order (r3-q4-24).
  if (typeof body.name !== "string" || body.name.trim() === "")
    throw badRequest(["name should not be empty", "name must be a string"]);
  const name = body.name;
  const identifier = body.identifier;
  if (find(ctx, identifier)) throw taken(ctx, identifier);
  const data = dataOf(body);
  const tenant: Tenant = {
    identifier,
    name,
    ...(data !== undefined ? { data } : {}),
    _environmentId: ctx.store.environmentId,
    _organizationId: ctx.data.organization._id,
    _id: nextId(ctx.data),
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  ctx.store.tenants.push(tenant);
  return ok(tenant, 201, true);
};

export const updateTenant: Handler = (ctx) => {
  const identifier = ctx.params.identifier ?? "";
  const tenant = find(ctx, identifier);
  if (!tenant) throw missing(ctx, identifier);
  const body = isObject(ctx.body) ? ctx.body : {};
  // Every check before any field changes, as a real server writes once: a refused PATCH leaves
  // the tenant as it was (its identifier too).
  if (body.name !== undefined && (typeof body.name !== "string" || body.name.trim() === ""))
    throw badRequest(["name must be a string", "name should not be empty"]);
  if (body.identifier !== undefined) {
    if (typeof body.identifier !== "string" || body.identifier.trim() === "")
      throw badRequest(["identifier must be a string", "identifier should not be empty"]);
    const other = find(ctx, body.identifier);
    if (other !== undefined && other !== tenant) throw taken(ctx, body.identifier);
  }
  const data = dataOf(body);
  if (typeof body.identifier === "string") tenant.identifier = body.identifier;
  if (typeof body.name === "string") tenant.name = body.name;
  if (data !== undefined) tenant.data = data;
  tenant.updatedAt = ctx.now;
  return ok(served(ctx, tenant), 200, true);
};

export const deleteTenant: Handler = (ctx) => {
  const identifier = ctx.params.identifier ?? "";
  const tenant = find(ctx, identifier);
  if (!tenant) throw missing(ctx, identifier);
  ctx.store.tenants.splice(ctx.store.tenants.indexOf(tenant), 1);
  return { status: 204, body: null, wrote: true };
};
