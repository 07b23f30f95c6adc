// Operations across kinds: each kind renders its own operations as requests (its requests.ts)
// and says which of them create; these dispatch on the operation's kind through the registry.
import type { KindModule } from "./kind.js";
import type { Kind } from "./kinds.js";
import { kindOfOperation, type Operation, type PlannedRequest } from "./operations.js";
import { registry } from "./registry.js";

const moduleOf = (op: Operation) => registry[kindOfOperation(op)] as KindModule<Kind>;

/** The one rendering of an operation as the HTTP request apply sends for it. */
export function requestOf(op: Operation): PlannedRequest {
  return moduleOf(op).requestOf(op);
}

/** Every request apply may send for an operation: its own, then those its answer may call for. */
export function requestsOf(op: Operation): PlannedRequest[] {
  const module = moduleOf(op);
  return [module.requestOf(op), ...(module.followUpsOf?.(op) ?? [])];
}

/** Creates: the writes that may make a second resource if sent twice (their intent is recorded first). */
export function isCreate(op: Operation): boolean {
  return moduleOf(op).creates.includes(op.type);
}
