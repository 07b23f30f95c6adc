// A tenant's types, declared into KindTypes (src/kinds/kinds.ts): its config entry, what a plan
// reads of it, the writes a plan can make, and its share of the typed client.
import type { JsonObject } from "../../canonical.js";
import type { TenantEndpoints, TenantExtension } from "./api.js";
import type { Tenant } from "./wire.js";

/** A tenant of one environment (never promoted): created and updated with the key's environment. */
export interface TenantSpec {
  /** Identity, the same in every environment; overrides name the tenant by it. */
  identifier: string;
  name: string;
  /** Free-form, managed whole when present (the server replaces it whole); numbers stay numbers. */
  data?: Record<string, unknown>;
}

export type TenantOperation =
  | { type: "tenant.create"; identifier: string; name: string; data?: JsonObject }
  /** PATCH replaces `data` whole: when sent, it is all of it. */
  | { type: "tenant.update"; identifier: string; name?: string; data?: JsonObject };

declare module "../kinds.js" {
  interface KindTypes {
    tenant: {
      spec: TenantSpec;
      /** Keyed by identifier; undefined when the server has no tenant routes. */
      live: Map<string, Tenant> | undefined;
      operation: TenantOperation;
      endpoints: TenantEndpoints;
      extension: TenantExtension;
    };
  }
}
