// Promotion (extensions): list and count the changes recorded in Development, and apply them
// (one, or several in bulk) into Production. Applying is a POST, but applying a change twice
// converges (a real server copies the entity's current Development state into Production again
// and answers 201), so a lost answer is retried like a PUT (`repeatable`) instead of leaving
// the caller unsure. Only Development's changes can be applied: a Production key lists
// Production's own changes (a real server records its direct edits, r3-q1-17), and applying any
// change with it is API_NOT_FOUND ("Parent Change not found", "Environment … not found").
import { countedPage, expectArray, fail, isRecord, unwrap } from "../../api/envelope.js";
import { listAllPaged } from "../../api/pagination.js";
import { checkId, invalidRequest, segment } from "../../api/request-checks.js";
import type { Requester } from "../../api/requester.js";
import type { RequestOptions } from "../../api/types.js";
import { type EndpointGroup, LIST_LIMIT, type ListBounds } from "../endpoint-group.js";
import type { Change, ChangePage } from "./wire.js";

// The fields a change must have for notiform to work with it.
const CHANGE = {
  _id: "string",
  type: "string",
  _entityId: "string",
  enabled: "boolean",
  change: "array",
} as const;

export interface ChangeEndpoints {
  /** Extension: GET /v1/changes?promoted&page&limit (the key's environment's own changes). */
  listChanges(
    query?: { promoted?: boolean; page?: number; limit?: number },
    options?: RequestOptions,
  ): Promise<ChangePage>;
  /** Extension: GET /v1/changes/count: how many changes wait for promotion. */
  countChanges(options?: RequestOptions): Promise<number>;
  /** Extension: POST /v1/changes/{id}/apply: the changes applied (children first). Retried: applying twice converges. */
  applyChange(changeId: string, options?: RequestOptions): Promise<Change[]>;
  /** Extension: POST /v1/changes/bulk/apply: every change applied, flattened. Retried like applyChange. */
  bulkApplyChanges(changeIds: string[], options?: RequestOptions): Promise<Change[]>;
  /** All changes, pending (`promoted: false`, the default) or promoted. */
  listAllChanges(query?: { promoted?: boolean }, options?: RequestOptions): Promise<Change[]>;
}

export type ChangeExtension = "listChanges" | "countChanges" | "applyChange" | "bulkApplyChanges";

export const changeApi: EndpointGroup<ChangeEndpoints, ChangeExtension> = {
  create: (requester, bounds) => createChangeEndpoints(requester, bounds),
  extensions: {
    listChanges: (api, options) => api.listChanges({ promoted: false, page: 0, limit: 1 }, options),
    countChanges: (api, options) => api.countChanges(options),
    applyChange: "write",
    bulkApplyChanges: "write",
  },
};

function createChangeEndpoints(requester: Requester, bounds: ListBounds): ChangeEndpoints {
  const api: ChangeEndpoints = {
    async listChanges(query = {}, options = {}): Promise<ChangePage> {
      const promoted = query.promoted === true;
      return requester.read(
        {
          endpoint: "listChanges",
          extension: "listChanges",
          method: "GET",
          path: "/v1/changes",
          query: { promoted: String(promoted), page: query.page, limit: query.limit },
        },
        options,
        ({ json, ctx }) =>
          countedPage<Change>(json, CHANGE, ctx, { page: query.page ?? 0, pageSize: query.limit ?? 10 }),
      );
    },

    async countChanges(options = {}): Promise<number> {
      return requester.read(
        { endpoint: "countChanges", extension: "countChanges", method: "GET", path: "/v1/changes/count" },
        options,
        ({ json, ctx }) => {
          const count = unwrap(json, ctx);
          if (typeof count !== "number") fail(ctx, "data is not a number");
          return count;
        },
      );
    },

    async applyChange(changeId, options = {}): Promise<Change[]> {
      checkId("change id", changeId);
      return requester.read(
        {
          endpoint: "applyChange",
          extension: "applyChange",
          method: "POST",
          path: `/v1/changes/${segment("change id", changeId)}/apply`,
          repeatable: true,
        },
        options,
        ({ json, ctx }) => expectArray<Change>(unwrap(json, ctx), CHANGE, ctx, "data"),
      );
    },

    async bulkApplyChanges(changeIds, options = {}): Promise<Change[]> {
      if (!Array.isArray(changeIds) || changeIds.length === 0)
        throw invalidRequest("a bulk apply needs at least one change id");
      for (const id of changeIds) checkId("change id", id);
      return requester.read(
        {
          endpoint: "bulkApplyChanges",
          extension: "bulkApplyChanges",
          method: "POST",
          path: "/v1/changes/bulk/apply",
          body: { changeIds },
          repeatable: true,
        },
        options,
        ({ json, ctx }) => {
          // One array per id (a real server's answer), or already flat: accept both, answer flat.
          const data = unwrap(json, ctx);
          if (!Array.isArray(data)) fail(ctx, "data is not an array");
          const flat = data.flatMap((item: unknown) => (Array.isArray(item) ? item : [item]));
          if (flat.some((item) => !isRecord(item))) fail(ctx, "data holds something that is not a change");
          return expectArray<Change>(flat, CHANGE, ctx, "data");
        },
      );
    },

    listAllChanges: (query = {}, options = {}) =>
      listAllPaged(
        async (page) => {
          const result = await api.listChanges(
            { promoted: query.promoted === true, page, limit: LIST_LIMIT },
            options,
          );
          return { items: result.data, totalCount: result.totalCount, pageSize: result.pageSize };
        },
        (change) => change._id,
        { endpoint: "listChanges", maxPages: bounds.maxPages, lanes: bounds.lanes, onPage: bounds.onPage },
      ),
  };
  return api;
}
