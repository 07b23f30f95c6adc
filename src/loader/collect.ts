// From one validated file to resources with their source positions: where each resource's
// mapping starts and where each field's value sits ("preferenceSettings.email" for nested ones).
// Which sections exist, and whether each is a list or one mapping, is the registry's to say.
// An entry the file's own checks found fault with carries the faulty fields (Source.flagged),
// and its faulty values are taken out, so the checks after the schema can still run over it.
import { isMap, isPair, isScalar, isSeq } from "yaml";
import type { Desired, Resources, Source } from "../config/model.js";
import { positionOfNode, type YamlFile } from "../config/yaml-file.js";
import type { Position } from "../errors.js";
import { KINDS, registry } from "../kinds/registry.js";
import { emptyResources } from "./defaults.js";

export type FileResources = Resources;

/**
 * `faults`: the fields of this file's problems so far ("workflows[0].steps[1].name"); the entries
 * they fall in are flagged with them (relative to the entry) and those values removed.
 */
export function collectResources(
  file: YamlFile,
  data: Record<string, unknown>,
  faults: readonly string[] = [],
): Resources {
  const out = emptyResources();
  const flags = flagsByEntry(faults);
  const root = file.doc?.contents;
  for (const kind of KINDS) {
    const { name, shape } = registry[kind].section;
    const value = data[name];
    const node = isMap(root) ? root.get(name, true) : undefined;
    const into = out[kind] as Desired<unknown>[];
    if (shape === "single") {
      if (value !== null && typeof value === "object" && !Array.isArray(value))
        into.push(flag({ spec: value, source: sourceOf(file, node) }, flags.get(name)));
      continue;
    }
    if (!Array.isArray(value)) continue;
    value.forEach((spec, index) => {
      const item = isSeq(node) ? node.items[index] : undefined;
      into.push(flag({ spec, source: sourceOf(file, item) }, flags.get(`${name}[${index}]`)));
    });
  }
  return out;
}

/** "workflows[0].steps[1].name" -> "workflows[0]" -> ["steps[1].name"]; "branding.color" -> "branding" -> ["color"]. */
function flagsByEntry(faults: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const field of faults) {
    const match = /^([^.[]+)(\[\d+\])?\.?(.*)$/.exec(field);
    if (match === null) continue;
    const entry = `${match[1]}${match[2] ?? ""}`;
    out.set(entry, [...(out.get(entry) ?? []), match[3] ?? ""]);
  }
  return out;
}

/** The entry with its faulty fields recorded and their values taken out (never the entry itself). */
function flag(item: Desired<unknown>, flagged: string[] | undefined): Desired<unknown> {
  if (flagged === undefined) return item;
  for (const path of flagged) removeAt(item.spec, path);
  return { ...item, source: { ...item.source, flagged } };
}

/** Delete the value at "steps[1].template.content"; a list element stays (indices are positions). */
function removeAt(root: unknown, path: string): void {
  const segments = path.match(/[^.[\]]+/g) ?? [];
  let holder: unknown = root;
  for (const segment of segments.slice(0, -1)) {
    if (holder === null || typeof holder !== "object") return;
    holder = (holder as Record<string, unknown>)[segment];
  }
  const last = segments[segments.length - 1];
  if (last === undefined || /^\d+$/.test(last)) return;
  if (holder !== null && typeof holder === "object" && !Array.isArray(holder) && Object.hasOwn(holder, last))
    delete (holder as Record<string, unknown>)[last];
}

function sourceOf(file: YamlFile, node: unknown): Source {
  const fields: Record<string, Position> = {};
  const walk = (map: unknown, prefix: string) => {
    if (!isMap(map)) return;
    for (const pair of map.items) {
      if (!isPair(pair) || !isScalar(pair.key)) continue;
      const name = `${prefix}${String(pair.key.value)}`;
      fields[name] = positionOfNode(file, pair.value ?? pair.key);
      if (isMap(pair.value) && name === "preferenceSettings") walk(pair.value, `${name}.`);
      // A workflow's steps: each step's fields and its template's, for the step checks.
      if (isSeq(pair.value) && name === "steps") {
        pair.value.items.forEach((step, index) => {
          fields[`steps[${index}]`] = positionOfNode(file, step);
          walk(step, `steps[${index}].`);
        });
      }
      if (isMap(pair.value) && /^steps\[\d+\]\.(template|metadata)$/.test(name)) walk(pair.value, `${name}.`);
    }
  };
  walk(node, "");
  return { pos: positionOfNode(file, node), fields };
}
