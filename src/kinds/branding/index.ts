// Organization branding: one per organization, so its identity is the organization itself.
// Only the fields the config sets are managed. Read from GET /v1/organizations/me (a fresh
// organization has no `branding` key); written with the observed extension PUT
// /v1/organizations/branding, which takes any subset of the fields and REPLACES the whole object:
// so one call carries the managed fields as desired and every other live field as it is, or the
// PUT would clear them. A server that serves the spec alone has no such route: there a change is
// planned as not applicable.

import { digestOf, type JsonObject, managedFields } from "../../canonical.js";
import type { DesiredState } from "../../config/model.js";
import type { DesiredItem, ExecuteContext, ExecuteResult, KindModule, ReadScope } from "../kind.js";
import type { LiveByKind } from "../kinds.js";
import type { NotificationApi } from "../notification-api.js";
import type { PlanAction } from "../plan-action.js";
import { unlessUnsupported } from "../unsupported.js";
import { brandingApi } from "./api.js";
import { brandingRequest } from "./requests.js";
import type { BrandingOperation } from "./types.js";
import type { Branding } from "./wire.js";

export const BRANDING_FIELDS = [
  "color",
  "fontColor",
  "contentBackground",
  "fontFamily",
  "logo",
  "direction",
] as const;
const KEY = "organization";

function fieldsOf(branding: Branding | Record<string, unknown>): JsonObject {
  const out: JsonObject = {};
  for (const field of BRANDING_FIELDS) {
    const value = (branding as Record<string, unknown>)[field];
    if (typeof value === "string") out[field] = value;
  }
  return out;
}

const NOT_SERVED =
  "the server serves the spec alone (no PUT /v1/organizations/branding): change branding in the dashboard";

/**
 * Whether the server can write branding, found with reads only: a server that has the observed
 * extensions (the notification group list among them) serves the branding route too; one that
 * serves the spec alone has none of them. An earlier 404 route answer settles it.
 */
async function notWritable(client: NotificationApi, signal?: AbortSignal): Promise<string | undefined> {
  if (client.capability("updateOrganizationBranding") === "unsupported") return NOT_SERVED;
  if (client.capability("updateOrganizationBranding") === "supported") return undefined;
  const known = client.capability("listNotificationGroups");
  if (known !== "unknown") return known === "supported" ? undefined : NOT_SERVED;
  const groups = await unlessUnsupported(client.listNotificationGroups(signal ? { signal } : {}));
  return groups === undefined ? NOT_SERVED : undefined;
}

async function readBranding(client: NotificationApi, scope: ReadScope): Promise<LiveByKind["branding"]> {
  const wanted = scope.everything || scope.desired.resources.branding.length > 0;
  if (!wanted) return { current: {} };
  const options = scope.signal ? { signal: scope.signal } : {};
  const [organization, why] = await Promise.all([
    client.getCurrentOrganization(options),
    notWritable(client, scope.signal),
  ]);
  return { current: organization.branding ?? {}, ...(why !== undefined ? { notWritable: why } : {}) };
}

async function executeBranding(
  _action: PlanAction,
  op: BrandingOperation,
  { client, signal }: ExecuteContext,
): Promise<ExecuteResult> {
  const stored = await client.updateOrganizationBranding(op.branding as Branding, signal ? { signal } : {});
  return { fields: fieldsOf(stored) };
}

export const brandingKind: KindModule<"branding"> = {
  kind: "branding",
  section: { name: "branding", shape: "single", identityFields: [] },
  label: { one: "branding", many: "branding" },
  api: brandingApi,
  requestOf: brandingRequest,
  creates: [],
  identity: () => KEY,

  desiredItems(desired: DesiredState): DesiredItem[] {
    return desired.resources.branding.map(({ spec, source }) => ({
      key: KEY,
      fields: fieldsOf(spec as Record<string, unknown>),
      source,
      dependsOn: [],
      ids: {},
    }));
  },

  lookupLive(item, context) {
    const fields = fieldsOf(context.live.kinds.branding.current);
    const covered = managedFields(fields, Object.keys(item.fields));
    return { status: "found", item: { origin: "api", fields, digest: digestOf(covered) } };
  },

  operationsFor(_op, item, live, _changes, context) {
    const why = context.live.kinds.branding.notWritable;
    if (why !== undefined) return { notApplicable: why };
    // The PUT replaces the whole object: the live fields the config leaves out go along unchanged.
    const branding = { ...live?.fields, ...item.fields };
    return { operations: [{ type: "branding.update", branding }] };
  },

  unmanaged: () => [],
  readLive: async (client, scope) => ({ live: await readBranding(client, scope) }),
  execute: executeBranding,
  exportSection(live) {
    const fields = fieldsOf(live.current);
    return Object.keys(fields).length === 0 ? undefined : { file: "branding.yaml", value: fields };
  },
};
