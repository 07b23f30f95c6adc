// Reads chosen by cost: a plan needs the resources the config (or --target) names, not the whole
// organization. When they are fewer than the pages a full list would take, they are read one by
// one by identity; otherwise the list is read. Either way the first page is read: it tells the
// list's length. What was read by identity is not the whole list, so the unmanaged list of that
// kind is not computed (the caller reports `listed: false`). Never sends anything itself.
import { isNotiformError } from "../errors.js";
import { mapInLanes } from "../lanes.js";
import { desiredItemsOf } from "./desired-items.js";
import type { DesiredItem, KindModule, ReadScope } from "./kind.js";
import type { Kind } from "./kinds.js";

export interface CostedRead<T> {
  items: T[];
  /** True when the whole list was read. */
  listed: boolean;
}

/** The desired items of a kind that this plan covers (all of them without --target). */
export function wantedItems<K extends Kind>(module: KindModule<K>, scope: ReadScope): readonly DesiredItem[] {
  const items = desiredItemsOf(module, scope.desired);
  const selected = scope.selected;
  return selected === undefined ? items : items.filter((item) => selected.has(`${module.kind}/${item.key}`));
}

/** Whether this read must be the whole list (export, --list-unmanaged). */
export function mustList(scope: ReadScope): boolean {
  return scope.everything || scope.listUnmanaged === true;
}

interface ByIdentity<T> {
  /** The identities wanted, as `identityOf` spells them. */
  wanted: readonly string[];
  identityOf: (item: T) => string;
  /** One resource by identity; undefined when it does not exist (rejects API_UNSUPPORTED when unserved). */
  getOne: (identity: string) => Promise<T | undefined>;
  /** An extension route: send one first, so a server without it costs one request, not a burst. */
  probeFirst?: boolean;
  /** Reads asked for at once at most (the client's `lanes`). */
  lanes: number;
}

/**
 * A list whose first page tells its length (totalCount): the rest of the list, or the wanted
 * identities missing from the first page one by one, whichever takes fewer requests.
 */
export async function readPagedByCost<T, P extends { data: T[]; totalCount: number; pageSize: number }>(
  read: ByIdentity<T> & {
    firstPage: () => Promise<P>;
    /** The whole list, reusing the first page. */
    listRest: (first: P) => Promise<T[]>;
  },
): Promise<CostedRead<T>> {
  const first = await read.firstPage();
  const pageSize = first.pageSize > 0 ? first.pageSize : Math.max(1, first.data.length);
  const pages = Math.ceil(first.totalCount / pageSize);
  const missing = missingFrom(read, first.data);
  if (pages <= 1 || first.data.length === 0) return { items: first.data, listed: true };
  if (missing.length >= pages - 1) return { items: await read.listRest(first), listed: true };
  const got = await getEach(read, missing);
  if (got === undefined) return { items: await read.listRest(first), listed: true };
  return { items: first.data.concat(got), listed: false };
}

/**
 * A list that only says `hasMore`, so its length is unknown until its end: follow it while the
 * wanted identities not seen yet outnumber the pages read so far, then read those by identity.
 * Never more than twice the requests of the better choice made knowing the length.
 */
export async function readFollowingByCost<T>(
  read: ByIdentity<T> & {
    page: (page: number) => Promise<FollowedPage<T>>;
    /** The whole list (a server without the by-identity read), reusing the pages read so far. */
    listAll: (read: readonly FollowedPage<T>[]) => Promise<T[]>;
    maxPages: number;
  },
): Promise<CostedRead<T>> {
  const pages: FollowedPage<T>[] = [];
  const missing = new Set(read.wanted);
  for (let page = 0; page < read.maxPages; page += 1) {
    const result = await read.page(page);
    pages.push(result);
    if (!result.hasMore || result.data.length === 0)
      return { items: pages.flatMap((p) => p.data), listed: true };
    for (const item of result.data) missing.delete(read.identityOf(item));
    if (missing.size <= page + 1) {
      const got = await getEach(read, [...missing]);
      if (got === undefined) break;
      return { items: pages.flatMap((p) => p.data).concat(got), listed: false };
    }
  }
  return { items: await read.listAll(pages), listed: true };
}

function missingFrom<T>(read: ByIdentity<T>, seen: readonly T[]): string[] {
  const have = new Set(seen.map(read.identityOf));
  return [...new Set(read.wanted)].filter((identity) => !have.has(identity));
}

/** Each identity by itself, concurrently in lanes (the client's limiter bounds them); undefined: unserved. */
async function getEach<T>(read: ByIdentity<T>, identities: readonly string[]): Promise<T[] | undefined> {
  const [head, ...rest] = identities;
  if (head === undefined) return [];
  try {
    const first: (T | undefined)[] = read.probeFirst === true ? [await read.getOne(head)] : [];
    const others: (T | undefined)[] = await mapInLanes(
      read.probeFirst === true ? rest : identities,
      read.lanes,
      (identity) => read.getOne(identity),
    );
    return first.concat(others).filter((item): item is T => item !== undefined);
  } catch (error) {
    if (isNotiformError(error) && error.code === "API_UNSUPPORTED") return undefined;
    throw error;
  }
}

/** What a paged kind read while the config loaded: the first page, and the whole list when large. */
export interface PagedReadAhead<T, P> {
  first: P;
  all?: Promise<T[]>;
  /** Pages after the first, asked for with it (readAheadPaged's `speculate`), by number. */
  pages?: ReadonlyMap<number, Promise<P>>;
}

/** Pages after the first that readAheadPaged may ask for with it. */
export interface PageSpeculation<P> {
  /** One page of the list, at `pageSize`, as the whole list's read asks for it. */
  page: (page: number) => Promise<P>;
  pageSize: number;
  /** At most this many pages (besides the first). */
  most: number;
}

/**
 * The first page, then the whole list when the entries parsed so far already outnumber its
 * remaining pages (so readPagedByCost would list it too); otherwise only the first page.
 * With `speculate`, the pages the entries parsed so far fill (at the page size asked for, up to
 * `most`) are asked for with the first rather than after its answer: a list the config fills is
 * read a round trip sooner, and its first requests leave together. The list's read takes them
 * (`pages`) instead of asking again. Where the server holds fewer (a first plan), they come back
 * empty: at most `most` requests more.
 */
export async function readAheadPaged<T, P extends { data: T[]; totalCount: number; pageSize: number }>(
  firstPage: () => Promise<P>,
  listRest: (first: P, pages: ReadonlyMap<number, Promise<P>>) => Promise<T[]>,
  count: () => number,
  speculate?: PageSpeculation<P>,
): Promise<PagedReadAhead<T, P>> {
  // The first page before the others, so it is the first to leave.
  const reading = firstPage();
  const ahead = new Map<number, Promise<P>>();
  if (speculate !== undefined) {
    const filled = Math.ceil(count() / Math.max(1, speculate.pageSize));
    for (let page = 1; page < filled && page <= speculate.most; page += 1) {
      const read = speculate.page(page);
      // Taken by the list's read, or not needed; never an unhandled rejection meanwhile.
      read.catch(() => undefined);
      ahead.set(page, read);
    }
  }
  const first = await reading;
  const withPages = ahead.size > 0 ? { pages: ahead } : {};
  const pageSize = first.pageSize > 0 ? first.pageSize : Math.max(1, first.data.length);
  const pages = Math.ceil(first.totalCount / pageSize);
  if (pages <= 1 || count() < pages - 1) return { first, ...withPages };
  const all = listRest(first, ahead);
  // Awaited by readLive; until then (or if the config fails to load) never an unhandled rejection.
  all.catch(() => undefined);
  return { first, all, ...withPages };
}

/** A page of a list that only says `hasMore`. */
export interface FollowedPage<T> {
  data: T[];
  hasMore: boolean;
}

/**
 * The pages of a `hasMore` list that readFollowingByCost is sure to read too, read while the
 * config loads: it goes on while more wanted identities are missing than pages were read, and at
 * least `count() - items seen` are (count: the entries parsed so far, each a distinct identity).
 * So reading ahead never adds a request; readLive replays these pages (replayed) and goes on.
 */
export async function readAheadFollowing<T>(
  page: (page: number) => Promise<FollowedPage<T>>,
  count: () => number,
  maxPages: number,
): Promise<FollowedPage<T>[]> {
  const pages: FollowedPage<T>[] = [];
  let seen = 0;
  for (let index = 0; index < maxPages; index += 1) {
    const result = await page(index);
    pages.push(result);
    seen += result.data.length;
    if (!result.hasMore || result.data.length === 0 || count() - seen <= index + 1) break;
  }
  return pages;
}

/** A page function that answers the pages read ahead from memory and reads the rest. */
export function replayed<P>(
  ahead: readonly P[],
  read: (page: number) => Promise<P>,
): (page: number) => Promise<P> {
  return (page) => {
    const known = ahead[page];
    return known !== undefined ? Promise.resolve(known) : read(page);
  };
}
