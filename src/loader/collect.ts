// From one validated file to resources with their source positions: where each resource's
// mapping starts and where each field's value sits ("preferenceSettings.email" for nested ones).
// Which sections exist, and whether each is a list or one mapping, is the registry's to say.
import { isMap, isPair, isScalar, isSeq } from "yaml";
import type { Desired, Resources, Source } from "../config/model.js";
import { positionOfNode, type YamlFile } from "../config/yaml-file.js";
import type { Position } from "../errors.js";
import { KINDS, registry } from "../kinds/registry.js";

export type FileResources = Resources;

export function emptyResources(): Resources {
  const out = {} as Record<string, Desired<unknown>[]>;
  for (const kind of KINDS) out[kind] = [];
  return out as Resources;
}

export function collectResources(file: YamlFile, data: Record<string, unknown>): Resources {
  const out = emptyResources();
  const root = file.doc?.contents;
  for (const kind of KINDS) {
    const { name, shape } = registry[kind].section;
    const value = data[name];
    const node = isMap(root) ? root.get(name, true) : undefined;
    const into = out[kind] as Desired<unknown>[];
    if (shape === "single") {
      if (value !== null && typeof value === "object" && !Array.isArray(value))
        into.push({ spec: value, source: sourceOf(file, node) });
      continue;
    }
    if (!Array.isArray(value)) continue;
    value.forEach((spec, index) => {
      const item = isSeq(node) ? node.items[index] : undefined;
      into.push({ spec, source: sourceOf(file, item) });
    });
  }
  return out;
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
