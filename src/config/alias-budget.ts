// How far a YAML document's aliases expand. The `yaml` library's maxAliasCount counts aliases
// inside an anchored node, not its size, so one 100,000-item list aliased 999 times passes it
// and expands to 100 million values (a 215 KB file took 42 s and 1.4 GB). This adds up, per
// alias, the values of what it names (aliases within counted as expanded too; memoised per node,
// so even a "billion laughs" costs time linear in the file), and stops at the budget.
import { type Document, isAlias, isMap, isPair, isScalar, isSeq, type Node, visit } from "yaml";

/** The most values aliases may add to a document (config files and emulator seeds). */
export const MAX_ALIAS_EXPANSION = 1_000_000;

/** The alias at which a document's aliases add more than `budget` values; undefined if none does. */
export function excessiveAlias(doc: Document, budget = MAX_ALIAS_EXPANSION): Node | undefined {
  const limit = budget + 1;
  const sizes = new Map<unknown, number>();
  const counting = new Set<unknown>();
  /** Values `node` becomes once every alias in it is expanded, capped at `limit`. */
  const expanded = (node: unknown): number => {
    if (isAlias(node)) {
      const target = node.resolve(doc);
      return target === undefined ? 1 : expanded(target);
    }
    if (!isMap(node) && !isSeq(node) && !isPair(node)) return 1;
    const known = sizes.get(node);
    if (known !== undefined) return known;
    // An alias inside the node it names never ends.
    if (counting.has(node)) return limit;
    counting.add(node);
    let total = isPair(node) ? expanded(node.key) + expanded(node.value) : 1;
    if (!isPair(node)) {
      for (const item of node.items) {
        total += expanded(item);
        if (total >= limit) break;
      }
    }
    counting.delete(node);
    const capped = Math.min(total, limit);
    sizes.set(node, capped);
    return capped;
  };
  let added = 0;
  let found: Node | undefined;
  visit(doc, {
    Alias(_key, node) {
      const target = node.resolve(doc);
      added += target === undefined || isScalar(target) ? 0 : expanded(target) - 1;
      if (added > budget) {
        found = node;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}
