// GET /v1/layouts?page&pageSize (extension): the environment's layouts as a real server lists them
// (`{page, totalCount, pageSize, data}`, default pageSize 10, newest first, past the end `[]`),
// from `store.layouts` where the store holds any. Only the list: workflow content names layouts
// by identifier and needs their ids. A layouts implementation of its own takes this over.
import { badRequest } from "../http-error.js";
import type { Handler } from "./context.js";

interface StoredLayout {
  _id: string;
  identifier: string;
  deleted?: boolean;
  createdAt?: string;
}

export const listLayouts: Handler = (ctx) => {
  const page = Number(ctx.query.get("page") || 0);
  const pageSize = Number(ctx.query.get("pageSize") || 10);
  if (!Number.isInteger(page) || page < 0) throw badRequest(["page must not be less than 0"]);
  if (!Number.isInteger(pageSize) || pageSize < 1) throw badRequest(["pageSize must not be less than 1"]);
  const layouts = ((ctx.store as { layouts?: StoredLayout[] }).layouts ?? []).filter(
    (l) => l.deleted !== true,
  );
  const newestFirst = [...layouts].reverse();
  const data = newestFirst.slice(page * pageSize, page * pageSize + pageSize);
  return { status: 200, body: { page, totalCount: layouts.length, pageSize, data } };
};
