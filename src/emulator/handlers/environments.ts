// Environments and tenants (extensions). GET /v1/environments/me names the environment a key
// reaches (Production's `_parentId` is Development's `_id`); tenants belong to one environment,
// so a Development tenant is 404 to a Production key.
import { badRequest, notFound } from "../http-error.js";
import type { Tenant } from "../store.js";
import { type Handler, type HandlerContext, ok } from "./context.js";

/** Fixed stand-ins for the random 12-character identifiers of a real server's environments. */
const IDENTIFIERS = { development: "emu-dev-0001", production: "emu-prod-001" } as const;

export const currentEnvironment: Handler = (ctx) => {
  const development = ctx.data.environments.development;
  const production = ctx.environment === "production";
  const stamp = String(ctx.data.organization.createdAt ?? ctx.now);
  return ok({
    _id: ctx.store.environmentId,
    name: production ? "Production" : "Development",
    identifier: IDENTIFIERS[ctx.environment],
    _organizationId: ctx.data.organization._id,
    ...(production ? { _parentId: development.environmentId } : {}),
    widget: { notificationCenterEncryption: false },
    createdAt: stamp,
    updatedAt: stamp,
  });
};

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

export const getTenant: Handler = (ctx) => {
  const identifier = ctx.params.identifier ?? "";
  const tenant = ctx.store.tenants.find((t) => t.identifier === identifier);
  if (!tenant) {
    throw notFound(
      `Tenant with identifier: ${identifier} does not exist under environment ${ctx.store.environmentId}`,
    );
  }
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
  const data = all.slice(page * limit, page * limit + limit).map((t) => served(ctx, t));
  // Flat like the real server's override list: no totalCount, only hasMore.
  return { status: 200, body: { data, page, pageSize: limit, hasMore: (page + 1) * limit < all.length } };
};
