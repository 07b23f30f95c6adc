// Seeds: what the emulator starts with, read from YAML or JSON, checked against
// schemas/seed.schema.json (compiled once, by src/schemas.ts) and then for references the schema
// cannot express (an override's workflow and tenant, a workflow's group, duplicate ids). Every problem names the
// seed and the field. Turning a seed into data is seed-data.ts's job. Never prints a key.
import type { ErrorObject } from "ajv/dist/2020.js";
import { parseDocument } from "yaml";
import { readBoundedFile } from "../bounded-file.js";
import { excessiveAlias, MAX_ALIAS_EXPANSION } from "../config/alias-budget.js";
import { NotiformError } from "../errors.js";
import type { Branding } from "../kinds/branding/wire.js";
import type { PartnerConfiguration } from "../kinds/endpoints/wire.js";
import { validatorOf } from "../schemas.js";
import type { EnvironmentName } from "./store.js";

export type SeedChannels = Partial<Record<"email" | "sms" | "in_app" | "chat" | "push", boolean>>;

// A type, not an interface: like the schema, it admits fields beyond those named.
export type SeedPreference = {
  template: { _id: string; name: string; critical?: boolean; triggers?: string[] };
  preference: { enabled: boolean; channels: SeedChannels };
};

export interface SeedWorkflow {
  _id: string;
  name: string;
  identifier?: string;
  active?: boolean;
  description?: string;
  tags?: string[];
  critical?: boolean;
  preferenceSettings?: SeedChannels;
  /** The name of a notification group of the same environment (default "General"). */
  notificationGroup?: string;
  data?: Record<string, unknown>;
  /** The workflow's content as a client sends it; built as a PUT with `steps` builds it. */
  steps?: SeedStep[];
}

export interface SeedStep {
  name?: string;
  active?: boolean;
  shouldStopOnFail?: boolean;
  filters?: Record<string, unknown>[];
  metadata?: Record<string, unknown>;
  template: {
    type: "email" | "in_app" | "sms" | "chat" | "push" | "digest" | "delay" | "trigger";
    name?: string;
    subject?: string;
    content?: string | Record<string, unknown>[];
    contentType?: "editor" | "customHtml";
    preheader?: string;
    senderName?: string;
    title?: string;
    cta?: Record<string, unknown>;
    variables?: Record<string, unknown>[];
  };
}

export interface SeedEnvironment {
  topics?: { key: string; name: string; subscribers?: string[] }[];
  notificationGroups?: { _id?: string; name: string }[];
  workflows?: SeedWorkflow[];
  tenants?: { _id: string; identifier?: string; name?: string }[];
  overrides?: { workflowId: string; tenantId: string; active?: boolean; preferenceSettings?: SeedChannels }[];
  blueprints?: ({ _id: string; name: string; description?: string } & Record<string, unknown>)[];
  executionDetails?: ({
    _notificationId: string;
    _subscriberId: string;
    channel?: string;
    detail?: string;
    status?: string;
  } & Record<string, unknown>)[];
  subscribers?: { subscriberId: string; preferences?: SeedPreference[] }[];
  generate?: { topics?: number; tenants?: number; workflows?: number };
}

export interface Seed {
  organization?: {
    _id?: string;
    name: string;
    logo?: string;
    branding?: Branding;
    partnerConfigurations?: PartnerConfiguration[];
  };
  apiKeys?: { key: string; environment: EnvironmentName }[];
  environments?: Partial<Record<EnvironmentName, SeedEnvironment>>;
}

const ENVIRONMENTS = ["development", "production"] as const;

/**
 * Check a parsed seed; `source` names it in every problem (a file path, or "(seed option)").
 * `references: false` checks the schema only: a partial seed meant to be combined with another.
 */
export function checkSeed(seed: unknown, source: string, { references = true } = {}): Seed {
  const validate = validatorOf("seed");
  if (!validate(seed)) {
    throw invalidSeed(source, (validate.errors ?? []).map(describeSchemaError));
  }
  if (!references) return seed as Seed;
  const problems = findReferenceProblems(seed as Seed);
  if (problems.length > 0) throw invalidSeed(source, problems);
  return seed as Seed;
}

export async function loadSeedFile(path: string): Promise<Seed> {
  // Bounded: a regular file of at most 20 MB, whose aliases expand to at most a million values.
  const read = await readBoundedFile(path);
  if (!read.ok) {
    throw new NotiformError("USAGE", `the emulator seed ${path} cannot be read: it ${read.reason}`, {
      pos: { file: path, line: 1, col: 1 },
    });
  }
  const text = read.bytes.toString("utf8");
  const json = path.toLowerCase().endsWith(".json");
  let parsed: unknown;
  try {
    parsed = json ? JSON.parse(text) : parseYaml(text, path);
  } catch (error) {
    if (error instanceof NotiformError) throw error;
    const first = error instanceof Error ? (error.message.split("\n")[0] ?? "") : "";
    throw new NotiformError(
      "USAGE",
      `the emulator seed ${path} is not valid ${json ? "JSON" : "YAML"}: ${first}`,
      { hint: "See schemas/seed.schema.json and docs/emulator.md." },
    );
  }
  return checkSeed(parsed ?? {}, path);
}

/** Combine a seed file with a seed object: the object wins per section (per environment section). */
/** YAML to data, refusing aliases that expand past the budget (the library's own limit does not). */
function parseYaml(text: string, path: string): unknown {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) throw doc.errors[0];
  const bomb = excessiveAlias(doc);
  if (bomb !== undefined) {
    const offset = bomb.range?.[0] ?? 0;
    const before = text.slice(0, offset);
    const line = before.split("\n").length;
    throw new NotiformError(
      "USAGE",
      `the emulator seed ${path}: its aliases expand into more than ${MAX_ALIAS_EXPANSION} values; refusing to load it`,
      { pos: { file: path, line, col: offset - before.lastIndexOf("\n") } },
    );
  }
  return doc.toJS({ maxAliasCount: -1 });
}

export function combineSeeds(base: Seed | undefined, over: Seed | undefined): Seed {
  const out: Seed = { ...base, ...over };
  const environments: Partial<Record<EnvironmentName, SeedEnvironment>> = { ...base?.environments };
  for (const name of ENVIRONMENTS) {
    const section = over?.environments?.[name];
    if (section !== undefined) environments[name] = { ...base?.environments?.[name], ...section };
  }
  out.environments = environments;
  return out;
}

function invalidSeed(source: string, problems: string[]): NotiformError {
  const list = problems.map((p) => `\n  - ${p}`).join("");
  return new NotiformError("USAGE", `the emulator seed ${source} is not valid:${list}`, {
    hint: "See schemas/seed.schema.json and docs/emulator.md.",
  });
}

/** "/environments/development/workflows/0/_id" -> "environments.development.workflows[0]._id". */
function fieldOf(pointer: string): string {
  const parts = pointer
    .split("/")
    .slice(1)
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
  let out = "";
  for (const part of parts) out += /^\d+$/.test(part) ? `[${part}]` : out === "" ? part : `.${part}`;
  return out === "" ? "(top level)" : out;
}

function describeSchemaError(error: ErrorObject): string {
  const field = fieldOf(error.instancePath);
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "additionalProperties")
    return `${field}: unknown field "${String(params.additionalProperty)}"`;
  if (error.keyword === "required") return `${field}: missing field "${String(params.missingProperty)}"`;
  if (error.keyword === "enum")
    return `${field}: must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
  if (error.keyword === "pattern" && String(params.pattern).includes("{24}"))
    return `${field}: must be a 24-character hex id`;
  return `${field}: ${error.message ?? "is not valid"}`;
}

/** References and uniqueness, per environment; generated records count as present. */
function findReferenceProblems(seed: Seed): string[] {
  const problems: string[] = [];
  const keys = new Set<string>();
  (seed.apiKeys ?? []).forEach((k, i) => {
    if (keys.has(k.key)) problems.push(`apiKeys[${i}].key: the same key is listed twice`);
    keys.add(k.key);
  });
  for (const name of ENVIRONMENTS) {
    const env = seed.environments?.[name];
    if (env === undefined) continue;
    const at = `environments.${name}`;
    const duplicates = (section: string, values: string[], what: string) => {
      const seen = new Set<string>();
      values.forEach((value, i) => {
        if (seen.has(value)) problems.push(`${at}.${section}[${i}]: ${what} ${value} is listed twice`);
        seen.add(value);
      });
    };
    duplicates(
      "topics",
      (env.topics ?? []).map((t) => t.key),
      "topic key",
    );
    duplicates(
      "workflows",
      (env.workflows ?? []).map((w) => w._id),
      "workflow id",
    );
    duplicates(
      "tenants",
      (env.tenants ?? []).map((t) => t._id),
      "tenant id",
    );
    duplicates(
      "overrides",
      (env.overrides ?? []).map((o) => `${o.workflowId}/${o.tenantId}`),
      "workflow/tenant pair",
    );
    const groups = new Set(["General", ...(env.notificationGroups ?? []).map((g) => g.name)]);
    (env.workflows ?? []).forEach((w, i) => {
      if (w.notificationGroup !== undefined && !groups.has(w.notificationGroup)) {
        problems.push(
          `${at}.workflows[${i}].notificationGroup: no notification group named "${w.notificationGroup}" in ${name}`,
        );
      }
    });
    const workflows = new Set([
      ...(env.workflows ?? []).map((w) => w._id),
      ...generatedIds(env.generate?.workflows ?? 0, generatedWorkflowId),
    ]);
    const tenants = new Set([
      ...(env.tenants ?? []).map((t) => t._id),
      ...generatedIds(env.generate?.tenants ?? 0, generatedTenantId),
    ]);
    (env.overrides ?? []).forEach((o, i) => {
      if (!workflows.has(o.workflowId))
        problems.push(`${at}.overrides[${i}].workflowId: no workflow ${o.workflowId} in ${name}`);
      if (!tenants.has(o.tenantId))
        problems.push(`${at}.overrides[${i}].tenantId: no tenant ${o.tenantId} in ${name}`);
    });
  }
  return problems;
}

function generatedIds(count: number, idOf: (n: number) => string): string[] {
  return Array.from({ length: count }, (_, i) => idOf(i + 1));
}

/** Ids of generated records, numbered from 1; prefixes apart from the example seed's ids. */
export const generatedTopicKey = (n: number) => `topic-${String(n).padStart(5, "0")}`;
export const generatedTenantId = (n: number) => `66${n.toString(16).padStart(22, "0")}`;
export const generatedWorkflowId = (n: number) => `64f1c0ffef${n.toString(16).padStart(14, "0")}`;
