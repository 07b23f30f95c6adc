// Identities that occur more than once in a live list (the server has no unique index).

/**
 * A live list by identity (a later item of one identity replaces an earlier one, as a Map built
 * from the list does) and the identities it holds more than once: one pass over a list that can
 * be the last read of a plan, so the user waits for it.
 */
export function indexBy<T>(
  items: Iterable<T>,
  identity: (item: T) => string,
): { byIdentity: Map<string, T>; duplicates: string[] } {
  const byIdentity = new Map<string, T>();
  const twice = new Set<string>();
  for (const item of items) {
    const id = identity(item);
    if (byIdentity.has(id)) twice.add(id);
    byIdentity.set(id, item);
  }
  return { byIdentity, duplicates: [...twice].sort() };
}

/** The identities a live list holds more than once. */
export function duplicatesOf<T>(items: Iterable<T>, identity: (item: T) => string): string[] {
  return indexBy(items, identity).duplicates;
}
