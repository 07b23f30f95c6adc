// The override kind's resolve step: `tenant` is the tenant's identifier (the same in every
// environment), resolved to this environment's tenant id through GET /v1/tenants/{identifier}
// where served, else from the state file's record. A tenant that does not exist is an error at
// plan time, at the entry. Configs from before identifiers named the tenant by its 24-hex id:
// such a value is still taken as the id, without a lookup. With a key
// of an environment where overrides cannot be written, nothing is resolved (they are not applicable).

import type { Desired, DesiredState } from "../../config/model.js";
import { isNotiformError, type Problem } from "../../errors.js";
import { ownRecord } from "../../state/model.js";
import { isDevelopmentOnlyBlocked, type ResolveContext, type ResolveResult } from "../kind.js";
import type { NotificationApi } from "../notification-api.js";
import { type Lookup, lookUpEach, resolveProblem } from "../resolve-identifiers.js";
import { unlessUnsupported } from "../unsupported.js";
import type { OverrideSpec } from "./types.js";

const HEX_ID = /^[0-9a-fA-F]{24}$/;

export async function resolveTenants(
  client: NotificationApi,
  desired: DesiredState,
  { state, environment, signal }: ResolveContext,
): Promise<ResolveResult<"override">> {
  const entries = desired.resources.override;
  const wanted = entries.flatMap(({ spec }) =>
    spec.tenantId === undefined && spec.tenant !== undefined && !HEX_ID.test(spec.tenant)
      ? [spec.tenant]
      : [],
  );
  if (wanted.length === 0 || isDevelopmentOnlyBlocked(environment)) return { entries, problems: [] };
  const lookups = await lookUpTenants(client, wanted, signal);
  const missing = [...lookups.values()].some((lookup) => lookup === "missing");
  // A key whose environment the server does not name may be a Production key: its tenants are
  // not Development's, and its overrides are not applicable anyway. Asked only when it matters.
  if (missing && environment === undefined && (await overridesRefused(client, signal))) {
    return { entries, problems: [] };
  }
  const recorded = state.identifiers?.tenants ?? {};
  // Tenants this config declares: one still missing is created by this apply, before its overrides.
  const declared = new Set(desired.resources.tenant.map((t) => t.spec.identifier));
  const problems: Problem[] = [];
  const ids: Record<string, string> = Object.create(null);
  const resolved = entries.map((entry): Desired<OverrideSpec> => {
    const { spec, source } = entry;
    const tenant = spec.tenant;
    if (spec.tenantId !== undefined || tenant === undefined) return entry;
    // Configs from before identifiers named the tenant by its id: a 24-hex value still is one.
    if (HEX_ID.test(tenant)) return { spec: { ...spec, tenantId: tenant }, source };
    const lookup = lookups.get(tenant) ?? "missing";
    let tenantId: string | undefined;
    if (typeof lookup === "object") {
      tenantId = lookup.id;
      ids[tenant] = tenantId;
    } else if (lookup === "unsupported") {
      tenantId = ownRecord(recorded, tenant);
    }
    if (tenantId === undefined && lookup === "missing" && declared.has(tenant)) return entry;
    if (tenantId === undefined) {
      const pos = source.fields.tenant ?? source.pos;
      problems.push(
        resolveProblem(
          lookup === "missing"
            ? `override of workflow "${spec.workflow}": no tenant with identifier "${tenant}" in this environment`
            : `override of workflow "${spec.workflow}": the server cannot look up tenants by identifier and the state file has no record of "${tenant}": add its id (tenantId: <24 hex>) to this entry in this environment's overlay`,
          pos,
        ),
      );
      return entry;
    }
    return { spec: { ...spec, tenantId }, source };
  });
  return { entries: resolved, record: { section: "tenants", ids }, problems };
}

/** Up to this many identifiers are looked up one GET each; more, through the tenant list. */
const ONE_BY_ONE = 20;

async function lookUpTenants(
  client: NotificationApi,
  identifiers: readonly string[],
  signal: AbortSignal | undefined,
): Promise<Map<string, Lookup>> {
  const request = signal ? { signal } : {};
  const unique = [...new Set(identifiers)];
  if (unique.length > ONE_BY_ONE) {
    const tenants = await unlessUnsupported(client.listAllTenants(request));
    if (tenants !== undefined) {
      const ids = new Map(tenants.map((t) => [t.identifier, t._id]));
      return new Map(
        unique.map((identifier) => {
          const id = ids.get(identifier);
          return [identifier, id === undefined ? "missing" : { id }];
        }),
      );
    }
  }
  return lookUpEach(unique, (identifier) => client.getTenant(identifier, request));
}

/** Whether the server refuses this key every override route (a Production key's 401). */
async function overridesRefused(client: NotificationApi, signal: AbortSignal | undefined): Promise<boolean> {
  try {
    await client.listWorkflowOverrides({ page: 0, limit: 1 }, signal ? { signal } : {});
    return false;
  } catch (error) {
    if (isNotiformError(error) && error.code === "API_DEV_ONLY") return true;
    throw error;
  }
}
