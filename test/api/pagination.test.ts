// Whole lists, every item exactly once: topics (page size 10, the real cap) fetched page 0 first
// and the rest concurrently from totalCount; overrides following hasMore (limit 100) in either
// envelope; workflows paged by totalCount (limit 100).
import { afterEach, describe, expect, it } from "vitest";
import { listAllFollowing, listAllPaged } from "../../src/api/pagination.js";
import type { Recorded } from "./helpers/fake-server.js";
import { closeAll, harness, T, W } from "./helpers/harness.js";

afterEach(closeAll);

function query(request: Recorded): URLSearchParams {
  return new URL(request.path, "http://x").searchParams;
}

const topics = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ _id: `t${i}`, key: `k${i}`, name: `T${i}`, subscribers: [] }));

describe("listAllTopics", () => {
  it("reads 1,000 topics in 100 pages, each page once, the rest concurrently within the limit", async () => {
    const all = topics(1_000);
    const { client, server } = await harness(
      (request) => {
        const page = Number(query(request).get("page"));
        const size = Number(query(request).get("pageSize"));
        return {
          status: 200,
          body: {
            data: all.slice(page * size, page * size + size),
            page,
            pageSize: size,
            totalCount: all.length,
          },
        };
      },
      { concurrency: 6 },
    );
    const listed = await client.listAllTopics();
    expect(listed.map((t) => t._id).sort()).toEqual(all.map((t) => t._id).sort());
    expect(new Set(listed.map((t) => t._id)).size).toBe(1_000);
    const pages = server.requests.map((r) => Number(query(r).get("page")));
    expect(pages.sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(server.requests[0]?.path).toBe("/v1/topics?page=0&pageSize=10");
    expect(server.requests.every((r) => query(r).get("pageSize") === "10")).toBe(true);
    expect(server.maxInFlight).toBe(6);
  });

  it("returns a topic seen on two pages once (items shifting while we read)", async () => {
    const all = topics(25);
    const { client } = await harness((request) => {
      const page = Number(query(request).get("page"));
      // Page 1 repeats the last topic of page 0, as if one was inserted before it meanwhile.
      const start = page === 0 ? 0 : page * 10 - 1;
      return {
        status: 200,
        body: { data: all.slice(start, start + 10), page, pageSize: 10, totalCount: 25 },
      };
    });
    const listed = await client.listAllTopics();
    expect(listed.map((t) => t._id).sort()).toEqual(all.map((t) => t._id).sort());
  });

  it("an empty organization takes one request", async () => {
    const { client, server } = await harness([
      { status: 200, body: { data: [], page: 0, pageSize: 10, totalCount: 0 } },
    ]);
    expect(await client.listAllTopics()).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });
});

describe("listAllWorkflowOverrides", () => {
  const overrides = Array.from({ length: 250 }, (_, i) => ({
    _id: `o${i}`,
    _workflowId: W,
    _tenantId: `t${i}`,
    active: false,
    preferenceSettings: { email: true, sms: true, in_app: true, chat: true, push: true },
  }));

  it.each(["flat", "nested"])("follows hasMore through the %s envelope, limit 100", async (envelope) => {
    const { client, server } = await harness((request) => {
      const page = Number(query(request).get("page"));
      const limit = Number(query(request).get("limit"));
      const inner = {
        data: overrides.slice(page * limit, page * limit + limit),
        page,
        pageSize: limit,
        hasMore: (page + 1) * limit < overrides.length,
      };
      return { status: 200, body: envelope === "flat" ? inner : { data: inner } };
    });
    const listed = await client.listAllWorkflowOverrides();
    expect(listed.map((o) => o._id)).toEqual(overrides.map((o) => o._id));
    expect(server.requests.map((r) => r.path)).toEqual([
      "/v1/workflow-overrides?page=0&limit=100",
      "/v1/workflow-overrides?page=1&limit=100",
      "/v1/workflow-overrides?page=2&limit=100",
    ]);
  });

  it("stops on an empty page even if it says hasMore", async () => {
    const { client, server } = await harness([
      { status: 200, body: { data: [], page: 0, pageSize: 100, hasMore: true } },
    ]);
    expect(await client.listAllWorkflowOverrides()).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it("fails clearly when a page brings nothing new (a server ignoring page answers page 0 for ever)", async () => {
    const tenant = { _id: T, identifier: "t1", name: "T" };
    const { client, server } = await harness(() => ({
      status: 200,
      body: { data: [tenant], page: 0, pageSize: 100, hasMore: true },
    }));
    await expect(client.listAllTenants()).rejects.toMatchObject({
      code: "API_PAGINATION",
      message: expect.stringContaining("page 1 holds only items already read"),
    });
    expect(server.requests.map((r) => r.path)).toEqual([
      "/v1/tenants?page=0&limit=100",
      "/v1/tenants?page=1&limit=100",
    ]);
  });
});

describe("a list read in lanes", () => {
  /** A list of `pages` pages of one item; each page answers when the test lets it. */
  function pagedList(pages: number, failOn?: number) {
    const asked: number[] = [];
    let outstanding = 0;
    let mostOutstanding = 0;
    const fetchPage = async (page: number) => {
      asked.push(page);
      outstanding += 1;
      mostOutstanding = Math.max(mostOutstanding, outstanding);
      // Answers after the other lanes had their turn (a few turns of the event loop).
      for (let turn = 0; turn < 3; turn += 1) await new Promise((resolve) => setImmediate(resolve));
      outstanding -= 1;
      if (page === failOn) throw new Error(`page ${page} failed`);
      return { items: [`item-${page}`], totalCount: pages, pageSize: 1 };
    };
    return { fetchPage, asked, mostOutstanding: () => mostOutstanding };
  }

  it("asks for at most `lanes` pages at once, each page once and in order, every item kept", async () => {
    const list = pagedList(50);
    const items = await listAllPaged(list.fetchPage, (item) => item, {
      endpoint: "listThings",
      maxPages: 100,
      lanes: 4,
    });
    expect(items).toEqual(Array.from({ length: 50 }, (_, i) => `item-${i}`));
    expect(list.asked).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(list.mostOutstanding()).toBe(4);
  });

  it("starts no page after one failed, and throws that failure", async () => {
    const list = pagedList(50, 5);
    await expect(
      listAllPaged(list.fetchPage, (item) => item, { endpoint: "listThings", maxPages: 100, lanes: 4 }),
    ).rejects.toThrow("page 5 failed");
    // Page 5 fails while pages 6 to 8 are out (four lanes): none is started after it.
    expect(Math.max(...list.asked)).toBeLessThanOrEqual(8);
  });
});

describe("a bounded hasMore chain", () => {
  it("gives up with API_PAGINATION after the page bound instead of reading for ever", async () => {
    let n = 0;
    const pages = listAllFollowing(
      async () => {
        n += 1;
        return { items: [`item-${n}`], hasMore: true };
      },
      (item) => item,
      { endpoint: "listThings", maxPages: 5 },
    );
    await expect(pages).rejects.toMatchObject({ code: "API_PAGINATION" });
    expect(n).toBe(5);
  });
});

describe("listAllWorkflows", () => {
  it("pages the list extension by totalCount, limit 100", async () => {
    const workflows = Array.from({ length: 230 }, (_, i) => ({
      _id: `w${i}`,
      name: `W${i}`,
      active: i % 2 === 0,
    }));
    const { client, server } = await harness((request) => {
      const page = Number(query(request).get("page"));
      const limit = Number(query(request).get("limit"));
      return {
        status: 200,
        body: {
          data: workflows.slice(page * limit, page * limit + limit),
          page,
          pageSize: limit,
          totalCount: 230,
        },
      };
    });
    const listed = await client.listAllWorkflows();
    expect(listed.map((w) => w._id).sort()).toEqual(workflows.map((w) => w._id).sort());
    expect(server.requests.map((r) => r.path).sort()).toEqual([
      "/v1/workflows?page=0&limit=100",
      "/v1/workflows?page=1&limit=100",
      "/v1/workflows?page=2&limit=100",
    ]);
    expect(client.capability("listWorkflows")).toBe("supported");
  });
});
