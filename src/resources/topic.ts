// Topics: identity is the key (immutable on the server); the name is the only managed field.
// Read live through the paged list only; created with POST, renamed with PATCH.
import type { Topic } from "../api/types.js";
import type { DesiredState } from "../config/model.js";
import { digestOf } from "./canonical.js";
import type { DesiredItem, LiveItem, LiveLookup, PlanContext, ResourceModule } from "./kind.js";

export function canonicalTopic(topic: Pick<Topic, "key" | "name">): { key: string; name: string } {
  return { key: topic.key, name: topic.name };
}

export function liveTopicItem(topic: Topic): LiveItem {
  const canonical = canonicalTopic(topic);
  return {
    origin: "api",
    serverId: topic._id,
    fields: { name: canonical.name },
    digest: digestOf(canonical),
  };
}

export function topicPath(key: string): string {
  return `/v1/topics/${encodeURIComponent(key)}`;
}

export const topicModule: ResourceModule & { kind: "topic" } = {
  kind: "topic",
  label: "topic",

  desiredItems(desired: DesiredState): DesiredItem[] {
    return desired.topics.map(({ spec, source }) => ({
      key: spec.key,
      fields: { name: spec.name },
      source,
      dependsOn: [],
      ids: {},
    }));
  },

  lookupLive(item: DesiredItem, context: PlanContext): LiveLookup {
    const topic = context.live.topics.get(item.key);
    return topic ? { status: "found", item: liveTopicItem(topic) } : { status: "absent" };
  },

  requestsFor(op, item) {
    const name = item.fields.name ?? "";
    if (op === "create") {
      return { requests: [{ method: "POST", path: "/v1/topics", body: { key: item.key, name } }] };
    }
    return { requests: [{ method: "PATCH", path: topicPath(item.key), body: { name } }] };
  },

  unmanaged(context, managedKeys) {
    const out = [];
    for (const topic of context.live.topics.values()) {
      if (!managedKeys.has(topic.key)) out.push({ kind: "topic" as const, key: topic.key, name: topic.name });
    }
    return out;
  },
};
