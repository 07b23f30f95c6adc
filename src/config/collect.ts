// From one validated file to resources with their source positions: where each resource's
// mapping starts and where each field's value sits ("preferenceSettings.email" for nested ones).
import { isMap, isPair, isScalar, isSeq } from "yaml";
import type { Position } from "../errors.js";
import type {
  Desired,
  NotificationGroupSpec,
  OverrideSpec,
  Source,
  TopicSpec,
  WorkflowSpec,
} from "./model.js";
import { positionOfNode, type YamlFile } from "./yaml-file.js";

export interface FileResources {
  topics: Desired<TopicSpec>[];
  notificationGroups: Desired<NotificationGroupSpec>[];
  workflows: Desired<WorkflowSpec>[];
  overrides: Desired<OverrideSpec>[];
}

export const SECTIONS = ["topics", "notificationGroups", "workflows", "overrides"] as const;
export type Section = (typeof SECTIONS)[number];

export function emptyResources(): FileResources {
  return { topics: [], notificationGroups: [], workflows: [], overrides: [] };
}

export function collectResources(file: YamlFile, data: Record<string, unknown>): FileResources {
  const out = emptyResources();
  const root = file.doc?.contents;
  for (const section of SECTIONS) {
    const items = data[section];
    if (!Array.isArray(items)) continue;
    const seqNode = isMap(root) ? root.get(section, true) : undefined;
    items.forEach((spec, index) => {
      const node = isSeq(seqNode) ? seqNode.items[index] : undefined;
      const source = sourceOf(file, node);
      (out[section] as Desired<unknown>[]).push({ spec, source });
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
    }
  };
  walk(node, "");
  return { pos: positionOfNode(file, node), fields };
}
