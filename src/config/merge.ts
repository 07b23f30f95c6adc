// Merging resources across files: the base files (root + includes) may not define one identity
// twice (both places are named); an environment's files are layered over the base, where the
// same identity overrides field by field (preferenceSettings channel by channel). Kinds and
// their identities come from the registry.
import type { Problem } from "../errors.js";
import type { KindModule } from "../resources/kind.js";
import { KINDS, type Kind, registry } from "../resources/registry.js";
import { emptyResources } from "./collect.js";
import type { Desired, Resources } from "./model.js";
import { where } from "./where.js";

export { where } from "./where.js";

/** The identity of an entry of a kind (an override: "workflow / tenant T"). */
export function identityOf(kind: Kind, spec: unknown): string {
  return (registry[kind] as KindModule<Kind>).identity(spec as never);
}

/** Whether an entry can be identified (always, once the schema passed). */
function isIdentifiable(kind: Kind, spec: unknown): boolean {
  if (spec === null || typeof spec !== "object") return false;
  const entry = spec as Record<string, unknown>;
  return registry[kind].section.identityFields.every((field) => typeof entry[field] === "string");
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
        if (!isIdentifiable(kind, item.spec)) continue;
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
      merged.set(id, under === undefined ? item : mergeItem(under, item));
    }
    // A loop, not push(...): a section can hold more entries than the stack has room for.
    const into = out[kind] as Desired<unknown>[];
    for (const item of merged.values()) into.push(item);
  }
  return out;
}

function mergeItem(under: Desired<unknown>, over: Desired<unknown>): Desired<unknown> {
  const a = under.spec as Record<string, unknown>;
  const b = over.spec as Record<string, unknown>;
  const spec: Record<string, unknown> = { ...a, ...b };
  if (isObject(a.preferenceSettings) && isObject(b.preferenceSettings)) {
    spec.preferenceSettings = { ...a.preferenceSettings, ...b.preferenceSettings };
  }
  return {
    spec,
    source: { pos: over.source.pos, fields: { ...under.source.fields, ...over.source.fields } },
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
