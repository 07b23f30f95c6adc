// Endpoints 8, 16 and 17: reads notiform does not manage but serves for completeness
// (blueprints, execution details, subscriber preferences). Read-only; nothing here writes.
import { expectArray, expectShape, isRecord, unwrap } from "../../api/envelope.js";
import { segment } from "../../api/request-checks.js";
import type { Requester } from "../../api/requester.js";
import type { RequestOptions } from "../../api/types.js";
import type { EndpointGroup } from "../endpoint-group.js";
import type { Blueprint, ExecutionDetail, PreferenceLevel, SubscriberPreference } from "./wire.js";

export interface ReferenceEndpoints {
  /** 8 GET /v1/blueprints/{templateId} (no envelope per spec; wrapped on real servers: both accepted) */
  getBlueprint(templateId: string, options?: RequestOptions): Promise<Blueprint>;
  /** 16 GET /v1/execution-details */
  listExecutionDetails(
    query: { notificationId: string; subscriberId: string },
    options?: RequestOptions,
  ): Promise<ExecutionDetail[]>;
  /** 17 GET /v1/subscribers/{subscriberId}/preferences/{level} */
  getSubscriberPreferences(
    subscriberId: string,
    level: PreferenceLevel,
    options?: RequestOptions,
  ): Promise<SubscriberPreference[]>;
}

export const referenceApi: EndpointGroup<ReferenceEndpoints, never> = {
  create: (requester) => createReferenceEndpoints(requester),
  extensions: {},
};

function createReferenceEndpoints(requester: Requester): ReferenceEndpoints {
  return {
    async getBlueprint(templateId, options = {}): Promise<Blueprint> {
      return requester.read(
        {
          endpoint: "getBlueprint",
          method: "GET",
          path: `/v1/blueprints/${segment("blueprint id", templateId)}`,
        },
        options,
        ({ json, ctx }) => {
          // The spec returns the blueprint bare; real servers wrap it in {data}. A bare blueprint has
          // its own `_id`, so an object with `data` but no `_id` is the envelope.
          const body = isRecord(json) && isRecord(json.data) && !("_id" in json) ? json.data : json;
          return expectShape<Blueprint>(body, { _id: "string", name: "string" }, ctx, "blueprint");
        },
      );
    },

    async listExecutionDetails(query, options = {}): Promise<ExecutionDetail[]> {
      return requester.read(
        {
          endpoint: "listExecutionDetails",
          method: "GET",
          path: "/v1/execution-details",
          query: { notificationId: query.notificationId, subscriberId: query.subscriberId },
        },
        options,
        ({ json, ctx }) => {
          return expectArray<ExecutionDetail>(unwrap(json, ctx), { _id: "string" }, ctx, "data");
        },
      );
    },

    async getSubscriberPreferences(subscriberId, level, options = {}): Promise<SubscriberPreference[]> {
      return requester.read(
        {
          endpoint: "getSubscriberPreferences",
          method: "GET",
          path: `/v1/subscribers/${segment("subscriber id", subscriberId)}/preferences/${segment("level", level)}`,
        },
        options,
        ({ json, ctx }) => {
          return expectArray<SubscriberPreference>(
            unwrap(json, ctx),
            { template: "object", preference: "object" },
            ctx,
            "data",
          );
        },
      );
    },
  };
}
