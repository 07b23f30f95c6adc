// Seeds: what the emulator starts with, read from YAML or JSON and checked against
// schemas/seed.schema.json (compiled once), then turned into the emulator's data. A `generate`
// block makes many deterministic records for benchmarks.
import { readFile } from "node:fs/promises";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";
import { parse } from "yaml";
import type { PartnerConfiguration, SubscriberPreference } from "../api/types.js";
import { NotiformError } from "../errors.js";
import { readPackageJson } from "../package-files.js";
import { type EmulatorData, type EmulatorStore, type EnvironmentName, emptyStore, nextId } from "./store.js";

type Channels = Partial<Record<"email" | "sms" | "in_app" | "chat" | "push", boolean>>;

export interface SeedEnvironment {
  topics?: { key: string; name: string; subscribers?: string[] }[];
  notificationGroups?: { _id?: string; name: string }[];
  workflows?: {
    _id: string;
    name: string;
    identifier?: string;
    active?: boolean;
    description?: string;
    tags?: string[];
    critical?: boolean;
    preferenceSettings?: Channels;
    notificationGroup?: string;
    data?: Record<string, unknown>;
  }[];
  tenants?: { _id: string; identifier?: string; name?: string }[];
  overrides?: { workflowId: string; tenantId: string; active?: boolean; preferenceSettings?: Channels }[];
  blueprints?: ({ _id: string; name: string; description?: string } & Record<string, unknown>)[];
  executionDetails?: ({ _notificationId: string; _subscriberId: string } & Record<string, unknown>)[];
  subscribers?: { subscriberId: string; preferences?: SubscriberPreference[] }[];
  generate?: { topics?: number; tenants?: number; workflows?: number };
}

export interface Seed {
  organization?: {
    _id?: string;
    name: string;
    logo?: string;
    branding?: Record<string, string>;
    partnerConfigurations?: PartnerConfiguration[];
  };
  apiKeys?: { key: string; environment: EnvironmentName }[];
  environments?: Partial<Record<EnvironmentName, SeedEnvironment>>;
}

let compiled: ValidateFunction | undefined;

export function checkSeed(seed: unknown, source: string): Seed {
  if (compiled === undefined) {
    const ajv = new Ajv2020.default({ allErrors: true, strict: false });
    compiled = ajv.compile(readPackageJson("schemas", "seed.schema.json") as object);
  }
  if (!compiled(seed)) {
    const problems = (compiled.errors ?? []).map(
      (e) => `${e.instancePath || "/"} ${e.message ?? "is not valid"}`,
    );
    throw new NotiformError("USAGE", `the emulator seed ${source} is not valid: ${problems.join("; ")}`, {
      hint: "See schemas/seed.schema.json and docs/emulator.md.",
    });
  }
  return seed as Seed;
}

export async function loadSeedFile(path: string): Promise<Seed> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    throw new NotiformError("USAGE", `the emulator seed ${path} cannot be read`);
  }
  let parsed: unknown;
  try {
    parsed = path.endsWith(".json") ? JSON.parse(text) : parse(text);
  } catch (error) {
    throw new NotiformError(
      "USAGE",
      `the emulator seed ${path} is not valid ${path.endsWith(".json") ? "JSON" : "YAML"}: ${(error as Error).message.split("\n")[0]}`,
    );
  }
  return checkSeed(parsed ?? {}, path);
}

/** Combine a seed file with a seed object: the object wins per section. */
export function combineSeeds(base: Seed | undefined, over: Seed | undefined): Seed {
  const out: Seed = { ...base, ...over };
  const environments: Partial<Record<EnvironmentName, SeedEnvironment>> = { ...base?.environments };
  for (const [name, env] of Object.entries(over?.environments ?? {})) {
    environments[name as EnvironmentName] = { ...base?.environments?.[name as EnvironmentName], ...env };
  }
  out.environments = environments;
  return out;
}

const DEFAULT_PREFS = { email: true, sms: true, in_app: true, chat: true, push: true };

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
      _id: seed.organization?._id ?? "64f1000000000000000000aa",
      name: seed.organization?.name ?? "Emulated Organization",
    },
    apiKeys: Object.fromEntries(
      (seed.apiKeys ?? [{ key: "nf_dev_demo_key", environment: "development" }]).map((k) => [
        k.key,
        k.environment,
      ]),
    ),
    environments: {
      development: emptyStore("development", "64f1000000000000000000d1"),
      production: emptyStore("production", "64f1000000000000000000d2"),
    },
    createdOrganizations: [],
    nextId: 0,
  };
  for (const name of ["development", "production"] as const) {
    fillStore(data, data.environments[name], seed.environments?.[name] ?? {}, now);
  }
  return data;
}

function fillStore(data: EmulatorData, store: EmulatorStore, seed: SeedEnvironment, now: string): void {
  const owner = { _organizationId: data.organization._id, _environmentId: store.environmentId };
  const stamps = { createdAt: now, updatedAt: now };
  store.notificationGroups.push({ _id: nextId(data), name: "General", ...owner, ...stamps });
  const parent = store.notificationGroups[0]?._id ?? "";
  for (const group of seed.notificationGroups ?? []) {
    store.notificationGroups.push({
      _id: group._id ?? nextId(data),
      name: group.name,
      ...owner,
      _parentId: parent,
      ...stamps,
    });
  }
  for (const topic of seed.topics ?? []) {
    store.topics.push({
      _id: nextId(data),
      ...owner,
      key: topic.key,
      name: topic.name,
      subscribers: topic.subscribers ?? [],
    });
  }
  for (let i = 0; i < (seed.generate?.topics ?? 0); i += 1) {
    const key = `topic-${String(i).padStart(5, "0")}`;
    store.topics.push({ _id: nextId(data), ...owner, key, name: `Topic ${i}`, subscribers: [] });
  }
  const general = store.notificationGroups[0];
  const workflows = [...(seed.workflows ?? [])];
  for (let i = 0; i < (seed.generate?.workflows ?? 0); i += 1) {
    workflows.push({
      _id: `64f1c0ffee${i.toString(16).padStart(14, "0")}`,
      name: `Workflow ${i}`,
      active: true,
    });
  }
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
      _creatorId: "64f1000000000000000000cc",
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
      createdAt: now,
      updatedAt: now,
    } as EmulatorStore["workflows"][number]);
  }
  store.tenants.push(...(seed.tenants ?? []));
  for (let i = 0; i < (seed.generate?.tenants ?? 0); i += 1)
    store.tenants.push({ _id: `65${i.toString(16).padStart(22, "0")}` });
  for (const o of seed.overrides ?? []) {
    store.overrides.push({
      _id: nextId(data),
      ...owner,
      _workflowId: o.workflowId,
      _tenantId: o.tenantId,
      active: o.active ?? false,
      preferenceSettings: { ...DEFAULT_PREFS, ...o.preferenceSettings },
      deleted: false,
      createdAt: now,
      updatedAt: now,
    });
  }
  for (const b of seed.blueprints ?? []) {
    store.blueprints.push({
      description: "",
      active: true,
      draft: false,
      preferenceSettings: DEFAULT_PREFS,
      critical: false,
      tags: [],
      steps: [],
      triggers: [],
      ...owner,
      _creatorId: "64f1000000000000000000cc",
      _notificationGroupId: general?._id ?? "",
      deleted: false,
      createdAt: now,
      updatedAt: now,
      isBlueprint: true,
      ...b,
    } as EmulatorStore["blueprints"][number]);
  }
  for (const s of seed.subscribers ?? [])
    store.subscribers.push({ subscriberId: s.subscriberId, preferences: s.preferences ?? [] });
  for (const e of seed.executionDetails ?? []) {
    store.executionDetails.push({
      _id: nextId(data),
      ...owner,
      _jobId: nextId(data),
      _notificationTemplateId: store.workflows[0]?._id ?? "",
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

function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}
