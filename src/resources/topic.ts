// Topics: identity is the key (immutable on the server); the name is the only managed field.
// Read live through the paged list only; created with POST, renamed with PATCH.
import { TOPIC_KEY } from "../api/request-checks.js";
import type { Topic } from "../api/types.js";
import type { DesiredState } from "../config/model.js";
import { visibleText } from "../sanitize.js";
import { digestOf } from "./canonical.js";
import { duplicatesOf } from "./duplicates.js";
import type { DesiredItem, KindModule, LiveItem, LiveLookup, PlanContext } from "./kind.js";
import { executeTopic, findTopic } from "./topic-execute.js";

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

export const topicKind: KindModule<"topic"> = {
  kind: "topic",
  section: { name: "topics", shape: "list", identityFields: ["key"] },
  label: { one: "topic", many: "topics" },
  identity: (spec) => spec.key,

  desiredItems(desired: DesiredState): DesiredItem[] {
    return desired.resources.topic.map(({ spec, source }) => ({
      key: spec.key,
      fields: { name: spec.name },
      source,
      dependsOn: [],
      ids: {},
    }));
  },

  lookupLive(item: DesiredItem, context: PlanContext): LiveLookup {
    const topic = context.live.kinds.topic.get(item.key);
    return topic ? { status: "found", item: liveTopicItem(topic) } : { status: "absent" };
  },

  operationsFor(op, item) {
    const name = String(item.fields.name ?? "");
    return {
      operations: [
        op === "create"
          ? { type: "topic.create", key: item.key, name }
          : { type: "topic.rename", key: item.key, name },
      ],
    };
  },

  unmanaged(context, managedKeys) {
    const out = [];
    for (const topic of context.live.kinds.topic.values()) {
      if (!managedKeys.has(topic.key)) out.push({ kind: "topic" as const, key: topic.key, name: topic.name });
    }
    return out;
  },

  async readLive(client, { desired, everything, signal }) {
    const read = everything || desired.resources.topic.length > 0;
    const topics = read ? await client.listAllTopics(signal ? { signal } : {}) : [];
    return {
      live: new Map(topics.map((topic) => [topic.key, topic])),
      duplicates: duplicatesOf(topics, (topic) => topic.key),
    };
  },

  execute: executeTopic,

  async reread(actions, client) {
    const found = await Promise.all(actions.map((action) => findTopic(client, action.key)));
    return new Map(found.flatMap((topic) => (topic === undefined ? [] : [[topic.key, topic] as const])));
  },

  exportSection(live) {
    if (live.size === 0) return undefined;
    const sorted = [...live.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    // The server accepts keys the config cannot hold (a space, other punctuation): such a topic
    // is left out, never written, so the exported files always validate.
    const leftOut = sorted
      .filter((t) => !TOPIC_KEY.test(t.key) || t.key.length > 200 || t.name === "")
      .map(
        (t) => `topic ${JSON.stringify(visibleText(t.key))} left out: the config cannot hold its key or name`,
      );
    const topics = sorted
      .filter((t) => TOPIC_KEY.test(t.key) && t.key.length <= 200 && t.name !== "")
      .map((t) => ({ key: t.key, name: t.name }));
    return { file: "topics.yaml", value: topics, leftOut };
  },
};
