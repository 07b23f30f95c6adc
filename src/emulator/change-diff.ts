// The diff a change record carries, in a real server's vocabulary (r3-q1-14, r3-q1-29, r3-q3-20,
// r3-q3-29): ops `add` {path, val}, `update` {path, val, oldVal} and `delete` {path, oldVal}, with
// deep paths into objects and arrays (`["triggers", 0, "variables", 1, "_id"]`). The walk follows
// the recursive-diff library a real server uses: the old value's keys in order (a key gone is a
// `delete`, a kept one is compared inside), then the new keys (`add`); values of different kinds
// are one `update`. Pure: data in, data out.
import type { ChangeOp } from "./store.js";

type Container = Record<string, unknown> | unknown[];

function kindOf(value: unknown): "array" | "object" | "value" {
  if (Array.isArray(value)) return "array";
  return value !== null && typeof value === "object" ? "object" : "value";
}

function keysOf(value: Container): (string | number)[] {
  return Array.isArray(value) ? value.map((_, index) => index) : Object.keys(value);
}

function has(value: Container, key: string | number): boolean {
  return Array.isArray(value) ? typeof key === "number" && key < value.length : Object.hasOwn(value, key);
}

function at(value: Container, key: string | number): unknown {
  return (value as Record<string | number, unknown>)[key];
}

/** The ops that turn `before` into `after` (both JSON). */
export function diffOps(before: unknown, after: unknown): ChangeOp[] {
  const ops: ChangeOp[] = [];
  collectOps(before, after, [], ops);
  return ops;
}

/** Appends to `ops` (one list for the whole walk: no spreading of a subtree's ops into its parent's). */
function collectOps(before: unknown, after: unknown, path: (string | number)[], ops: ChangeOp[]): void {
  const kind = kindOf(before);
  if (kind !== "value" && kind === kindOf(after)) {
    const from = before as Container;
    const to = after as Container;
    for (const key of keysOf(from)) {
      if (has(to, key)) collectOps(at(from, key), at(to, key), [...path, key], ops);
      else ops.push({ op: "delete", path: [...path, key], oldVal: at(from, key) });
    }
    for (const key of keysOf(to))
      if (!has(from, key)) ops.push({ op: "add", path: [...path, key], val: at(to, key) });
    return;
  }
  if (JSON.stringify(before) !== JSON.stringify(after))
    ops.push({ op: "update", path, val: after, oldVal: before });
}

/**
 * `state` after the ops (`state` is changed in place and returned). Ops of data files written
 * before the real vocabulary (`replace`, `remove`, top-level paths) apply too.
 */
export function applyOps(state: Record<string, unknown>, ops: readonly ChangeOp[]): Record<string, unknown> {
  const emptied = new Set<unknown[]>();
  for (const { op, path, val } of ops) {
    if (path.length === 0) continue;
    let parent: Container = state;
    for (const key of path.slice(0, -1)) {
      let next = at(parent, key);
      if (next === null || typeof next !== "object") {
        next = {};
        (parent as Record<string | number, unknown>)[key] = next;
      }
      parent = next as Container;
    }
    const last = path[path.length - 1] as string | number;
    if (op === "delete" || op === "remove") {
      // An array keeps its indexes until every op is applied (deletes come by ascending index).
      delete (parent as Record<string | number, unknown>)[last];
      if (Array.isArray(parent)) emptied.add(parent);
    } else (parent as Record<string | number, unknown>)[last] = structuredClone(val);
  }
  // Close the holes the deletes left, in place (a loop: a spread of a long array overflows the stack).
  for (const array of emptied) {
    let kept = 0;
    for (let index = 0; index < array.length; index += 1)
      if (index in array) {
        array[kept] = array[index];
        kept += 1;
      }
    array.length = kept;
  }
  return state;
}
