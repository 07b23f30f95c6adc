// Per-tenant workflow overrides: identity is (workflow, tenant). The config describes an override
// completely: `active` defaults to false and every channel to true, as the server does on
// creation. Created with POST (create-only in the spec); updated only through the observed
// PUT extension — on a server without it an update is "not applicable", said at plan time.
import type { WorkflowOverride } from "../api/types.js";
import { CHANNELS, type DesiredState } from "../config/model.js";
import type { UnmanagedResource } from "../plan/model.js";
import { digestOf, type JsonObject, managedFields } from "./canonical.js";
import { duplicatesOf } from "./duplicates.js";
import type { DesiredItem, KindModule, LiveItem, LiveLookup, PlanContext } from "./kind.js";
import { checkOverrideReferences } from "./workflow-override-checks.js";
import { executeOverride, findOverrides, overrideLookupKey } from "./workflow-override-execute.js";

export { overrideLookupKey } from "./workflow-override-execute.js";

export function canonicalOverrideFields(
  override: Pick<WorkflowOverride, "active" | "preferenceSettings">,
): JsonObject {
  const fields: JsonObject = { active: override.active === true };
  for (const channel of CHANNELS) {
    fields[`preferenceSettings.${channel}`] = override.preferenceSettings?.[channel] ?? true;
  }
  return fields;
}

/** `managed`: the fields the config sets; the digest covers only those (all when not given). */
export function liveOverrideItem(override: WorkflowOverride, managed?: Iterable<string>): LiveItem {
  const fields = canonicalOverrideFields(override);
  const covered = managed === undefined ? fields : managedFields(fields, managed);
  return {
    origin: "api",
    serverId: override._id,
    fields,
    digest: digestOf({ workflowId: override._workflowId, tenantId: override._tenantId, ...covered }),
  };
}

/** Digest of "no override for this pair": a create is stale once the pair exists. */
export const ABSENT_DIGEST = digestOf(null);

function byPair(overrides: readonly WorkflowOverride[]): Map<string, WorkflowOverride> {
  return new Map(overrides.map((o) => [overrideLookupKey(o._workflowId, o._tenantId), o]));
}

export const overrideKind: KindModule<"override"> = {
  kind: "override",
  section: { name: "overrides", shape: "list", identityFields: ["workflow", "tenant"] },
  label: { one: "workflow override", many: "workflow overrides" },
  identity: (spec) => `${spec.workflow} / tenant ${spec.tenant}`,
  checkReferences: checkOverrideReferences,

  desiredItems(desired: DesiredState): DesiredItem[] {
    const idsByKey = new Map(desired.resources.workflow.map((w) => [w.spec.key, w.spec.id]));
    return desired.resources.override.map(({ spec, source }) => {
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
    const override = context.live.kinds.override.byPair.get(
      overrideLookupKey(item.ids.workflowId ?? "", item.ids.tenantId ?? ""),
    );
    return override
      ? { status: "found", item: liveOverrideItem(override, Object.keys(item.fields)) }
      : { status: "absent" };
  },

  operationsFor(op, item, live, changes, context) {
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
    const out: UnmanagedResource[] = [];
    for (const override of context.live.kinds.override.byPair.values()) {
      const workflow = keysById.get(override._workflowId) ?? override._workflowId;
      const key = `${workflow}@${override._tenantId}`;
      const rawKey = `${override._workflowId}@${override._tenantId}`;
      if (!managedKeys.has(key) && !managedKeys.has(rawKey)) out.push({ kind: "override", key });
    }
    return out;
  },

  async readLive(client, { desired, everything, signal }) {
    const read = everything || desired.resources.override.length > 0;
    const overrides = read ? await client.listAllWorkflowOverrides(signal ? { signal } : {}) : [];
    return {
      live: {
        byPair: byPair(overrides),
        canUpdate: client.capability("updateWorkflowOverride") !== "unsupported",
      },
      duplicates: duplicatesOf(overrides, (o) => `${o._workflowId}@${o._tenantId}`),
    };
  },

  execute: executeOverride,

  async reread(actions, client) {
    const overrides = actions.length === 0 ? [] : await findOverrides(actions, client);
    // Known only from an earlier answer: finding out would take a write (see src/api/probe.ts).
    return {
      byPair: byPair(overrides),
      canUpdate: client.capability("updateWorkflowOverride") !== "unsupported",
    };
  },

  exportSection(live, keys) {
    if (live.byPair.size === 0) return undefined;
    const overrides = [...live.byPair.values()]
      .map((o) => {
        const entry: Record<string, unknown> = {
          workflow: keys.workflow.get(o._workflowId) ?? o._workflowId,
          tenant: o._tenantId,
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
          compare(String(a.workflow), String(b.workflow)) || compare(String(a.tenant), String(b.tenant)),
      );
    return { file: "overrides.yaml", value: overrides };
  },
};

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
