// Per-tenant workflow overrides: identity is (workflow, tenant). The config describes an override
// completely: `active` defaults to false and every channel to true, as the server does on
// creation. Created with POST (create-only in the spec); updated only through the observed
// PUT extension — on a server without it an update is "not applicable", said at plan time.
import type { WorkflowOverride } from "../api/types.js";
import { CHANNELS, type DesiredState } from "../config/model.js";
import type { UnmanagedResource } from "../plan/model.js";
import { digestOf, type JsonObject } from "./canonical.js";
import type { DesiredItem, LiveItem, LiveLookup, PlanContext, ResourceModule } from "./kind.js";

export function overrideLookupKey(workflowId: string, tenantId: string): string {
  return `${workflowId}:${tenantId}`;
}

export function canonicalOverrideFields(
  override: Pick<WorkflowOverride, "active" | "preferenceSettings">,
): JsonObject {
  const fields: JsonObject = { active: override.active === true };
  for (const channel of CHANNELS) {
    fields[`preferenceSettings.${channel}`] = override.preferenceSettings?.[channel] ?? true;
  }
  return fields;
}

export function liveOverrideItem(override: WorkflowOverride): LiveItem {
  const fields = canonicalOverrideFields(override);
  return {
    origin: "api",
    serverId: override._id,
    fields,
    digest: digestOf({ workflowId: override._workflowId, tenantId: override._tenantId, ...fields }),
  };
}

/** Digest of "no override for this pair": a create is stale once the pair exists. */
export const ABSENT_DIGEST = digestOf(null);

export const overrideModule: ResourceModule & { kind: "override" } = {
  kind: "override",
  label: "workflow override",

  desiredItems(desired: DesiredState): DesiredItem[] {
    const idsByKey = new Map(desired.workflows.map((w) => [w.spec.key, w.spec.id]));
    return desired.overrides.map(({ spec, source }) => {
      const workflowId = idsByKey.get(spec.workflow) ?? spec.workflow;
      const fields: JsonObject = { active: spec.active ?? false };
      for (const channel of CHANNELS) {
        fields[`preferenceSettings.${channel}`] = spec.preferenceSettings?.[channel] ?? true;
      }
      return {
        key: `${spec.workflow}@${spec.tenant}`,
        fields,
        source,
        dependsOn: idsByKey.has(spec.workflow) ? [`workflow/${spec.workflow}`] : [],
        ids: { workflowId, tenantId: spec.tenant },
      };
    });
  },

  lookupLive(item: DesiredItem, context: PlanContext): LiveLookup {
    const override = context.live.overrides.get(
      overrideLookupKey(item.ids.workflowId ?? "", item.ids.tenantId ?? ""),
    );
    return override ? { status: "found", item: liveOverrideItem(override) } : { status: "absent" };
  },

  requestsFor(op, item, live, changes, context) {
    if (op === "create" || live === undefined) {
      const preferenceSettings: JsonObject = {};
      for (const channel of CHANNELS)
        preferenceSettings[channel] = item.fields[`preferenceSettings.${channel}`] ?? true;
      return {
        requests: [
          {
            method: "POST",
            path: "/v1/workflow-overrides",
            body: {
              workflowId: item.ids.workflowId ?? "",
              tenantId: item.ids.tenantId ?? "",
              active: item.fields.active ?? false,
              preferenceSettings,
            },
          },
        ],
      };
    }
    if (!context.live.canUpdateOverrides) {
      return {
        notApplicable:
          "the server does not serve PUT /v1/workflow-overrides/{id}; the spec makes overrides create-only, so this change must be made in the dashboard",
      };
    }
    const body: JsonObject = {};
    const preferenceSettings: JsonObject = {};
    for (const change of changes) {
      if (change.field === "active") body.active = change.new;
      else preferenceSettings[change.field.slice("preferenceSettings.".length)] = change.new;
    }
    if (Object.keys(preferenceSettings).length > 0) body.preferenceSettings = preferenceSettings;
    return {
      requests: [
        { method: "PUT", path: `/v1/workflow-overrides/${encodeURIComponent(live.serverId ?? "")}`, body },
      ],
    };
  },

  unmanaged(context: PlanContext, managedKeys: ReadonlySet<string>): UnmanagedResource[] {
    const keysById = new Map(context.desired.workflows.map((w) => [w.spec.id, w.spec.key]));
    const out: UnmanagedResource[] = [];
    for (const override of context.live.overrides.values()) {
      const workflow = keysById.get(override._workflowId) ?? override._workflowId;
      const key = `${workflow}@${override._tenantId}`;
      const rawKey = `${override._workflowId}@${override._tenantId}`;
      if (!managedKeys.has(key) && !managedKeys.has(rawKey)) out.push({ kind: "override", key });
    }
    return out;
  },
};
