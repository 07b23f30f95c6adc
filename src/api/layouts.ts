// Layouts (extension, r3-q3-*). GET /v1/layouts?page&pageSize lists them with every field
// (`{page, totalCount, pageSize, data}`, default pageSize 10, newest first), so a plan needs no
// per-layout read. POST answers 201 with `{_id}` only; PATCH answers the full layout (`variables`
// replaced whole); POST /v1/layouts/{id}/default answers 204 with no body. Content without
// `{{{body}}}` is 400 on POST and PATCH. Authored in Development; Production gets them by promotion.
import { countedPage, expectShape, unwrap } from "./envelope.js";
import { checkId, checkName } from "./request-checks.js";
import type { Requester } from "./requester.js";
import type { CreatedLayout, Layout, LayoutPage, NotificationApi } from "./types.js";

const LAYOUT = { _id: "string", identifier: "string" } as const;

export type LayoutEndpoints = Pick<
  NotificationApi,
  "listLayouts" | "getLayout" | "createLayout" | "updateLayout" | "setDefaultLayout"
>;

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

    async getLayout(layoutId, options = {}): Promise<Layout> {
      checkId("layout id", layoutId);
      return requester.read(
        { endpoint: "getLayout", extension: "getLayout", method: "GET", path: `/v1/layouts/${layoutId}` },
        options,
        ({ json, ctx }) => expectShape<Layout>(unwrap(json, ctx), LAYOUT, ctx, "data"),
      );
    },

    async createLayout(body, options = {}): Promise<CreatedLayout> {
      checkName("layout name", body.name);
      checkName("layout identifier", body.identifier);
      return requester.read(
        { endpoint: "createLayout", extension: "createLayout", method: "POST", path: "/v1/layouts", body },
        options,
        ({ json, ctx }) => expectShape<CreatedLayout>(unwrap(json, ctx), { _id: "string" }, ctx, "data"),
      );
    },

    async updateLayout(layoutId, body, options = {}): Promise<Layout> {
      checkId("layout id", layoutId);
      return requester.read(
        {
          endpoint: "updateLayout",
          extension: "updateLayout",
          method: "PATCH",
          path: `/v1/layouts/${layoutId}`,
          body,
        },
        options,
        ({ json, ctx }) => expectShape<Layout>(unwrap(json, ctx), LAYOUT, ctx, "data"),
      );
    },

    async setDefaultLayout(layoutId, options = {}): Promise<void> {
      checkId("layout id", layoutId);
      // Repeating it converges (the same layout stays the default): retried like a PUT.
      await requester.requestEmpty(
        {
          endpoint: "setDefaultLayout",
          extension: "setDefaultLayout",
          method: "POST",
          path: `/v1/layouts/${layoutId}/default`,
          repeatable: true,
        },
        options,
      );
    },
  };
}
