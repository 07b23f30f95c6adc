// Merging resources across files: the base files (root + includes) may not define one identity
// twice (both places are named); an environment's files are layered over the base, where the
// same identity overrides field by field (preferenceSettings channel by channel). Kinds and
// their identities come from the registry.

import { isFlagged } from "../config/flagged.js";
import type { Desired, Resources } from "../config/model.js";
import { where } from "../config/where.js";
import type { Problem } from "../errors.js";
import type { KindModule } from "../kinds/kind.js";
import { KINDS, type Kind, registry } from "../kinds/registry.js";
import { schemaOf } from "../schemas.js";
import { emptyResources } from "./defaults.js";

export { where } from "../config/where.js";

/** The identity of an entry of a kind (an override: "workflow / tenant T"). */
export function identityOf(kind: Kind, spec: unknown): string {
  return (registry[kind] as KindModule<Kind>).identity(spec as never);
}

/** Whether an entry can be identified (always, once the schema passed). */
function isIdentifiable(kind: Kind, spec: unknown): boolean {
  if (spec === null || typeof spec !== "object") return false;
  const entry = spec as Record<string, unknown>;
  return registry[kind].section.identityFields.every((field) =>
    (typeof field === "string" ? [field] : field).some((name) => typeof entry[name] === "string"),
  );
}

/**
 * After layering: every entry has the fields the schema requires (an
 * overlay file may leave them to the base, so the file-level schema check of overlays does not
 * require them); then each kind fills in what may be left out. `label` names the environment.
 */
export function completeResources(resources: Resources, problems: Problem[], label: string): Resources {
  const out = emptyResources();
  for (const kind of KINDS) {
    const module = registry[kind] as KindModule<Kind>;
    const into = out[kind] as Desired<unknown>[];
    for (const item of resources[kind] as Desired<unknown>[]) {
      const entry = item.spec as Record<string, unknown>;
      const missing = requiredOf(kind).filter((name) => entry[name] === undefined);
      // A field the schema refused was taken out (Source.flagged): already told.
      const untold = missing.filter((field) => !isFlagged(item.source, field));
      for (const name of untold) {
        problems.push({
          severity: "error",
          rule: "schema",
          message: `${module.label.one} "${module.identity(item.spec as never)}"${label}: missing required field "${name}"`,
          pos: item.source.pos,
        });
      }
      // An entry whose only missing fields were refused stays, so the entries naming it do not
      // call it missing too (the config fails on the refusal: no such entry is ever planned).
      if (untold.length > 0) continue;
      // Spaces alone pass the schema's minLength; notiform refuses such a name before sending it
      // (the server answers an empty one 500), so validate says so at its line.
      if (typeof entry.name === "string" && entry.name !== "" && entry.name.trim() === "")
        problems.push({
          severity: "error",
          rule: "schema",
          message: `${module.label.one} "${module.identity(item.spec as never)}"${label}: name must not be blank`,
          pos: item.source.fields.name ?? item.source.pos,
        });
      into.push(module.complete ? { ...item, spec: module.complete(item.spec as never) } : item);
    }
  }
  return out;
}

/** The fields the schema requires of a kind's entries. */
function requiredOf(kind: Kind): string[] {
  const schema = schemaOf("notiform") as {
    properties: Record<string, { items?: { $ref?: string }; $ref?: string }>;
    $defs: Record<string, { required?: string[] }>;
  };
  const section = schema.properties[registry[kind].section.name];
  const ref = section?.items?.$ref ?? section?.$ref ?? "";
  return schema.$defs[ref.replace("#/$defs/", "")]?.required ?? [];
}

/**
 * An identity that may be given by either of two fields (a workflow's key or identifier, an
 * override's tenant or tenantId) cannot be required by the schema: told here when neither is.
 */
function reportAlternatives(kind: Kind, item: Desired<unknown>, problems: Problem[]): void {
  if (!isObject(item.spec)) return;
  const entry = item.spec;
  for (const field of registry[kind].section.identityFields) {
    if (typeof field === "string" || field.some((name) => entry[name] !== undefined)) continue;
    if (field.some((name) => isFlagged(item.source, name))) continue;
    problems.push({
      severity: "error",
      rule: "schema",
      message: `${registry[kind].section.name} entry: missing required field ${field.map((n) => `"${n}"`).join(" or ")}`,
      pos: item.source.pos,
    });
  }
}

/** Concatenate files' resources, reporting an identity defined twice. */
export function combine(files: Resources[], problems: Problem[]): Resources {
  const out = emptyResources();
  for (const kind of KINDS) {
    const seen = new Map<string, Desired<unknown>>();
    const into = out[kind] as Desired<unknown>[];
    for (const file of files) {
      for (const item of file[kind] as Desired<unknown>[]) {
        // Entries of a file that failed the schema come here only to find duplicates.
        if (!isIdentifiable(kind, item.spec)) {
          reportAlternatives(kind, item, problems);
          continue;
        }
        const id = identityOf(kind, item.spec);
        const first = seen.get(id);
        if (first !== undefined) {
          const what =
            registry[kind].section.shape === "single"
              ? registry[kind].label.one
              : `${registry[kind].label.one} "${id}"`;
          problems.push({
            severity: "error",
            rule: "duplicate-identity",
            message: `${what} is defined twice: ${where(first.source.pos)} and ${where(item.source.pos)}`,
            pos: item.source.pos,
          });
          continue;
        }
        seen.set(id, item);
        into.push(item);
      }
    }
  }
  return out;
}

/** Layer an environment's resources over the base: same identity -> field-wise override. */
export function layer(base: Resources, overlay: Resources): Resources {
  const out = emptyResources();
  for (const kind of KINDS) {
    const merged = new Map<string, Desired<unknown>>();
    for (const item of base[kind] as Desired<unknown>[]) merged.set(identityOf(kind, item.spec), item);
    for (const item of overlay[kind] as Desired<unknown>[]) {
      const id = identityOf(kind, item.spec);
      const under = merged.get(id);
      merged.set(id, under === undefined ? withoutNulls(item) : mergeItem(under, item));
    }
    // A loop, not push(...): a section can hold more entries than the stack has room for.
    const into = out[kind] as Desired<unknown>[];
    for (const item of merged.values()) into.push(item);
  }
  return out;
}

/**
 * An overlay entry over its base entry: the fields it gives win (preferenceSettings channel by
 * channel), and a field it sets to null is not managed in this environment (left out).
 */
function mergeItem(under: Desired<unknown>, over: Desired<unknown>): Desired<unknown> {
  const a = under.spec as Record<string, unknown>;
  const b = over.spec as Record<string, unknown>;
  const spec: Record<string, unknown> = { ...a, ...b };
  if (isObject(a.preferenceSettings) && isObject(b.preferenceSettings)) {
    spec.preferenceSettings = { ...a.preferenceSettings, ...b.preferenceSettings };
  }
  const flagged = [...(under.source.flagged ?? []), ...(over.source.flagged ?? [])];
  return withoutNulls({
    spec,
    source: {
      pos: over.source.pos,
      fields: { ...under.source.fields, ...over.source.fields },
      ...(flagged.length > 0 ? { flagged } : {}),
    },
  });
}

/** The entry without its null fields (one level down too: a preferenceSettings channel). */
function withoutNulls(item: Desired<unknown>): Desired<unknown> {
  if (!isObject(item.spec)) return item;
  const spec: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(item.spec)) {
    if (value === null) continue;
    // Free-form `data` keeps its nulls: only the channel switches are fields of their own.
    spec[field] =
      field === "preferenceSettings" && isObject(value)
        ? Object.fromEntries(Object.entries(value).filter(([, inner]) => inner !== null))
        : value;
  }
  return { ...item, spec };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
