// Tenants: identity is the identifier, per environment (never promoted: each environment keeps its
// own, written with whichever key reaches it, Production's too). Managed fields: the name, and
// `data` as one value when the config gives it (a PATCH replaces `data` whole, so it is compared
// and sent whole; numbers stay numbers). Read live through the tenant list, whose items hold every
// field (no per-tenant read); created with POST, updated with PATCH by identifier; never deleted.

import type { JsonObject, JsonValue } from "../../canonical.js";
import type { DesiredState } from "../../config/model.js";
import { indexBy } from "../duplicates.js";
import type { DesiredItem, KindModule, LiveItem, LiveLookup, PlanContext, ReadScope } from "../kind.js";
import { ApiLiveItem } from "../live-item.js";
import type { NotificationApi } from "../notification-api.js";
import { unlessUnsupported } from "../unsupported.js";
import { tenantApi } from "./api.js";
import { executeTenant } from "./execute.js";
import { tenantRequest } from "./requests.js";
import type { Tenant } from "./wire.js";

function fieldsOf(tenant: Tenant): JsonObject {
  return {
    name: tenant.name ?? tenant.identifier,
    ...(tenant.data !== undefined ? { data: tenant.data as JsonValue } : {}),
  };
}

function liveTenantItem(tenant: Tenant, wanted: readonly string[]): LiveItem {
  const fields = fieldsOf(tenant);
  // A tenant without data reads as `{}` to a config that manages data (the server keeps none).
  if (wanted.includes("data") && fields.data === undefined) fields.data = {};
  return new ApiLiveItem(tenant._id, fields, () => ({ identifier: tenant.identifier, ...fields }));
}

async function readTenants(client: NotificationApi, scope: ReadScope): Promise<Tenant[] | undefined> {
  if (!scope.everything && scope.desired.resources.tenant.length === 0) return [];
  const ahead = scope.readAhead?.tenant as Promise<Tenant[]> | undefined;
  return unlessUnsupported(ahead ?? client.listAllTenants(scope.signal ? { signal: scope.signal } : {}));
}

export const tenantKind: KindModule<"tenant"> = {
  kind: "tenant",
  section: { name: "tenants", shape: "list", identityFields: ["identifier"] },
  label: { one: "tenant", many: "tenants" },
  identity: (spec) => spec.identifier,
  api: tenantApi,
  requestOf: tenantRequest,
  // The server refuses a second tenant with the identifier: a lost create is found again by it.
  creates: [],

  desiredItems(desired: DesiredState): DesiredItem[] {
    return desired.resources.tenant.map(({ spec, source }) => ({
      key: spec.identifier,
      fields: { name: spec.name, ...(spec.data !== undefined ? { data: spec.data as JsonValue } : {}) },
      source,
      dependsOn: [],
      ids: {},
    }));
  },

  lookupLive(item: DesiredItem, context: PlanContext): LiveLookup {
    const live = context.live.kinds.tenant;
    if (live === undefined)
      return { status: "unknown", reason: "the server does not serve the tenant routes" };
    const tenant = live.get(item.key);
    return tenant
      ? { status: "found", item: liveTenantItem(tenant, Object.keys(item.fields)) }
      : { status: "absent" };
  },

  operationsFor(op, item, _live, changes) {
    const name = String(item.fields.name ?? "");
    const data = item.fields.data as JsonObject | undefined;
    if (op === "create") {
      return {
        operations: [
          { type: "tenant.create", identifier: item.key, name, ...(data !== undefined ? { data } : {}) },
        ],
      };
    }
    const changed = new Set(changes.map((change) => change.field.split(".")[0]));
    return {
      operations: [
        {
          type: "tenant.update",
          identifier: item.key,
          ...(op === "unverified" || changed.has("name") ? { name } : {}),
          // `data` is replaced whole on the server: send all of it.
          ...(data !== undefined && (op === "unverified" || changed.has("data")) ? { data } : {}),
        },
      ],
    };
  },

  unmanaged(context, managedKeys) {
    const out = [];
    for (const tenant of context.live.kinds.tenant?.values() ?? []) {
      if (!managedKeys.has(tenant.identifier))
        out.push({ kind: "tenant" as const, key: tenant.identifier, name: tenant.name ?? tenant.identifier });
    }
    return out;
  },

  async readLive(client, scope) {
    const items = await readTenants(client, scope);
    if (items === undefined) return { live: undefined };
    const { byIdentity, duplicates } = indexBy(items, (tenant) => tenant.identifier);
    return { live: byIdentity, duplicates };
  },

  // While the config loads, once it holds a tenant: the whole list, which readLive reads then
  // anyway (it follows `hasMore` page by page, so starting early hides that chain).
  readAhead: (client) => client.listAllTenants(),
  execute: executeTenant,

  exportSection(live) {
    if (live === undefined) return { notExported: "the server does not serve the tenant routes" };
    if (live.size === 0) return undefined;
    const sorted = [...live.values()].sort((a, b) =>
      a.identifier < b.identifier ? -1 : a.identifier > b.identifier ? 1 : 0,
    );
    const tenants = sorted.map((t) => ({
      identifier: t.identifier,
      name: t.name ?? t.identifier,
      ...(t.data !== undefined && Object.keys(t.data).length > 0 ? { data: t.data } : {}),
    }));
    return { file: "tenants.yaml", value: tenants };
  },
};
