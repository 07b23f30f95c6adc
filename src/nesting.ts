// How deep parsed JSON may nest, for what notiform reads besides its config: server replies and
// saved files (plans, promotions, state). Every later step (canonical form, masking, digests,
// planning) walks values recursively, and a value nested a few thousand levels overflows the
// stack: an internal error instead of a message. JSON.parse itself copes; this walk stops at the
// limit, so its own recursion stays shallow.

/** The config's own limit (yaml-file.ts): how deep a value may nest in a config document. */
export const MAX_VALUE_NESTING = 64;
/**
 * The limit for a reply or a saved file: a value as deep as a config may hold, plus the levels the
 * document wraps it in (an envelope, a plan's action, change and request body).
 */
export const MAX_DOCUMENT_NESTING = MAX_VALUE_NESTING + 16;

/** Whether arrays and objects in `value` nest deeper than `max` (the document itself is level 1). */
export function nestsDeeperThan(value: unknown, max: number = MAX_DOCUMENT_NESTING): boolean {
  return value !== null && typeof value === "object" && deeper(value, 1, max);
}

/**
 * Recursive, but never more than `max` + 1 calls deep: it stops at the first level past the
 * limit. It runs on every reply, and an explicit stack of (node, depth) pairs cost about three
 * times as much.
 */
function deeper(node: object, depth: number, max: number): boolean {
  if (depth > max) return true;
  if (Array.isArray(node)) {
    for (const child of node)
      if (child !== null && typeof child === "object" && deeper(child, depth + 1, max)) return true;
    return false;
  }
  for (const key in node) {
    if (!Object.hasOwn(node, key)) continue;
    const child = (node as Record<string, unknown>)[key];
    if (child !== null && typeof child === "object" && deeper(child, depth + 1, max)) return true;
  }
  return false;
}
