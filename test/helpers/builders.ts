// Small builders for planner tests: a desired state, a live snapshot and a state file from
// plain literals, with positions filled in so assertions can name them; and a plan of update
// actions for the renderers' tests.

import type { Desired, DesiredState } from "../../src/config/model.js";
import type { BrandingSpec } from "../../src/kinds/branding/types.js";
import type { Branding } from "../../src/kinds/branding/wire.js";
import type { LiveSnapshot } from "../../src/kinds/kind.js";
import type { NotificationGroupSpec } from "../../src/kinds/notification-group/types.js";
import type { NotificationGroup } from "../../src/kinds/notification-group/wire.js";
import { overrideLookupKey } from "../../src/kinds/override/index.js";
import type { OverrideSpec } from "../../src/kinds/override/types.js";
import type { WorkflowOverride } from "../../src/kinds/override/wire.js";
import type { PlanAction } from "../../src/kinds/plan-action.js";
import type { TenantSpec } from "../../src/kinds/tenant/types.js";
import type { Tenant } from "../../src/kinds/tenant/wire.js";
import type { TopicSpec } from "../../src/kinds/topic/types.js";
import type { Topic } from "../../src/kinds/topic/wire.js";
import type { WorkflowSpec } from "../../src/kinds/workflow/types.js";
import type { Workflow } from "../../src/kinds/workflow/wire.js";
import { PLAN_FORMAT_VERSION, type Plan } from "../../src/plan/model.js";
import { emptyState, type StateFile } from "../../src/state/model.js";

const ORG = "6b02c104d413275d06fb31c1";
const ENV = "6b02c104d413275d06fb31c7";

let line = 0;
function located<T>(spec: T): Desired<T> {
  line += 1;
  return { spec, source: { pos: { file: "notiform.yaml", line, col: 5 }, fields: {} } };
}

export function desiredState(parts: {
  organization?: string;
  topics?: TopicSpec[];
  notificationGroups?: NotificationGroupSpec[];
  workflows?: WorkflowSpec[];
  overrides?: OverrideSpec[];
  tenants?: TenantSpec[];
  branding?: BrandingSpec;
}): DesiredState {
  line = 0;
  return {
    organization: parts.organization ?? "Acme Inc",
    apiKeyEnv: "NOTIFORM_API_KEY",
    resources: {
      topic: (parts.topics ?? []).map(located),
      tenant: (parts.tenants ?? []).map(located),
      layout: [],
      notificationGroup: (parts.notificationGroups ?? []).map(located),
      workflow: (parts.workflows ?? []).map(located),
      override: (parts.overrides ?? []).map(located),
      branding: parts.branding === undefined ? [] : [located(parts.branding)],
    },
    rootFile: "/work/notiform.yaml",
    files: ["/work/notiform.yaml"],
    digest: "sha256:test",
    sensitive: [],
  };
}

export function topic(key: string, name: string): Topic {
  return { _id: `t-${key}`, _organizationId: ORG, _environmentId: ENV, key, name, subscribers: [] };
}

export function group(id: string, name: string): NotificationGroup {
  return { _id: id, name, _organizationId: ORG, _environmentId: ENV };
}

export function workflow(id: string, fields: Partial<Workflow> = {}): Workflow {
  return {
    _id: id,
    name: `Workflow ${id.slice(-4)}`,
    description: "",
    active: true,
    draft: false,
    preferenceSettings: { email: true, sms: true, in_app: true, chat: true, push: true },
    critical: false,
    tags: [],
    steps: [],
    _organizationId: ORG,
    _creatorId: ORG,
    _environmentId: ENV,
    triggers: [],
    _notificationGroupId: "000000000000000000000001",
    deleted: false,
    ...fields,
  };
}

export function override(
  workflowId: string,
  tenantId: string,
  fields: Partial<WorkflowOverride> = {},
): WorkflowOverride {
  return {
    _id: `o-${workflowId.slice(-4)}-${tenantId.slice(-4)}`,
    _organizationId: ORG,
    _environmentId: ENV,
    _workflowId: workflowId,
    _tenantId: tenantId,
    active: false,
    preferenceSettings: { email: true, sms: true, in_app: true, chat: true, push: true },
    deleted: false,
    createdAt: "2026-11-22T10:00:00.000Z",
    updatedAt: "2026-11-22T10:00:00.000Z",
    ...fields,
  };
}

export function liveSnapshot(parts: {
  topics?: Topic[];
  tenants?: Tenant[];
  overrides?: WorkflowOverride[];
  workflows?: Workflow[] | undefined;
  notificationGroups?: NotificationGroup[] | undefined;
  canUpdateOverrides?: boolean;
  branding?: Branding;
  brandingNotWritable?: string;
}): LiveSnapshot {
  return {
    organization: { id: ORG, name: "Acme Inc" },
    kinds: {
      topic: new Map((parts.topics ?? []).map((t) => [t.key, t])),
      tenant: new Map((parts.tenants ?? []).map((t) => [t.identifier, t])),
      layout: new Map(),
      override: {
        byPair: new Map(
          (parts.overrides ?? []).map((o) => [overrideLookupKey(o._workflowId, o._tenantId), o]),
        ),
        canUpdate: parts.canUpdateOverrides ?? true,
      },
      workflow:
        "workflows" in parts && parts.workflows !== undefined
          ? new Map(parts.workflows.map((w) => [w._id, w]))
          : undefined,
      notificationGroup: parts.notificationGroups,
      branding: {
        current: parts.branding ?? {},
        ...(parts.brandingNotWritable !== undefined ? { notWritable: parts.brandingNotWritable } : {}),
      },
    },
    duplicates: {},
  };
}

export function noState(): StateFile {
  return emptyState({ apiUrl: "http://127.0.0.1:4010", organization: "Acme Inc", environment: null });
}

export const TARGET = { apiUrl: "http://127.0.0.1:4010", organization: "Acme Inc", environment: null };

/**
 * A plan of `actions` for renderer and executor tests (they read the actions, the target, the
 * warnings and the summary): the summary counts the actions' creates and updates.
 */
export function planOf(
  actions: PlanAction[],
  more: { target?: Partial<Plan["target"]>; warnings?: Plan["warnings"] } = {},
): Plan {
  return {
    formatVersion: PLAN_FORMAT_VERSION,
    createdBy: "test",
    target: { apiUrl: "http://127.0.0.1", organization: "Acme", environment: "development", ...more.target },
    configDigest: "",
    actions,
    unmanaged: [],
    bindings: { notificationGroups: {} },
    resolvedIntents: [],
    warnings: more.warnings ?? [],
    summary: {
      create: actions.filter((a) => a.op === "create").length,
      update: actions.filter((a) => a.op === "update").length,
      unverified: 0,
      notApplicable: 0,
      uncertain: 0,
      unchanged: 0,
      unmanaged: 0,
    },
  };
}

/** An update of KIND/KEY (a workflow, order-shipped, unless told) made of `changes` alone. */
export function updateAction(
  changes: PlanAction["changes"],
  kind: PlanAction["kind"] = "workflow",
  key = "order-shipped",
): PlanAction {
  return {
    id: `${kind}/${key}`,
    kind,
    key,
    op: "update",
    changes,
    operations: [],
    requests: [],
    dependsOn: [],
    live: { origin: "api", digest: "" },
  };
}
