// Merging resources across files: the base files (root + includes) may not define one identity
// twice (both places are named); an environment's files are layered over the base, where the
// same identity overrides field by field (preferenceSettings channel by channel).
import type { Position, Problem } from "../errors.js";
import { emptyResources, type FileResources, SECTIONS, type Section } from "./collect.js";
import type { Desired } from "./model.js";

const LABEL: Record<Section, string> = {
  topics: "topic",
  notificationGroups: "notification group",
  workflows: "workflow",
  overrides: "override",
};

export function identityOf(section: Section, spec: unknown): string {
  const s = spec as Record<string, string>;
  return section === "overrides" ? `${s.workflow} / tenant ${s.tenant}` : (s.key ?? "");
}

/** Whether an entry has its identity fields as text (always, once the schema passed). */
function isIdentifiable(section: Section, spec: unknown): boolean {
  if (spec === null || typeof spec !== "object") return false;
  const s = spec as Record<string, unknown>;
  return section === "overrides"
    ? typeof s.workflow === "string" && typeof s.tenant === "string"
    : typeof s.key === "string";
}

export function where(pos: Position): string {
  return `${pos.file}:${pos.line}:${pos.col}`;
}

/** Concatenate files' resources, reporting an identity defined twice. */
export function combine(files: FileResources[], problems: Problem[]): FileResources {
  const out = emptyResources();
  for (const section of SECTIONS) {
    const seen = new Map<string, Desired<unknown>>();
    for (const file of files) {
      for (const item of file[section] as Desired<unknown>[]) {
        // Entries of a file that failed the schema come here only to find duplicates.
        if (!isIdentifiable(section, item.spec)) continue;
        const id = identityOf(section, item.spec);
        const first = seen.get(id);
        if (first !== undefined) {
          problems.push({
            severity: "error",
            rule: "duplicate-identity",
            message: `${LABEL[section]} "${id}" is defined twice: ${where(first.source.pos)} and ${where(item.source.pos)}`,
            pos: item.source.pos,
          });
          continue;
        }
        seen.set(id, item);
        (out[section] as Desired<unknown>[]).push(item);
      }
    }
  }
  return out;
}

/** Layer an environment's resources over the base: same identity -> field-wise override. */
export function layer(base: FileResources, overlay: FileResources): FileResources {
  const out = emptyResources();
  for (const section of SECTIONS) {
    const merged = new Map<string, Desired<unknown>>();
    for (const item of base[section] as Desired<unknown>[]) merged.set(identityOf(section, item.spec), item);
    for (const item of overlay[section] as Desired<unknown>[]) {
      const id = identityOf(section, item.spec);
      const under = merged.get(id);
      merged.set(id, under === undefined ? item : mergeItem(under, item));
    }
    // One push per item: spreading a huge list into push() overflows the call stack.
    const target = out[section] as Desired<unknown>[];
    for (const item of merged.values()) target.push(item);
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
