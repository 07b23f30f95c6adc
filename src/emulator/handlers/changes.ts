// Promotion (extension): GET /v1/changes, GET /v1/changes/count, POST /v1/changes/{id}/apply and
// POST /v1/changes/bulk/apply. Each key lists and counts its own environment's changes; only
// Development's can be applied (a Production key: 404 "Environment ... not found" for its own,
// "Parent Change not found" for Development's). The rules are in ../changes.ts.
import { applyChange, describeChange, listChanges } from "../changes.js";
import { badRequest, notFound } from "../http-error.js";
import { type Handler, isObject, ok } from "./context.js";

export const listPendingChanges: Handler = (ctx) => {
  const page = Number(ctx.query.get("page") || 0);
  const limit = Number(ctx.query.get("limit") || 10);
  // Required, as on real servers (r3-q1-01): a client that leaves it out must not pass here.
  const promoted = ctx.query.get("promoted");
  if (promoted === null)
    throw badRequest(["promoted should not be null or undefined", "promoted must be a string"]);
  const problems: string[] = [];
  if (!Number.isInteger(page) || page < 0) problems.push("page must not be less than 0");
  if (!Number.isInteger(limit) || limit < 1) problems.push("limit must not be less than 1");
  if (limit > 100) problems.push("limit must not be greater than 100");
  if (promoted !== "true" && promoted !== "false") problems.push("promoted must be a boolean value");
  if (problems.length > 0) throw badRequest(problems);
  const all = listChanges(ctx.data, ctx.store.environmentId, promoted === "true");
  const data = all.slice(page * limit, page * limit + limit).map((c) => describeChange(ctx.data, c));
  return { status: 200, body: { data, totalCount: all.length, page, pageSize: limit } };
};

export const countPendingChanges: Handler = (ctx) =>
  ok(listChanges(ctx.data, ctx.store.environmentId, false).length);

export const applyOneChange: Handler = (ctx) =>
  ok(applyChange(ctx.data, ctx.store.environmentId, ctx.params.id ?? "", ctx.now), 201, true);

/**
 * Applies the changes in the order they were made, whatever the order sent (as a real server
 * does: a workflow sent before the layout it uses still finds that layout promoted), and answers
 * one array of applied changes per id, in that same order, not the order sent (r3-q2-04, r3-q3-22). Every id is looked up first: an
 * unknown one is 404 "Parent Change not found" with nothing applied (a choice: the data file is
 * saved only after a successful write).
 */
export const applyChangesInBulk: Handler = (ctx) => {
  const b = isObject(ctx.body) ? ctx.body : {};
  const ids = b.changeIds;
  if (!Array.isArray(ids) || ids.length === 0 || ids.some((id) => typeof id !== "string")) {
    throw badRequest(["changeIds must be an array of strings", "changeIds should not be empty"]);
  }
  const known = new Set(listChanges(ctx.data, ctx.store.environmentId, false).map((c) => c._id));
  for (const c of listChanges(ctx.data, ctx.store.environmentId, true)) known.add(c._id);
  if (ids.some((id: string) => !known.has(id))) throw notFound("Parent Change not found");
  const made = new Map(ctx.data.changes.map((c, index) => [c._id, index]));
  const order = [...new Set(ids as string[])].sort((a, b) => (made.get(a) ?? 0) - (made.get(b) ?? 0));
  const answers = new Map(
    order.map((id) => [id, applyChange(ctx.data, ctx.store.environmentId, id, ctx.now)]),
  );
  return ok(
    order.map((id) => answers.get(id)),
    201,
    true,
  );
};
