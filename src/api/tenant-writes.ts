// Tenant writes (extension, r3-q4-*): POST /v1/tenants answers 201 with the tenant; PATCH
// /v1/tenants/{identifier} answers it updated, with `data` replaced whole (never merged), so a
// caller sends the whole `data` it wants. Both keys may write: tenants belong to one environment
// and are never promoted. A create is not retried once sent (a taken identifier is 409).
import { expectShape, TENANT, unwrap } from "./envelope.js";
import { checkName, segment } from "./request-checks.js";
import type { Requester } from "./requester.js";
import type { NotificationApi, Tenant } from "./types.js";

export type TenantWriteEndpoints = Pick<NotificationApi, "createTenant" | "updateTenant">;

export function createTenantWriteEndpoints(requester: Requester): TenantWriteEndpoints {
  return {
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
  };
}
