// Paging through a list whose total is known from the first page: the remaining pages are
// fetched concurrently (the shared limiter bounds them), and every item is returned exactly
// once (by id), even when items move between pages while we read.
export interface PageResult<T> {
  items: T[];
  totalCount: number;
  pageSize: number;
}

export async function listAllPaged<T>(
  fetchPage: (page: number) => Promise<PageResult<T>>,
  idOf: (item: T) => string,
): Promise<T[]> {
  const seen = new Map<string, T>();
  const first = await fetchPage(0);
  for (const item of first.items) seen.set(idOf(item), item);
  const pageSize = first.pageSize > 0 ? first.pageSize : Math.max(1, first.items.length);
  let total = first.totalCount;
  let fetched = 1;
  // Usually one round; another when the total grew while reading.
  while (first.items.length > 0 && fetched * pageSize < total) {
    const pages = Math.ceil(total / pageSize);
    const results = await Promise.all(
      Array.from({ length: pages - fetched }, (_, i) => fetchPage(fetched + i)),
    );
    fetched = pages;
    for (const result of results) {
      for (const item of result.items) seen.set(idOf(item), item);
      total = Math.max(total, result.totalCount);
    }
  }
  return [...seen.values()];
}
