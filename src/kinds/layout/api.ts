// Layouts (extension, r3-q3-*). GET /v1/layouts?page&pageSize lists them with every field
// (`{page, totalCount, pageSize, data}`, default pageSize 10, newest first), so a plan needs no
// per-layout read. POST answers 201 with `{_id}` only; PATCH answers the full layout (`variables`
// replaced whole); POST /v1/layouts/{id}/default answers 204 with no body. Content without
// `{{{body}}}` is 400 on POST and PATCH. Authored in Development; Production gets them by promotion.
import { NEVER_ID } from "../../api/capabilities.js";
import { countedPage, expectShape, unwrap } from "../../api/envelope.js";
import { listAllPaged } from "../../api/pagination.js";
import { checkId, checkName, segment } from "../../api/request-checks.js";
import type { Requester } from "../../api/requester.js";
import type { RequestOptions } from "../../api/types.js";
import { type EndpointGroup, LIST_LIMIT, type ListBounds } from "../endpoint-group.js";
import type { CreatedLayout, CreateLayoutBody, Layout, LayoutPage, UpdateLayoutBody } from "./wire.js";

const LAYOUT = { _id: "string", identifier: "string" } as const;

export interface LayoutEndpoints {
  /** Extension: GET /v1/layouts?page&pageSize: the environment's layouts (workflow content names them). */
  listLayouts(query?: { page?: number; pageSize?: number }, options?: RequestOptions): Promise<LayoutPage>;
  /** Extension: GET /v1/layouts/{id}: the full layout of the key's environment. */
  getLayout(layoutId: string, options?: RequestOptions): Promise<Layout>;
  /** Extension: POST /v1/layouts: `{_id}` only (never retried once sent: a second POST is 409 or a second layout). */
  createLayout(body: CreateLayoutBody, options?: RequestOptions): Promise<CreatedLayout>;
  /** Extension: PATCH /v1/layouts/{id}: the full layout. */
  updateLayout(layoutId: string, body: UpdateLayoutBody, options?: RequestOptions): Promise<Layout>;
  /** Extension: POST /v1/layouts/{id}/default (204): the environment's default layout becomes this one. */
  setDefaultLayout(layoutId: string, options?: RequestOptions): Promise<void>;
  /** All layouts of the key's environment (API_UNSUPPORTED when missing). */
  listAllLayouts(options?: RequestOptions): Promise<Layout[]>;
}

export type LayoutExtension =
  | "listLayouts"
  | "getLayout"
  | "createLayout"
  | "updateLayout"
  | "setDefaultLayout";

export const layoutApi: EndpointGroup<LayoutEndpoints, LayoutExtension> = {
  create: (requester, bounds) => createLayoutEndpoints(requester, bounds),
  extensions: {
    listLayouts: (api, options) => api.listLayouts({ page: 0, pageSize: 1 }, options),
    getLayout: (api, options) => api.getLayout(NEVER_ID, options),
    createLayout: "write",
    updateLayout: "write",
    setDefaultLayout: "write",
  },
};

function createLayoutEndpoints(requester: Requester, bounds: ListBounds): LayoutEndpoints {
  const api: LayoutEndpoints = {
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
        {
          endpoint: "getLayout",
          extension: "getLayout",
          method: "GET",
          path: `/v1/layouts/${segment("layout id", layoutId)}`,
        },
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
          path: `/v1/layouts/${segment("layout id", layoutId)}`,
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
          path: `/v1/layouts/${segment("layout id", layoutId)}/default`,
          repeatable: true,
        },
        options,
      );
    },

    listAllLayouts: (options = {}) =>
      listAllPaged(
        async (page) => {
          const result = await api.listLayouts({ page, pageSize: LIST_LIMIT }, options);
          return { items: result.data, totalCount: result.totalCount, pageSize: result.pageSize };
        },
        (layout) => layout._id,
        { endpoint: "listLayouts", maxPages: bounds.maxPages, lanes: bounds.lanes, onPage: bounds.onPage },
      ),
  };
  return api;
}
