// The layout list extension GET /v1/layouts?page&pageSize (real servers: default pageSize 10,
// `{page, totalCount, pageSize, data}`, newest first), read for what workflow content needs of a
// layout: its identifier and id. A layouts kind of its own can take this over.
import { countedPage } from "./envelope.js";
import type { Requester } from "./requester.js";
import type { Layout, LayoutPage, NotificationApi } from "./types.js";

const LAYOUT = { _id: "string", identifier: "string" } as const;

export type LayoutEndpoints = Pick<NotificationApi, "listLayouts">;

export function createLayoutEndpoints(requester: Requester): LayoutEndpoints {
  return {
    async listLayouts(query = {}, options = {}): Promise<LayoutPage> {
      return requester.read(
        { endpoint: "listLayouts", extension: "listLayouts", method: "GET", path: "/v1/layouts", query },
        options,
        ({ json, ctx }) =>
          countedPage<Layout>(json, LAYOUT, ctx, { page: query.page ?? 0, pageSize: query.pageSize ?? 10 }),
      );
    },
  };
}
