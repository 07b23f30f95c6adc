// Tenants (extensions): GET /v1/tenants/{identifier} and the flat, `hasMore`-paged GET
// /v1/tenants. Tenants belong to one environment: a Development tenant is API_NOT_FOUND to a
// Production key. Overrides name tenants by identifier and need their ids.
import { NEVER_ID } from "../../api/capabilities.js";
import { expectArray, expectShape, unwrap } from "../../api/envelope.js";
import { listAllFollowing } from "../../api/pagination.js";
import { numberOr, segment } from "../../api/request-checks.js";
import type { Requester, SendOptions } from "../../api/requester.js";
import type { RequestOptions } from "../../api/types.js";
import { type EndpointGroup, LIST_LIMIT, type ListBounds } from "../endpoint-group.js";
import type { Tenant, TenantPage } from "./wire.js";

// The fields a tenant must have for notiform to work with it.
const TENANT = { _id: "string", identifier: "string" } as const;

export interface TenantEndpoints {
  /** Extension: GET /v1/tenants/{identifier} (a tenant of another environment is API_NOT_FOUND). */
  getTenant(identifier: string, options?: RequestOptions): Promise<Tenant>;
  /** Extension: GET /v1/tenants?page&limit (flat page, `hasMore`); `urgent` (internal) lets a page chain jump the limiter's queue. */
  listTenants(query?: { page?: number; limit?: number }, options?: SendOptions): Promise<TenantPage>;
  /** All tenants of the key's environment, following `hasMore` (limit 100; bounded). */
  listAllTenants(options?: RequestOptions): Promise<Tenant[]>;
}

export const tenantApi: EndpointGroup<TenantEndpoints, "getTenant" | "listTenants"> = {
  create: (requester, bounds) => createTenantEndpoints(requester, bounds),
  extensions: {
    getTenant: (api, options) => api.getTenant(NEVER_ID, options),
    listTenants: (api, options) => api.listTenants({ page: 0, limit: 1 }, options),
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
