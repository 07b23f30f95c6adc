// Identities that occur more than once in a live list (the server has no unique index).

export function duplicatesOf<T>(items: Iterable<T>, identity: (item: T) => string): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const item of items) {
    const id = identity(item);
    if (seen.has(id)) twice.add(id);
    else seen.add(id);
  }
  return [...twice].sort();
}
