// Turn a checked seed into the emulator's data: the organization, the key -> environment map,
// and per environment its records with the fields a real server adds. Ids come from the data's
// counter and timestamps from the injected clock, so the same seed gives the same data.
import type { SubscriberPreference } from "../kinds/endpoints/wire.js";
import {
  generatedTenantId,
  generatedTopicKey,
  generatedWorkflowId,
  type Seed,
  type SeedEnvironment,
  type SeedWorkflow,
} from "./seed.js";
import { seedLayouts } from "./seed-layouts.js";
import { seedSteps } from "./seed-steps.js";
import { CREATOR_ID, type EmulatorData, type EmulatorStore, emptyStore, nextId } from "./store.js";

export { CREATOR_ID };

const DEFAULT_PREFS = { email: true, sms: true, in_app: true, chat: true, push: true };
export const DEFAULT_ORGANIZATION_ID = "64f1000000000000000000aa";
/** Used when a seed lists no keys, so a bare `startEmulator()` is reachable. */
export const DEFAULT_API_KEY = "nf_dev_demo_key";

export function dataFromSeed(seed: Seed, now: string): EmulatorData {
  const data: EmulatorData = {
    organization: {
      // Fields a real server sends beside the spec's.
      apiServiceLevel: "free",
      language: [],
      productUseCases: { delay: false, digest: false, in_app: true, multi_channel: true, translation: false },
      createdAt: now,
      updatedAt: now,
      ...seed.organization,
      _id: seed.organization?._id ?? DEFAULT_ORGANIZATION_ID,
      name: seed.organization?.name ?? "Emulated Organization",
    },
    apiKeys: Object.fromEntries(
      (seed.apiKeys ?? [{ key: DEFAULT_API_KEY, environment: "development" }]).map((k) => [
        k.key,
        k.environment,
      ]),
    ),
    environments: {
      development: emptyStore("development", "64f1000000000000000000d1"),
      production: emptyStore("production", "64f1000000000000000000d2"),
    },
    createdOrganizations: [],
    changes: [],
    nextId: 0,
  };
  for (const name of ["development", "production"] as const) {
    fillStore(data, data.environments[name], seed.environments?.[name] ?? {}, now);
  }
  linkProductionToDevelopment(data);
  // Content before layouts: seeded e-mail steps are on no layout in either environment (as
  // templates made before an organization had layouts are), so both plan alike.
  seedSteps(data, seed, now);
  seedLayouts(data, now);
  return data;
}

/**
 * Seeded Production records stand for promoted copies: a group's `_parentId` is the Development
 * group of the same name, a workflow's the Development workflow of the same trigger identifier
 * (as promotion would have left them), so promoting later updates them instead of copying again.
 */
function linkProductionToDevelopment(data: EmulatorData): void {
  const development = data.environments.development;
  const production = data.environments.production;
  const groupByName = new Map(development.notificationGroups.map((g) => [g.name, g._id]));
  for (const group of production.notificationGroups) {
    const parent = groupByName.get(group.name);
    if (parent !== undefined) group._parentId = parent;
  }
  const workflowByIdentifier = new Map(
    development.workflows.map((w) => [w.triggers[0]?.identifier ?? "", w._id]),
  );
  for (const workflow of production.workflows) {
    const parent = workflowByIdentifier.get(workflow.triggers[0]?.identifier ?? "");
    if (parent !== undefined) workflow._parentId = parent;
  }
}

function fillStore(data: EmulatorData, store: EmulatorStore, seed: SeedEnvironment, now: string): void {
  const owner = { _organizationId: data.organization._id, _environmentId: store.environmentId };
  const stamps = { createdAt: now, updatedAt: now };
  store.notificationGroups.push({ _id: nextId(data), name: "General", ...owner, ...stamps });
  const general = store.notificationGroups[0];
  for (const group of seed.notificationGroups ?? []) {
    store.notificationGroups.push({
      _id: group._id ?? nextId(data),
      name: group.name,
      ...owner,
      _parentId: general?._id ?? "",
      ...stamps,
    });
  }
  for (const topic of seed.topics ?? []) {
    const { key, name, subscribers = [] } = topic;
    store.topics.push({ _id: nextId(data), ...owner, key, name, subscribers });
  }
  for (let n = 1; n <= (seed.generate?.topics ?? 0); n += 1) {
    store.topics.push({
      _id: nextId(data),
      ...owner,
      key: generatedTopicKey(n),
      name: `Topic ${n}`,
      subscribers: [],
    });
  }
  const workflows: SeedWorkflow[] = [...(seed.workflows ?? [])];
  for (let n = 1; n <= (seed.generate?.workflows ?? 0); n += 1)
    workflows.push({ _id: generatedWorkflowId(n), name: `Workflow ${n}`, identifier: `workflow-${n}` });
  for (const w of workflows) {
    const group = store.notificationGroups.find((g) => g.name === w.notificationGroup) ?? general;
    const active = w.active ?? true;
    store.workflows.push({
      _id: w._id,
      name: w.name,
      description: w.description ?? "",
      active,
      draft: !active,
      preferenceSettings: { ...DEFAULT_PREFS, ...w.preferenceSettings },
      critical: w.critical ?? false,
      tags: w.tags ?? [],
      steps: [],
      ...owner,
      _creatorId: CREATOR_ID,
      triggers: [
        {
          _id: nextId(data),
          type: "event",
          identifier: w.identifier ?? slug(w.name),
          variables: [],
          subscriberVariables: [],
          reservedVariables: [],
        },
      ],
      _notificationGroupId: group?._id ?? "",
      deleted: false,
      data: w.data ?? {},
      // Fields a real server sends beside the spec's.
      isBlueprint: false,
      origin: "novu-cloud",
      type: "REGULAR",
      ...stamps,
    } as EmulatorStore["workflows"][number]);
  }
  for (const tenant of seed.tenants ?? []) store.tenants.push({ ...tenant, ...owner, ...stamps });
  for (let n = 1; n <= (seed.generate?.tenants ?? 0); n += 1)
    store.tenants.push({
      _id: generatedTenantId(n),
      identifier: `tenant-${n}`,
      name: `Tenant ${n}`,
      ...owner,
      ...stamps,
    });
  for (const o of seed.overrides ?? []) {
    store.overrides.push({
      _id: nextId(data),
      ...owner,
      _workflowId: o.workflowId,
      _tenantId: o.tenantId,
      active: o.active ?? false,
      preferenceSettings: { ...DEFAULT_PREFS, ...o.preferenceSettings },
      deleted: false,
      ...stamps,
    });
  }
  for (const b of seed.blueprints ?? []) {
    store.blueprints.push({
      description: "",
      active: true,
      draft: false,
      preferenceSettings: { ...DEFAULT_PREFS },
      critical: false,
      tags: [],
      steps: [],
      triggers: [],
      ...owner,
      _creatorId: CREATOR_ID,
      _notificationGroupId: general?._id ?? "",
      deleted: false,
      ...stamps,
      isBlueprint: true,
      ...b,
    } as EmulatorStore["blueprints"][number]);
  }
  for (const s of seed.subscribers ?? []) {
    store.subscribers.push({
      subscriberId: s.subscriberId,
      preferences: (s.preferences ?? []).map((p) => toPreference(p, store)),
    });
  }
  for (const e of seed.executionDetails ?? []) {
    store.executionDetails.push({
      _id: nextId(data),
      ...owner,
      _jobId: nextId(data),
      _messageId: nextId(data),
      _notificationTemplateId: store.workflows[0]?._id ?? "",
      providerId: "novu",
      transactionId: "txn-1",
      channel: "in_app",
      detail: "",
      source: "Internal",
      status: "Success",
      isTest: false,
      isRetry: false,
      createdAt: now,
      ...e,
    } as EmulatorStore["executionDetails"][number]);
  }
}

/** A seeded preference entry with the fields the spec lists filled from the workflow it names. */
function toPreference(
  entry: NonNullable<NonNullable<SeedEnvironment["subscribers"]>[number]["preferences"]>[number],
  store: EmulatorStore,
): SubscriberPreference {
  const workflow = store.workflows.find((w) => w._id === entry.template._id);
  return {
    template: {
      ...entry.template,
      critical: entry.template.critical ?? workflow?.critical ?? false,
      triggers: entry.template.triggers ?? workflow?.triggers.map((t) => t.identifier) ?? [],
    },
    preference: { ...entry.preference, channels: { ...DEFAULT_PREFS, ...entry.preference.channels } },
  };
}

export function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}
