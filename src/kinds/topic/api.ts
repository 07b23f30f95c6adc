// Endpoints 1-4: topics, and the whole-list read. Keys are checked before a create (real servers
// answer a key with a space with a 500); a created topic comes back as `{_id, key}` only (spec G4).
import { countedPage, expectShape, unwrap } from "../../api/envelope.js";
import { listAllPaged } from "../../api/pagination.js";
import { checkName, invalidRequest, segment } from "../../api/request-checks.js";
import type { RequestOptions } from "../../api/types.js";
import type { EndpointGroup } from "../endpoint-group.js";
import type { CreatedTopic, Topic, TopicPage } from "./wire.js";

/** Real servers refuse topic pages above 10 (400 "Page size can not be larger then 10"). */
export const TOPIC_PAGE_SIZE = 10;

/** The keys the config schema accepts too (schemas/notiform.schema.json). */
export const TOPIC_KEY = /^[A-Za-z0-9_.:@+/-]+$/;

// The fields a topic must have for notiform to work with it.
const TOPIC = { _id: "string", key: "string", name: "string" } as const;
const CREATED_TOPIC = { _id: "string", key: "string" } as const;

export interface TopicEndpoints {
  /** 1 GET /v1/topics */
  listTopics(
    query?: { page?: number; pageSize?: number; key?: string },
    options?: RequestOptions,
  ): Promise<TopicPage>;
  /** 2 GET /v1/topics/{topicKey} */
  getTopic(key: string, options?: RequestOptions): Promise<Topic>;
  /** 3 POST /v1/topics (not retried once sent: a lost response is resolved by the caller reading back) */
  createTopic(body: { key: string; name: string }, options?: RequestOptions): Promise<CreatedTopic>;
  /** 4 PATCH /v1/topics/{topicKey} */
  renameTopic(key: string, body: { name: string }, options?: RequestOptions): Promise<Topic>;
  /** All topics: first page, then the remaining pages concurrently (page size 10, the real cap). */
  /**
   * `first`: page 0 when the caller has read it already; `pages`: later pages already asked for
   * (a read ahead). Either is taken, not asked for again.
   */
  listAllTopics(
    options?: RequestOptions & { first?: TopicPage; pages?: ReadonlyMap<number, Promise<TopicPage>> },
  ): Promise<Topic[]>;
}

export function checkTopicKey(key: string): void {
  if (typeof key !== "string" || !TOPIC_KEY.test(key)) {
    throw invalidRequest(
      `topic key ${JSON.stringify(key)} may only hold letters, digits, "-", "_", ".", ":", "@", "+" and "/"`,
    );
  }
}

export const topicApi: EndpointGroup<TopicEndpoints, never> = {
  extensions: {},
  create: (requester, bounds) => {
    const api: TopicEndpoints = {
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

      listAllTopics: ({ first, pages, ...options } = {}) =>
        listAllPaged(
          async (page) => {
            const result =
              page === 0 && first !== undefined
                ? first
                : await (pages?.get(page) ?? api.listTopics({ page, pageSize: TOPIC_PAGE_SIZE }, options));
            return { items: result.data, totalCount: result.totalCount, pageSize: result.pageSize };
          },
          (topic) => topic._id,
          { endpoint: "listTopics", maxPages: bounds.maxPages, lanes: bounds.lanes, onPage: bounds.onPage },
        ),
    };
    return api;
  },
};
