// Paging through whole lists, every item exactly once (by id, even when items move between
// pages while we read). A list whose total is known from its first page has the remaining pages
// fetched concurrently, a few lanes taking the next page as each is read (the shared limiter
// bounds those in flight); one that only says `hasMore` is followed page by page. Never sends
// anything itself: it calls the page function it is given.
// Bounded: a list longer than `maxPages`, a total that would need more pages (an absurd
// totalCount is never allocated for), or a page that brings back only ids already read (a
// server ignoring `page`, which would otherwise loop forever) fails with API_PAGINATION.
import { NotiformError } from "../errors.js";
import { mapInLanes } from "../lanes.js";
import type { PageProgress } from "./log-events.js";

export interface PageResult<T> {
  items: T[];
  totalCount: number;
  pageSize: number;
}

export interface PageLimits {
  /** The list endpoint, named in errors. */
  endpoint: string;
  maxPages: number;
  /**
   * Pages asked for at once (default: all of them). Twice the concurrency limit keeps a page
   * waiting in the limiter's queue for each slot (a freed slot is taken before the answer that
   * freed it is taken in), without a call made up front for each of a thousand pages: that cost
   * the main thread ~25 ms and their garbage before the first of them was sent.
   */
  lanes?: number | undefined;
  /** Told after each page read, and once more when the list is done (or failed). */
  onPage?: ((progress: PageProgress) => void) | undefined;
}

/** Numbers each reading of a list (PageProgress.list). */
let lists = 0;

export async function listAllPaged<T>(
  fetchPage: (page: number) => Promise<PageResult<T>>,
  idOf: (item: T) => string,
  limits: PageLimits,
): Promise<T[]> {
  let read = 0;
  let pagesTotal: number | undefined;
  const list = ++lists;
  const report = (done: boolean) =>
    limits.onPage?.({ endpoint: limits.endpoint, list, read, total: pagesTotal, done });
  const counted = async (page: number) => {
    const result = await fetchPage(page);
    read += 1;
    // The first page is reported once its total is known (onTotal below).
    if (pagesTotal !== undefined) report(false);
    return result;
  };
  try {
    return await readPaged(counted, idOf, limits, (pages) => {
      const first = pagesTotal === undefined;
      pagesTotal = pages;
      if (first) report(false);
    });
  } finally {
    report(true);
  }
}

async function readPaged<T>(
  fetchPage: (page: number) => Promise<PageResult<T>>,
  idOf: (item: T) => string,
  limits: PageLimits,
  onTotal: (pages: number) => void,
): Promise<T[]> {
  const seen = new Map<string, T>();
  const first = await fetchPage(0);
  for (const item of first.items) seen.set(idOf(item), item);
  const pageSize = first.pageSize > 0 ? first.pageSize : Math.max(1, first.items.length);
  let total = first.totalCount;
  let fetched = 1;
  onTotal(Math.max(1, Math.ceil(total / pageSize)));
  // Usually one round; another when the total grew while reading.
  while (first.items.length > 0 && fetched * pageSize < total) {
    const pages = Math.ceil(total / pageSize);
    onTotal(pages);
    if (!(pages <= limits.maxPages)) {
      throw paginationError(
        limits,
        `the server reports ${total} items (totalCount), which would take ${pages} pages of ${pageSize}, more than the ${limits.maxPages} pages read at most`,
      );
    }
    // Each page is taken in as soon as it and every page before it are in (the list's order),
    // so only the last pages are left to take in after the last answer.
    const results: PageResult<T>[] = [];
    let next = fetched;
    const takeIn = (page: number, result: PageResult<T>) => {
      results[page - fetched] = result;
      for (let ready = results[next - fetched]; ready !== undefined; ready = results[next - fetched]) {
        if (addNew(seen, ready.items, idOf) === 0 && ready.items.length === pageSize)
          throw repeated(limits, next);
        total = Math.max(total, ready.totalCount);
        next += 1;
      }
    };
    const rest = Array.from({ length: pages - fetched }, (_, i) => fetched + i);
    await mapInLanes(rest, limits.lanes ?? rest.length, async (page) => takeIn(page, await fetchPage(page)));
    fetched = pages;
  }
  return [...seen.values()];
}

/**
 * Follow `hasMore` from page 0 until a page says there is no more, comes back empty, or brings
 * nothing new (a server ignoring `page` would otherwise answer page 0 for ever).
 */
export async function listAllFollowing<T>(
  fetchPage: (page: number) => Promise<{ items: T[]; hasMore: boolean }>,
  idOf: (item: T) => string,
  limits: PageLimits,
): Promise<T[]> {
  const seen = new Map<string, T>();
  let read = 0;
  const list = ++lists;
  const report = (done: boolean) =>
    limits.onPage?.({ endpoint: limits.endpoint, list, read, total: undefined, done });
  try {
    return await readFollowing(fetchPage, idOf, limits, seen, () => {
      read += 1;
      report(false);
    });
  } finally {
    report(true);
  }
}

async function readFollowing<T>(
  fetchPage: (page: number) => Promise<{ items: T[]; hasMore: boolean }>,
  idOf: (item: T) => string,
  limits: PageLimits,
  seen: Map<string, T>,
  onRead: () => void,
): Promise<T[]> {
  for (let page = 0; page < limits.maxPages; page += 1) {
    const result = await fetchPage(page);
    onRead();
    const added = addNew(seen, result.items, idOf);
    if (!result.hasMore || result.items.length === 0) return [...seen.values()];
    if (added === 0) throw repeated(limits, page);
  }
  throw paginationError(
    limits,
    `the list did not end within ${limits.maxPages} pages (every page said hasMore: true)`,
  );
}

/** Add the items not seen yet; how many were new. */
function addNew<T>(seen: Map<string, T>, items: T[], idOf: (item: T) => string): number {
  let added = 0;
  for (const item of items) {
    const id = idOf(item);
    if (!seen.has(id)) added += 1;
    seen.set(id, item);
  }
  return added;
}

function repeated(limits: PageLimits, page: number): NotiformError {
  return paginationError(
    limits,
    `page ${page} holds only items already read on earlier pages (the server seems to ignore the page number)`,
  );
}

function paginationError(limits: PageLimits, problem: string): NotiformError {
  return new NotiformError("API_PAGINATION", `${limits.endpoint}: ${problem}`, {
    hint: "The server's list does not page as the API says; nothing was changed. Report it to the server's operator.",
  });
}
