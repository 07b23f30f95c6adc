// A workflow override's types, declared into KindTypes (src/kinds/kinds.ts): its config entry,
// what a plan reads of it, the writes a plan can make, and its share of the typed client.

import type { JsonObject } from "../../canonical.js";
import type { PreferenceSettings } from "../../config/model.js";
import type { WorkflowOverrideEndpoints, WorkflowOverrideExtension } from "./api.js";
import type { WorkflowOverride } from "./wire.js";

/**
 * A per-tenant workflow override. It describes the override completely: an omitted `active`
 * means false and an omitted channel means true, as the server does on creation.
 */
export interface OverrideSpec {
  /** A workflow key of this config, or a raw 24-hex workflow id. */
  workflow: string;
  /** The tenant's identifier (portable across environments); or, for old configs, its 24-hex id. */
  tenant?: string;
  /** The tenant's server `_id` in this environment: given, or resolved from `tenant`. */
  tenantId?: string;
  active?: boolean;
  preferenceSettings?: Partial<PreferenceSettings>;
}

export type OverrideOperation =
  | {
      type: "override.create";
      workflowId: string;
      tenantId: string;
      /** The tenant is one another action of this plan creates: the id it produced is sent. */
      tenantFromAction?: string;
      /** The workflow is one another action of this plan creates (Development): likewise. */
      workflowFromAction?: string;
      active: boolean;
      preferenceSettings: JsonObject;
    }
  | { type: "override.update"; overrideId: string; active?: boolean; preferenceSettings?: JsonObject };

/** What a plan reads of overrides. */
export interface OverrideLive {
  /** Keyed by overrideLookupKey(workflowId, tenantId). */
  byPair: Map<string, WorkflowOverride>;
  /** Whether the server serves PUT /v1/workflow-overrides/{id} (observed extension). */
  canUpdate: boolean;
  /** Why overrides could not be read (a Production key): every override is then not applicable. */
  unreadable?: string;
  /** Tenant id -> identifier, where the tenant list was read (export). */
  tenantIdentifiers?: Map<string, string>;
}

declare module "../kinds.js" {
  interface KindTypes {
    override: {
      spec: OverrideSpec;
      live: OverrideLive;
      operation: OverrideOperation;
      endpoints: WorkflowOverrideEndpoints;
      extension: WorkflowOverrideExtension;
    };
  }
}
