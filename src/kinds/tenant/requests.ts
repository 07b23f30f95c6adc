// The HTTP request each tenant operation sends (the plan shows it; apply sends exactly it).
import { type PlannedRequest, pathSegment } from "../operations.js";
import type { TenantOperation } from "./types.js";

export function tenantRequest(op: TenantOperation): PlannedRequest {
  switch (op.type) {
    case "tenant.create":
      return {
        method: "POST",
        path: "/v1/tenants",
        body: {
          identifier: op.identifier,
          name: op.name,
          ...(op.data !== undefined ? { data: op.data } : {}),
        },
      };
    case "tenant.update":
      return {
        method: "PATCH",
        path: `/v1/tenants/${pathSegment(op.identifier)}`,
        body: {
          ...(op.name !== undefined ? { name: op.name } : {}),
          ...(op.data !== undefined ? { data: op.data } : {}),
        },
      };
  }
}
