// Promotion (extensions): list and count the changes recorded in Development, and apply them
// (one, or several in bulk) into Production. Applying is a POST, but applying a change twice
// converges (a real server copies the entity's current Development state into Production again
// and answers 201), so a lost answer is retried like a PUT (`repeatable`) instead of leaving
// the caller unsure. Changes belong to Development: a Production key lists none, and applying
// with it is API_NOT_FOUND ("Parent Change not found").
import { CHANGE, countedPage, expectArray, fail, isRecord, unwrap } from "../../api/envelope.js";
import { checkId, invalidRequest } from "../../api/request-checks.js";
import type { Requester } from "../../api/requester.js";
import type { Change, ChangePage, NotificationApi } from "../../api/types.js";

export type ChangeEndpoints = Pick<
  NotificationApi,
  "listChanges" | "countChanges" | "applyChange" | "bulkApplyChanges"
>;

export function createChangeEndpoints(requester: Requester): ChangeEndpoints {
  return {
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
          path: `/v1/changes/${changeId}/apply`,
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
  };
}
