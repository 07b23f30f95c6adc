// Paging through whole lists, every item exactly once (by id, even when items move between
// pages while we read). A list whose total is known from its first page has the remaining pages
// fetched concurrently (the shared limiter bounds them); one that only says `hasMore` is
// followed page by page. Never sends anything itself: it calls the page function it is given.
import { NotiformError } from "../errors.js";

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

/** Pages followed at most (a million records at 100 a page): beyond it a server is looping. */
export const MAX_FOLLOWED_PAGES = 10_000;

/**
 * Follow `hasMore` from page 0 until a page says there is no more, comes back empty, or brings
 * nothing new (a server ignoring `page` would otherwise answer page 0 for ever).
 */
export async function listAllFollowing<T>(
  fetchPage: (page: number) => Promise<{ items: T[]; hasMore: boolean }>,
  idOf: (item: T) => string,
  maxPages = MAX_FOLLOWED_PAGES,
): Promise<T[]> {
  const seen = new Map<string, T>();
  for (let page = 0; page < maxPages; page += 1) {
    const result = await fetchPage(page);
    const before = seen.size;
    for (const item of result.items) seen.set(idOf(item), item);
    if (!result.hasMore || result.items.length === 0 || seen.size === before) return [...seen.values()];
  }
  throw new NotiformError(
    "API_BAD_RESPONSE",
    `the server still said "hasMore" after ${maxPages} pages; stopped reading`,
  );
}
