// Endpoints 1-4: topics. Keys are checked before a create (real servers answer a key with a
// space with a 500); a created topic comes back as `{_id, key}` only (spec G4).
import { CREATED_TOPIC, countedPage, expectShape, TOPIC, unwrap } from "../../api/envelope.js";
import { checkName, checkTopicKey, segment } from "../../api/request-checks.js";
import type { Requester } from "../../api/requester.js";
import type { CreatedTopic, NotificationApi, RequestOptions, Topic, TopicPage } from "../../api/types.js";

/** Real servers refuse topic pages above 10 (400 "Page size can not be larger then 10"). */
export const TOPIC_PAGE_SIZE = 10;

export type TopicEndpoints = Pick<NotificationApi, "listTopics" | "getTopic" | "createTopic" | "renameTopic">;

export function createTopicEndpoints(requester: Requester): TopicEndpoints {
  return {
    async listTopics(query = {}, options: RequestOptions = {}): Promise<TopicPage> {
      return requester.read(
        { endpoint: "listTopics", method: "GET", path: "/v1/topics", query },
        options,
        ({ json, ctx }) =>
          countedPage<Topic>(json, TOPIC, ctx, {
            page: query.page ?? 0,
            pageSize: query.pageSize ?? TOPIC_PAGE_SIZE,
          }),
      );
    },

    async getTopic(key, options = {}): Promise<Topic> {
      return requester.read(
        { endpoint: "getTopic", method: "GET", path: `/v1/topics/${segment("topic key", key)}` },
        options,
        ({ json, ctx }) => {
          return expectShape<Topic>(unwrap(json, ctx), TOPIC, ctx, "data");
        },
      );
    },

    async createTopic(body, options = {}): Promise<CreatedTopic> {
      checkTopicKey(body.key);
      checkName("topic name", body.name);
      return requester.read(
        {
          endpoint: "createTopic",
          method: "POST",
          path: "/v1/topics",
          body: { key: body.key, name: body.name },
        },
        options,
        ({ json, ctx }) => {
          return expectShape<CreatedTopic>(unwrap(json, ctx), CREATED_TOPIC, ctx, "data");
        },
      );
    },

    async renameTopic(key, body, options = {}): Promise<Topic> {
      checkName("topic name", body.name);
      return requester.read(
        {
          endpoint: "renameTopic",
          method: "PATCH",
          path: `/v1/topics/${segment("topic key", key)}`,
          body: { name: body.name },
        },
        options,
        ({ json, ctx }) => {
          return expectShape<Topic>(unwrap(json, ctx), TOPIC, ctx, "data");
        },
      );
    },
  };
}
