// The typed change model: every write a plan can make is one Operation, a discriminated union in
// the spirit of drizzle-kit's statements. A plan action carries its operations; the HTTP request
// each one sends is rendered here and only here (requestOf), both for the plan's `requests`
// (what a reviewer sees) and as the contract the executors' client calls keep: apply sends
// exactly what the plan showed, and nothing takes a path apart again.

import type { JsonObject } from "../canonical.js";
import type { Kind, OperationOf } from "./kinds.js";

export type Operation = { [K in Kind]: OperationOf<K> }[Kind];

export interface PlannedRequest {
  method: "POST" | "PUT" | "PATCH";
  path: string;
  body: JsonObject;
  /**
   * Body fields filled at apply time with the server id that another action of this plan
   * creates (a workflow moved into a group created in the same apply).
   */
  refs?: { field: string; action: string }[];
  /**
   * Sent only when this holds, which the plan cannot know before the write before it answers
   * (a created workflow's identifier, which the server makes from the name).
   */
  when?: string;
}

/** The operation's type names its kind ("topic.create" -> "topic"). */
export function kindOfOperation(op: Operation): Kind {
  return op.type.slice(0, op.type.indexOf(".")) as Kind;
}

/** A path segment, percent-encoded, as the request renderers spell ids and keys. */
export const pathSegment = (value: string) => encodeURIComponent(value);
