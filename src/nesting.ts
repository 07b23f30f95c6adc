// How deep parsed JSON may nest, for what notiform reads besides its config: server replies and
// saved files (plans, promotions, state). Every later step (canonical form, masking, digests,
// planning) walks values recursively, and a value nested a few thousand levels overflows the
// stack: an internal error instead of a message. JSON.parse itself copes; this walk is iterative.

/** The config's own limit (yaml-file.ts): how deep a value may nest in a config document. */
export const MAX_VALUE_NESTING = 64;
/**
 * The limit for a reply or a saved file: a value as deep as a config may hold, plus the levels the
 * document wraps it in (an envelope, a plan's action, change and request body).
 */
export const MAX_DOCUMENT_NESTING = MAX_VALUE_NESTING + 16;

/** Whether arrays and objects in `value` nest deeper than `max` (the document itself is level 1). */
export function nestsDeeperThan(value: unknown, max: number = MAX_DOCUMENT_NESTING): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const [node, depth] = entry;
    if (node === null || typeof node !== "object") continue;
    if (depth > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
    }
  }
  return false;
}
