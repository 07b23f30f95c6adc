// A payload for a step the config gives no example for: every variable its templates name, with a
// visible placeholder value (`{{orderId}}` -> `[orderId]`, `{{order.id}}` -> order: { id:
// "[order.id]" }), so the preview shows where each value goes. Pure.

/** Dotted paths (first use first) -> a payload holding `[path]` at each. */
export function placeholderPayload(paths: readonly string[]): Record<string, unknown> {
  const payload: Record<string, unknown> = Object.create(null);
  // Longer paths first: `order` and `order.id` both named make `order` an object.
  const sorted = [...new Set(paths)].sort((a, b) => b.split(".").length - a.split(".").length);
  for (const path of sorted) {
    const parts = path.split(".").filter((part) => part !== "");
    let holder = payload;
    parts.forEach((part, index) => {
      if (index === parts.length - 1) {
        if (!(part in holder)) holder[part] = `[${path}]`;
        return;
      }
      const next = holder[part];
      if (next === null || typeof next !== "object") holder[part] = Object.create(null);
      holder = holder[part] as Record<string, unknown>;
    });
  }
  return payload;
}
