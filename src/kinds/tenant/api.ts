// Tenants (extensions, r3-q4-*): GET /v1/tenants/{identifier}, the flat, `hasMore`-paged GET
// /v1/tenants, POST (201 with the tenant) and PATCH by identifier (answers it updated, with `data`
// replaced whole, never merged, so a caller sends the whole `data` it wants). Tenants belong to one
// environment and are never promoted: a Development tenant is API_NOT_FOUND to a Production key,
// and both keys may write. A create is not retried once sent (a taken identifier is 409).
import { NEVER_ID } from "../../api/capabilities.js";
import { expectArray, expectShape, unwrap } from "../../api/envelope.js";
import { listAllFollowing } from "../../api/pagination.js";
import { checkName, numberOr, segment } from "../../api/request-checks.js";
import type { Requester, SendOptions } from "../../api/requester.js";
import type { RequestOptions } from "../../api/types.js";
import { type EndpointGroup, LIST_LIMIT, type ListBounds } from "../endpoint-group.js";
import type { CreateTenantBody, Tenant, TenantPage, UpdateTenantBody } from "./wire.js";

// The fields a tenant must have for notiform to work with it.
const TENANT = { _id: "string", identifier: "string" } as const;

export interface TenantEndpoints {
  /** Extension: GET /v1/tenants/{identifier} (a tenant of another environment is API_NOT_FOUND). */
  getTenant(identifier: string, options?: RequestOptions): Promise<Tenant>;
  /** Extension: GET /v1/tenants?page&limit (flat page, `hasMore`); `urgent` (internal) lets a page chain jump the limiter's queue. */
  listTenants(query?: { page?: number; limit?: number }, options?: SendOptions): Promise<TenantPage>;
  /** Extension: POST /v1/tenants, in the key's environment (never retried once sent). */
  createTenant(body: CreateTenantBody, options?: RequestOptions): Promise<Tenant>;
  /** Extension: PATCH /v1/tenants/{identifier}; `data`, when sent, replaces the stored data whole. */
  updateTenant(identifier: string, body: UpdateTenantBody, options?: RequestOptions): Promise<Tenant>;
  /** All tenants of the key's environment, following `hasMore` (limit 100; bounded). */
  listAllTenants(options?: RequestOptions): Promise<Tenant[]>;
}

export type TenantExtension = "getTenant" | "listTenants" | "createTenant" | "updateTenant";

export const tenantApi: EndpointGroup<TenantEndpoints, TenantExtension> = {
  create: (requester, bounds) => createTenantEndpoints(requester, bounds),
  extensions: {
    getTenant: (api, options) => api.getTenant(NEVER_ID, options),
    listTenants: (api, options) => api.listTenants({ page: 0, limit: 1 }, options),
    createTenant: "write",
    updateTenant: "write",
  },
};

function createTenantEndpoints(requester: Requester, bounds: ListBounds): TenantEndpoints {
  const api: TenantEndpoints = {
    async getTenant(identifier, options = {}): Promise<Tenant> {
      return requester.read(
        {
          endpoint: "getTenant",
          extension: "getTenant",
          method: "GET",
          path: `/v1/tenants/${segment("tenant identifier", identifier)}`,
        },
        options,
        ({ json, ctx }) => expectShape<Tenant>(unwrap(json, ctx), TENANT, ctx, "data"),
      );
    },

    async listTenants(query = {}, options = {}): Promise<TenantPage> {
      return requester.read(
        {
          endpoint: "listTenants",
          extension: "listTenants",
          method: "GET",
          path: "/v1/tenants",
          query: { page: query.page, limit: query.limit },
        },
        options,
        ({ json, ctx }) => {
          const page = expectShape<TenantPage>(json, { data: "array", hasMore: "boolean" }, ctx, "response");
          expectArray<Tenant>(page.data, TENANT, ctx, "data");
          return {
            data: page.data,
            hasMore: page.hasMore,
            page: numberOr(page.page, query.page ?? 0),
            pageSize: numberOr(page.pageSize, query.limit ?? 10),
          };
        },
      );
    },

    async createTenant(body, options = {}): Promise<Tenant> {
      checkName("tenant identifier", body.identifier);
      checkName("tenant name", body.name);
      return requester.read(
        {
          endpoint: "createTenant",
          extension: "createTenant",
          method: "POST",
          path: "/v1/tenants",
          body: {
            identifier: body.identifier,
            name: body.name,
            ...(body.data !== undefined ? { data: body.data } : {}),
          },
        },
        options,
        ({ json, ctx }) => expectShape<Tenant>(unwrap(json, ctx), TENANT, ctx, "data"),
      );
    },

    async updateTenant(identifier, body, options = {}): Promise<Tenant> {
      if (body.name !== undefined) checkName("tenant name", body.name);
      return requester.read(
        {
          endpoint: "updateTenant",
          extension: "updateTenant",
          method: "PATCH",
          path: `/v1/tenants/${segment("tenant identifier", identifier)}`,
          body: {
            ...(body.name !== undefined ? { name: body.name } : {}),
            ...(body.data !== undefined ? { data: body.data } : {}),
          },
        },
        options,
        ({ json, ctx }) => expectShape<Tenant>(unwrap(json, ctx), TENANT, ctx, "data"),
      );
    },

    listAllTenants: (options = {}) =>
      listAllFollowing(
        async (page) => {
          const result = await api.listTenants({ page, limit: LIST_LIMIT }, { ...options, urgent: true });
          return { items: result.data, hasMore: result.hasMore };
        },
        (tenant) => tenant._id,
        { endpoint: "listTenants", maxPages: bounds.maxPages, onPage: bounds.onPage },
      ),
  };
  return api;
}
