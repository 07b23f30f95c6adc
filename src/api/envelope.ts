// Unwrapping and light shape checks of responses. The client accepts the spec's envelopes and
// the real server's (an answer with or without `data`; lists nested or flat) and
// checks the fields notiform relies on, so a surprising answer is a clear API_BAD_RESPONSE naming
// the endpoint and the field, never a crash deeper in the planner.
import { badResponse } from "./errors.js";
import { numberOr } from "./request-checks.js";

export interface ResponseContext {
  method: string;
  path: string;
  endpoint: string;
  status: number;
  /** Attempts the call took (1 unless it was retried). */
  attempts: number;
}

export type FieldType = "string" | "boolean" | "number" | "array" | "object";

export function fail(ctx: ResponseContext, problem: string): never {
  throw badResponse(ctx, problem);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** `{data: ...}` -> data. */
export function unwrap(json: unknown, ctx: ResponseContext): unknown {
  if (!isRecord(json) || !("data" in json)) fail(ctx, "no `data` envelope");
  return json.data;
}

/** Check that `value` is an object whose listed fields have the listed types. */
export function expectShape<T>(
  value: unknown,
  fields: Record<string, FieldType>,
  ctx: ResponseContext,
  where: string,
): T {
  if (!isRecord(value)) fail(ctx, `${where} is not an object`);
  for (const [field, type] of Object.entries(fields)) {
    const inner = value[field];
    const ok =
      type === "array" ? Array.isArray(inner) : type === "object" ? isRecord(inner) : typeof inner === type;
    if (!ok) fail(ctx, `${where}.${field} is ${describe(inner)}, expected ${type}`);
  }
  return value as T;
}

export function expectArray<T>(
  value: unknown,
  fields: Record<string, FieldType>,
  ctx: ResponseContext,
  where: string,
): T[] {
  if (!Array.isArray(value)) fail(ctx, `${where} is ${describe(value)}, expected an array`);
  return value.map((item, index) => expectShape<T>(item, fields, ctx, `${where}[${index}]`));
}

/**
 * A page of a list that says its length (`{data, totalCount, page?, pageSize?}`), each item
 * checked; the page and its size as asked when the server leaves them out.
 */
export function countedPage<T>(
  json: unknown,
  item: Record<string, FieldType>,
  ctx: ResponseContext,
  asked: { page: number; pageSize: number },
): { data: T[]; totalCount: number; page: number; pageSize: number } {
  const page = expectShape<{ data: unknown; totalCount: number; page?: unknown; pageSize?: unknown }>(
    json,
    { data: "array", totalCount: "number" },
    ctx,
    "response",
  );
  return {
    data: expectArray<T>(page.data, item, ctx, "data"),
    totalCount: page.totalCount,
    page: numberOr(page.page, asked.page),
    pageSize: numberOr(page.pageSize, asked.pageSize),
  };
}

function describe(value: unknown): string {
  if (value === undefined) return "missing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}
