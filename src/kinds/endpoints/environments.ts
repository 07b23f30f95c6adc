// Environments and tenants (extensions): GET /v1/environments/me names the environment a key
// reaches (a spec-only server lacks it: API_UNSUPPORTED, and the environment is only what the
// config says); GET /v1/tenants/{identifier} and the flat, `hasMore`-paged GET /v1/tenants.
// Tenants belong to one environment: a Development tenant is API_NOT_FOUND to a Production key.
import { ENVIRONMENT, expectArray, expectShape, TENANT, unwrap } from "../../api/envelope.js";
import { numberOr, segment } from "../../api/request-checks.js";
import type { Requester, SendOptions } from "../../api/requester.js";
import type { Environment, NotificationApi, Tenant, TenantPage } from "../../api/types.js";

export type EnvironmentEndpoints = Pick<NotificationApi, "getCurrentEnvironment" | "getTenant"> & {
  /** `urgent` (internal) lets a page chain jump the limiter's queue. */
  listTenants(query?: { page?: number; limit?: number }, options?: SendOptions): Promise<TenantPage>;
};

export function createEnvironmentEndpoints(requester: Requester): EnvironmentEndpoints {
  return {
    async getCurrentEnvironment(options = {}): Promise<Environment> {
      return requester.read(
        {
          endpoint: "getCurrentEnvironment",
          extension: "getCurrentEnvironment",
          method: "GET",
          path: "/v1/environments/me",
        },
        options,
        ({ json, ctx }) => expectShape<Environment>(unwrap(json, ctx), ENVIRONMENT, ctx, "data"),
      );
    },

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
  };
}
