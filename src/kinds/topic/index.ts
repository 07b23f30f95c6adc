// Topics: identity is the key (immutable on the server); the name is the only managed field.
// Read live through the paged list, or key by key when the config names fewer than its pages; created with POST, renamed with PATCH.

import type { DesiredState } from "../../config/model.js";
import { visibleText } from "../../sanitize.js";
import { indexBy } from "../duplicates.js";
import type { DesiredItem, KindModule, LiveItem, LiveLookup, PlanContext, ReadScope } from "../kind.js";
import { ApiLiveItem } from "../live-item.js";
import type { NotificationApi } from "../notification-api.js";
import {
  type CostedRead,
  mustList,
  type PagedReadAhead,
  readAheadPaged,
  readPagedByCost,
  wantedItems,
} from "../read-by-cost.js";
import { TOPIC_KEY, TOPIC_PAGE_SIZE, topicApi } from "./api.js";
import { executeTopic, findTopic } from "./execute.js";
import { topicRequest } from "./requests.js";
import type { Topic, TopicPage } from "./wire.js";

export function canonicalTopic(topic: Pick<Topic, "key" | "name">): { key: string; name: string } {
  return { key: topic.key, name: topic.name };
}

export function liveTopicItem(topic: Topic): LiveItem {
  const canonical = canonicalTopic(topic);
  return new ApiLiveItem(topic._id, { name: canonical.name }, () => canonical);
}

/** The whole list, or the wanted keys by identity when that takes fewer requests. */
async function readTopics(client: NotificationApi, scope: ReadScope): Promise<CostedRead<Topic>> {
  const options = scope.signal ? { signal: scope.signal } : {};
  if (!scope.everything && scope.desired.resources.topic.length === 0) return { items: [], listed: true };
  const ahead = (await scope.readAhead?.topic) as PagedReadAhead<Topic, TopicPage> | undefined;
  if (ahead?.all !== undefined) return { items: await ahead.all, listed: true };
  const first = ahead?.first;
  // The pages read ahead with the first (readAheadPaged's speculation), taken rather than asked again.
  const pages = ahead?.pages !== undefined ? { pages: ahead.pages } : {};
  if (mustList(scope))
    return {
      items: await client.listAllTopics({ ...options, ...(first ? { first } : {}), ...pages }),
      listed: true,
    };
  const wanted = wantedItems(topicKind, scope).map((item) => item.key);
  return readPagedByCost({
    lanes: client.lanes,
    wanted,
    identityOf: (topic) => topic.key,
    firstPage: async () =>
      first ?? (await client.listTopics({ page: 0, pageSize: TOPIC_PAGE_SIZE }, options)),
    listRest: (first) => client.listAllTopics({ ...options, first, ...pages }),
    getOne: (key) => findTopic(client, key, options),
  });
}

export const topicKind: KindModule<"topic"> = {
  kind: "topic",
  section: { name: "topics", shape: "list", identityFields: ["key"] },
  label: { one: "topic", many: "topics" },
  api: topicApi,
  requestOf: topicRequest,
  creates: ["topic.create"],
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

  async readLive(client, scope) {
    const { items, listed } = await readTopics(client, scope);
    const { byIdentity, duplicates } = indexBy(items, (topic) => topic.key);
    return { live: byIdentity, duplicates, listed };
  },

  readAhead: (client, count) =>
    readAheadPaged(
      () => client.listTopics({ page: 0, pageSize: TOPIC_PAGE_SIZE }),
      (first, pages) => client.listAllTopics({ first, pages }),
      count,
      {
        page: (page) => client.listTopics({ page, pageSize: TOPIC_PAGE_SIZE }),
        pageSize: TOPIC_PAGE_SIZE,
        // Half the concurrency limit (lanes are twice it): the other kinds' first pages leave too.
        most: Math.max(1, Math.floor(client.lanes / 4)),
      },
    ),

  execute: executeTopic,

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
