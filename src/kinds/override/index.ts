// Per-tenant workflow overrides: identity is (workflow, tenant). The config describes an override
// completely: `active` defaults to false and every channel to true, as the server does on
// creation. Created with POST (create-only in the spec); updated only through the observed
// PUT extension — on a server without it an update is "not applicable", said at plan time.

import { DEFAULT_MAX_PAGES } from "../../api/index.js";
import { digestOf, type JsonObject, managedFields } from "../../canonical.js";
import { CHANNELS, type DesiredState } from "../../config/model.js";
import { isNotiformError } from "../../errors.js";
import { desiredItemsOf } from "../desired-items.js";
import { duplicatesOf } from "../duplicates.js";
import { LIST_LIMIT } from "../endpoint-group.js";
import {
  DEVELOPMENT_ONLY,
  type DesiredItem,
  isDevelopmentOnlyBlocked,
  type KindModule,
  type LiveItem,
  type LiveLookup,
  type PlanContext,
  type ReadAheadContext,
  type ReadScope,
} from "../kind.js";
import { ApiLiveItem } from "../live-item.js";
import type { NotificationApi } from "../notification-api.js";
import type { UnmanagedResource } from "../plan-action.js";
import {
  type CostedRead,
  type FollowedPage,
  mustList,
  readAheadFollowing,
  readFollowingByCost,
  replayed,
  wantedItems,
} from "../read-by-cost.js";
import { unlessUnsupported } from "../unsupported.js";
import { hasCode } from "../write-outcomes.js";
import { workflowOverrideApi } from "./api.js";
import { checkOverrideReferences } from "./checks.js";
import { executeOverride, overrideLookupKey } from "./execute.js";
import { overrideRequest } from "./requests.js";
import { resolveTenants } from "./resolve.js";
import type { WorkflowOverride } from "./wire.js";

/** Pages followed before handing over to the client's bounded whole-list read. */
const MAX_FOLLOWED_PAGES = DEFAULT_MAX_PAGES;

export { overrideLookupKey } from "./execute.js";

/** Each channel with its flat field name, made once (a large plan builds these fields per override). */
const CHANNEL_FIELDS = CHANNELS.map((channel) => [channel, `preferenceSettings.${channel}`] as const);

export function canonicalOverrideFields(
  override: Pick<WorkflowOverride, "active" | "preferenceSettings">,
): JsonObject {
  const fields: JsonObject = { active: override.active === true };
  for (const [channel, field] of CHANNEL_FIELDS)
    fields[field] = override.preferenceSettings?.[channel] ?? true;
  return fields;
}

/**
 * `desired`: the fields the config sets; the digest covers only those (all when not given). Their
 * names are taken only when the digest is (an action records it; most overrides are unchanged).
 */
export function liveOverrideItem(override: WorkflowOverride, desired?: JsonObject): LiveItem {
  const fields = canonicalOverrideFields(override);
  return new ApiLiveItem(override._id, fields, () => ({
    workflowId: override._workflowId,
    tenantId: override._tenantId,
    ...(desired === undefined ? fields : managedFields(fields, Object.keys(desired))),
  }));
}

/**
 * A desired item's pair (overrideLookupKey), made once per item (when desiredItems builds it): a
 * string made afresh is hashed afresh by every Map lookup (about 1 µs for these), and a plan
 * looks thousands of pairs up in the live lookup and again in the unmanaged listing.
 */
const pairs = new WeakMap<DesiredItem, string>();

function pairOf(item: DesiredItem): string {
  let pair = pairs.get(item);
  if (pair === undefined) {
    pair = overrideLookupKey(item.ids.workflowId ?? "", item.ids.tenantId ?? "");
    pairs.set(item, pair);
  }
  return pair;
}

/** Digest of "no override for this pair": a create is stale once the pair exists. */
export const ABSENT_DIGEST = digestOf(null);

function byPair(overrides: readonly WorkflowOverride[]): Map<string, WorkflowOverride> {
  return new Map(overrides.map((o) => [overrideLookupKey(o._workflowId, o._tenantId), o]));
}

/**
 * The whole list, or the wanted pairs one by one (pair GET extension) once fewer are still
 * missing than pages were read: the list says only `hasMore`, so its length is unknown.
 */
async function readOverrides(
  client: NotificationApi,
  scope: ReadScope,
): Promise<CostedRead<WorkflowOverride>> {
  const options = scope.signal ? { signal: scope.signal } : {};
  if (!scope.everything && scope.desired.resources.override.length === 0) return { items: [], listed: true };
  const ahead = ((await scope.readAhead?.override) ?? []) as FollowedPage<WorkflowOverride>[];
  if (mustList(scope))
    return { items: await client.listAllWorkflowOverrides({ ...options, read: ahead }), listed: true };
  const wanted = wantedItems(overrideKind, scope);
  return readFollowingByCost({
    lanes: client.lanes,
    wanted: wanted.map(pairOf),
    identityOf: (o) => overrideLookupKey(o._workflowId, o._tenantId),
    page: replayed(ahead, (page) => readPage(client, page, options)),
    listAll: (read) => client.listAllWorkflowOverrides({ ...options, read }),
    getOne: async (pair) => {
      const [workflowId = "", tenantId = ""] = pair.split(":");
      // A tenant (or workflow) this apply creates first: no override of it can exist yet.
      if (workflowId === "" || tenantId === "") return undefined;
      try {
        return await client.getWorkflowOverrideByPair(workflowId, tenantId, options);
      } catch (error) {
        if (hasCode(error, "API_NOT_FOUND")) return undefined;
        throw error;
      }
    },
    probeFirst: true,
    maxPages: MAX_FOLLOWED_PAGES,
  });
}

/** One page of the list; each waits on the one before, so it jumps the queue of other lists' fan-outs. */
function readPage(client: NotificationApi, page: number, options: { signal?: AbortSignal }) {
  return client.listWorkflowOverrides({ page, limit: LIST_LIMIT }, { ...options, urgent: true });
}

/**
 * While the config loads: the pages the costed read is sure to read too (readAheadFollowing),
 * once the environment is known to serve overrides (a Production key is not even asked).
 */
async function readOverridesAhead(
  client: NotificationApi,
  count: () => number,
  early: ReadAheadContext,
): Promise<FollowedPage<WorkflowOverride>[]> {
  // Its failure is the session's to report; without it nothing is read ahead.
  const environment = await early.environment.catch(() => null);
  if (environment === null || isDevelopmentOnlyBlocked(environment)) return [];
  return readAheadFollowing((page) => readPage(client, page, {}), count, MAX_FOLLOWED_PAGES);
}

export const overrideKind: KindModule<"override"> = {
  kind: "override",
  section: { name: "overrides", shape: "list", identityFields: ["workflow", ["tenant", "tenantId"]] },
  label: { one: "workflow override", many: "workflow overrides" },
  api: workflowOverrideApi,
  requestOf: overrideRequest,
  creates: ["override.create"],
  identity: (spec) => `${spec.workflow} / tenant ${spec.tenant ?? spec.tenantId}`,
  resolve: resolveTenants,
  checkReferences: checkOverrideReferences,

  desiredItems(desired: DesiredState): DesiredItem[] {
    const workflows = new Map(desired.resources.workflow.map((w) => [w.spec.key, w.spec.id ?? ""]));
    const tenants = new Set(desired.resources.tenant.map((t) => t.spec.identifier));
    return desired.resources.override.map(({ spec, source }) => {
      const workflowId = workflows.get(spec.workflow) ?? spec.workflow;
      const fields: JsonObject = { active: spec.active ?? false };
      for (const [channel, field] of CHANNEL_FIELDS)
        fields[field] = spec.preferenceSettings?.[channel] ?? true;
      // Unresolved (not looked up): an old config's 24-hex tenant is its id.
      const tenantId = spec.tenantId ?? legacyTenantId(spec.tenant) ?? "";
      const item: DesiredItem = {
        // The tenant as the config names it: its identifier ("order-shipped@acme-eu").
        key: `${spec.workflow}@${spec.tenant ?? spec.tenantId}`,
        fields,
        source,
        dependsOn: [
          ...(workflows.has(spec.workflow) ? [`workflow/${spec.workflow}`] : []),
          // A tenant of this config: created first when it is missing (then its id is sent).
          ...(spec.tenant !== undefined && tenants.has(spec.tenant) ? [`tenant/${spec.tenant}`] : []),
        ],
        ids: { workflowId, tenantId },
      };
      // Made with the item: a plan builds its items while the reads are in flight (the
      // shared-object check), and looks each pair up after the last answer.
      pairs.set(item, overrideLookupKey(workflowId, tenantId));
      return item;
    });
  },

  lookupLive(item: DesiredItem, context: PlanContext): LiveLookup {
    const unreadable = context.live.kinds.override.unreadable;
    if (unreadable !== undefined) return { status: "unknown", reason: unreadable };
    const override = context.live.kinds.override.byPair.get(pairOf(item));
    return override
      ? { status: "found", item: liveOverrideItem(override, item.fields) }
      : { status: "absent" };
  },

  operationsFor(op, item, live, changes, context) {
    const unreadable = context.live.kinds.override.unreadable;
    if (unreadable !== undefined) return { notApplicable: unreadable };
    if (op === "create" || live === undefined) {
      const preferenceSettings: JsonObject = {};
      for (const channel of CHANNELS)
        preferenceSettings[channel] = item.fields[`preferenceSettings.${channel}`] ?? true;
      return {
        operations: [
          {
            type: "override.create",
            workflowId: item.ids.workflowId ?? "",
            tenantId: item.ids.tenantId ?? "",
            ...fromActions(item),
            active: item.fields.active === true,
            preferenceSettings,
          },
        ],
      };
    }
    if (!context.live.kinds.override.canUpdate) {
      return {
        notApplicable:
          "the server does not serve PUT /v1/workflow-overrides/{id}; the spec makes overrides create-only, so this change must be made in the dashboard",
      };
    }
    let active: boolean | undefined;
    const preferenceSettings: JsonObject = {};
    for (const change of changes) {
      if (change.field === "active") active = change.new === true;
      else preferenceSettings[change.field.slice("preferenceSettings.".length)] = change.new;
    }
    return {
      operations: [
        {
          type: "override.update",
          overrideId: live.serverId ?? "",
          ...(active !== undefined ? { active } : {}),
          ...(Object.keys(preferenceSettings).length > 0 ? { preferenceSettings } : {}),
        },
      ],
    };
  },

  unmanaged(context: PlanContext, managedKeys: ReadonlySet<string>): UnmanagedResource[] {
    const keysById = new Map(context.desired.resources.workflow.map((w) => [w.spec.id, w.spec.key]));
    const managed = new Set(
      desiredItemsOf(overrideKind, context.desired)
        .filter((item) => managedKeys.has(item.key))
        .map(pairOf),
    );
    const tenants = context.live.kinds.override.tenantIdentifiers;
    const out: UnmanagedResource[] = [];
    // The map's own keys are the pairs, each hashed already.
    for (const [pair, override] of context.live.kinds.override.byPair) {
      if (managed.has(pair)) continue;
      const workflow = keysById.get(override._workflowId) ?? override._workflowId;
      out.push({
        kind: "override",
        key: `${workflow}@${tenants?.get(override._tenantId) ?? override._tenantId}`,
      });
    }
    return out;
  },

  async readLive(client, scope) {
    const { desired, everything, environment, signal } = scope;
    const read = everything || desired.resources.override.length > 0;
    // Every override route answers a Production key with 401: not even asked.
    if (read && isDevelopmentOnlyBlocked(environment)) {
      return { live: { byPair: new Map(), canUpdate: false, unreadable: DEVELOPMENT_ONLY } };
    }
    let costed: CostedRead<WorkflowOverride>;
    try {
      costed = await readOverrides(client, scope);
    } catch (error) {
      // The environment could not be known: the server's own answer says the same.
      if (isNotiformError(error) && error.code === "API_DEV_ONLY") {
        return { live: { byPair: new Map(), canUpdate: false, unreadable: DEVELOPMENT_ONLY } };
      }
      throw error;
    }
    const { items, listed } = costed;
    const request = signal ? { signal } : {};
    const tenants = everything ? await unlessUnsupported(client.listAllTenants(request)) : undefined;
    return {
      live: {
        byPair: byPair(items),
        canUpdate: client.capability("updateWorkflowOverride") !== "unsupported",
        ...(tenants !== undefined
          ? { tenantIdentifiers: new Map(tenants.map((t) => [t._id, t.identifier])) }
          : {}),
      },
      duplicates: duplicatesOf(items, (o) => `${o._workflowId}@${o._tenantId}`),
      listed,
    };
  },

  readAhead: readOverridesAhead,
  execute: executeOverride,

  exportSection(live, keys) {
    if (live.unreadable !== undefined) return { notExported: `workflow overrides (${live.unreadable})` };
    if (live.byPair.size === 0) return undefined;
    const overrides = [...live.byPair.values()]
      .map((o) => {
        const identifier = live.tenantIdentifiers?.get(o._tenantId);
        const entry: Record<string, unknown> = {
          workflow: keys.workflow.get(o._workflowId) ?? o._workflowId,
          ...(identifier !== undefined ? { tenant: identifier } : { tenantId: o._tenantId }),
          active: o.active === true,
        };
        const off = Object.fromEntries(
          CHANNELS.filter((c) => o.preferenceSettings?.[c] === false).map((c) => [c, false]),
        );
        if (Object.keys(off).length > 0) entry.preferenceSettings = off;
        return entry;
      })
      .sort(
        (a, b) =>
          compare(String(a.workflow), String(b.workflow)) ||
          compare(String(a.tenant ?? a.tenantId), String(b.tenant ?? b.tenantId)),
      );
    return { file: "overrides.yaml", value: overrides };
  },
};

function legacyTenantId(tenant: string | undefined): string | undefined {
  return tenant !== undefined && /^[0-9a-fA-F]{24}$/.test(tenant) ? tenant : undefined;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * An override whose tenant or workflow this config declares and this plan creates (neither
 * resolved to an id): that action gives the id, at apply time, after it ran.
 */
function fromActions(item: DesiredItem): { tenantFromAction?: string; workflowFromAction?: string } {
  const out: { tenantFromAction?: string; workflowFromAction?: string } = {};
  const tenant = item.dependsOn.find((id) => id.startsWith("tenant/"));
  if ((item.ids.tenantId ?? "") === "" && tenant !== undefined) out.tenantFromAction = tenant;
  const workflow = item.dependsOn.find((id) => id.startsWith("workflow/"));
  if ((item.ids.workflowId ?? "") === "" && workflow !== undefined) out.workflowFromAction = workflow;
  return out;
}
