// Work over many items with at most `lanes` under way at once, each lane taking the next item as
// its last one settles; results in the items' order. For reads of many pages or many ids: the
// transport's limiter bounds what is in flight, and lanes bound what waits for it, so a thousand
// reads are not a thousand calls made up front (each with its headers, query and limiter waiter)
// before the first is sent. After a failure no lane starts another item, and the failure is thrown.

export async function mapInLanes<T, R>(
  items: readonly T[],
  lanes: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (!failed && next < items.length) {
      const index = next;
      next += 1;
      try {
        results[index] = await work(items[index] as T, index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const count = Math.max(1, Math.min(items.length, Math.floor(lanes) || 1));
  await Promise.all(Array.from({ length: count }, lane));
  return results;
}
