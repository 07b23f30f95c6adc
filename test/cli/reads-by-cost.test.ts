// Reads in proportion to what is asked: a small config against a large organization reads its
// resources by identity, --target reads only the targets (and their dependencies), a target that
// is not in the config fails before any request, and --list-unmanaged reads the whole lists.
// Request counts are exact, from the emulator's own request log.
import { describe, expect, it } from "vitest";
import { bigOrganization, topicKey } from "../support/big-organization.js";
import { cliTests } from "../support/cli.js";

const TOPICS = 200; // 20 pages of 10
const OVERRIDES = 300; // 3 pages of 100
const workflowId = (i: number) => `64f1c0ffee${i.toString(16).padStart(14, "0")}`;
const tenantId = (i: number) => `65${i.toString(16).padStart(22, "0")}`;
const SEED = bigOrganization(TOPICS, {
  workflows: [{ _id: workflowId(0), name: "Workflow 0", active: true }],
  tenants: Array.from({ length: OVERRIDES }, (_, i) => ({ _id: tenantId(i) })),
  overrides: Array.from({ length: OVERRIDES }, (_, i) => ({
    workflowId: workflowId(0),
    tenantId: tenantId(i),
    active: true,
  })),
});

/** Five topics deep in the list: one renamed, one new. */
const TOPICS_CONFIG = `version: 1
organization: Big Inc
topics:
  - { key: ${topicKey(150)}, name: Topic 150 }
  - { key: ${topicKey(151)}, name: Topic 151 }
  - { key: ${topicKey(152)}, name: Topic 152 }
  - { key: ${topicKey(153)}, name: Topic 153 renamed }
  - { key: topic-new, name: New topic }
`;

const OVERRIDES_CONFIG = `version: 1
organization: Big Inc
workflows:
  - { key: wf, id: ${workflowId(0)} }
overrides:
  - { workflow: wf, tenant: ${tenantId(250)}, active: true }
  - { workflow: wf, tenant: ${tenantId(251)}, active: false }
`;

const cliTest = cliTests();

async function session(config: string, strictSpec = false) {
  const test = await cliTest({ seedFile: null, seed: SEED, config, strictSpec });
  const handle = test.emulator;
  const cli = async (...args: string[]) => {
    handle.clearRequests();
    const result = await test.run(args);
    const all = handle.requests.map((r) => `${r.method} ${r.path}`);
    // Every session asks once which environment the key reaches: counted apart from the reads.
    const environment = all.filter((r) => r === "GET /v1/environments/me");
    expect(environment.length).toBeLessThanOrEqual(1);
    return { ...result, environment, requests: all.filter((r) => r !== "GET /v1/environments/me") };
  };
  return cli;
}

describe("plan reads by cost", () => {
  it("reads five topics of an organization of 200 by key: 7 requests, not 21", async () => {
    const cli = await session(TOPICS_CONFIG);
    const plan = await cli("plan", "--output", "json");
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.requests.length).toBe(7);
    expect(plan.environment).toEqual(["GET /v1/environments/me"]);
    expect(plan.requests.slice(0, 2).sort()).toEqual([
      "GET /v1/organizations/me",
      "GET /v1/topics?page=0&pageSize=10",
    ]);
    expect(plan.requests.slice(2).sort()).toEqual(
      [150, 151, 152, 153]
        .map((i) => `GET /v1/topics/${topicKey(i)}`)
        .concat("GET /v1/topics/topic-new")
        .sort(),
    );
    const json = JSON.parse(plan.stdout);
    expect(json.summary).toMatchObject({ create: 1, update: 1, unchanged: 3, unmanaged: 0 });
    expect(json.unmanaged).toEqual([]);
    expect(json.unmanagedNotListed).toEqual(["topic"]);

    const text = await cli("plan");
    expect(text.stdout).toContain("Unmanaged topics: not computed");
    expect(text.stdout).toContain("--list-unmanaged");
  });

  it("--list-unmanaged reads the whole list: 1 + 20 pages, and lists the 196 others", async () => {
    const cli = await session(TOPICS_CONFIG);
    const plan = await cli("plan", "--output", "json", "--list-unmanaged");
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.requests.length, plan.requests.join("\n")).toBe(1 + TOPICS / 10);
    expect(plan.requests.filter((r) => r.startsWith("GET /v1/topics?")).length).toBe(TOPICS / 10);
    const json = JSON.parse(plan.stdout);
    expect(json.summary).toMatchObject({ create: 1, update: 1, unchanged: 3, unmanaged: TOPICS - 4 });
    expect(json.unmanagedNotListed).toBeUndefined();
  });

  it("--target reads only the target: 3 requests", async () => {
    const cli = await session(TOPICS_CONFIG);
    const plan = await cli("plan", "--output", "json", "--target", `topic/${topicKey(153)}`);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.requests.sort()).toEqual([
      "GET /v1/organizations/me",
      `GET /v1/topics/${topicKey(153)}`,
      "GET /v1/topics?page=0&pageSize=10",
    ]);
    const json = JSON.parse(plan.stdout);
    expect(json.actions.map((a: { id: string }) => a.id)).toEqual([`topic/${topicKey(153)}`]);
  });

  it("a --target not in the config fails before any request", async () => {
    const cli = await session(TOPICS_CONFIG);
    const plan = await cli("plan", "--target", "topic/nonexistent");
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain("--target topic/nonexistent: no such resource in the config");
    expect(plan.requests).toEqual([]);
    const apply = await cli("apply", "--auto-approve", "--target", "topic/nonexistent");
    expect(apply.code).toBe(1);
    expect(apply.requests).toEqual([]);
  });

  it("follows a hasMore list only while it is cheaper, then reads pairs: 6 requests, not 5", async () => {
    const cli = await session(OVERRIDES_CONFIG);
    const plan = await cli("plan", "--output", "json");
    expect(plan.code, plan.stderr).toBe(0);
    // organization, workflows page 0 (the whole list), override pages 0 and 1 (two pairs still
    // missing after one page, then no more missing than pages read), and the two pairs.
    expect(plan.requests.sort()).toEqual(
      [
        "GET /v1/organizations/me",
        "GET /v1/workflows?page=0&limit=100",
        "GET /v1/workflow-overrides?page=0&limit=100",
        "GET /v1/workflow-overrides?page=1&limit=100",
        `GET /v1/workflow-overrides/workflows/${workflowId(0)}/tenants/${tenantId(250)}`,
        `GET /v1/workflow-overrides/workflows/${workflowId(0)}/tenants/${tenantId(251)}`,
      ].sort(),
    );
    const json = JSON.parse(plan.stdout);
    expect(json.summary).toMatchObject({ update: 1, unchanged: 2 }); // the workflow and one override
    expect(json.unmanagedNotListed).toEqual(["override"]);
  });

  it("on a server without the pair read, falls back to the whole list after one probe", async () => {
    const cli = await session(OVERRIDES_CONFIG, true);
    const plan = await cli("plan", "--output", "json");
    expect(plan.code, plan.stderr).toBe(0);
    const pair = (i: number) =>
      `GET /v1/workflow-overrides/workflows/${workflowId(0)}/tenants/${tenantId(i)}`;
    // One probe of the pair route (unserved), then the rest of the list: the pages read already
    // are not read again; no second pair read.
    expect(plan.requests.filter((r) => r.startsWith("GET /v1/workflow-overrides/workflows/"))).toHaveLength(
      1,
    );
    expect([pair(250), pair(251)]).toContain(
      plan.requests.find((r) => r.startsWith("GET /v1/workflow-overrides/workflows/")),
    );
    expect(plan.requests.filter((r) => r.startsWith("GET /v1/workflow-overrides?"))).toEqual([
      "GET /v1/workflow-overrides?page=0&limit=100",
      "GET /v1/workflow-overrides?page=1&limit=100",
      "GET /v1/workflow-overrides?page=2&limit=100",
    ]);
    const json = JSON.parse(plan.stdout);
    expect(json.summary).toMatchObject({ update: 1 });
    expect(json.unmanagedNotListed ?? []).not.toContain("override");
  });

  it("lists a kind the config names in full once, even when reading starts while the config loads", async () => {
    const topics = Array.from({ length: TOPICS }, (_, i) => `  - { key: ${topicKey(i)}, name: Topic ${i} }`);
    const cli = await session(`version: 1\norganization: Big Inc\ntopics:\n${topics.join("\n")}\n`);
    const plan = await cli("plan", "--output", "json");
    expect(plan.code, plan.stderr).toBe(0);
    const pages = plan.requests.filter((r) => r.startsWith("GET /v1/topics?"));
    expect(pages.length).toBe(TOPICS / 10);
    expect(new Set(pages).size).toBe(TOPICS / 10);
    expect(plan.requests.length).toBe(1 + TOPICS / 10);
    expect(JSON.parse(plan.stdout).summary).toMatchObject({ unchanged: TOPICS, unmanaged: 0 });
  });

  it("asks for the pages a large config fills with the first page, not after its answer, and each once", async () => {
    const topics = Array.from({ length: TOPICS }, (_, i) => `  - { key: ${topicKey(i)}, name: Topic ${i} }`);
    const test = await cliTest({
      seedFile: null,
      seed: SEED,
      config: `version: 1\norganization: Big Inc\ntopics:\n${topics.join("\n")}\n`,
    });
    // A round trip long enough that "before page 0's answer" cannot happen by chance.
    test.emulator.setFaults({ latencyMs: 150 });
    test.emulator.clearRequests();
    const plan = await test.run(["plan", "--output", "json", "--concurrency", "8"]);
    expect(plan.code, plan.stderr).toBe(0);
    const pages = test.emulator.requests.filter((r) => r.path.startsWith("/v1/topics?"));
    const page = (n: number) => pages.find((r) => r.path === `/v1/topics?page=${n}&pageSize=10`);
    const first = page(0);
    expect(first?.durationMs).toBeDefined();
    const answered = (first?.at ?? 0) + (first?.durationMs ?? 0);
    // Half the concurrency limit besides the first (the other kinds' first pages leave too).
    for (const n of [1, 2, 3, 4]) expect(page(n)?.at, `page ${n}`).toBeLessThan(answered);
    expect(page(5)?.at).toBeGreaterThanOrEqual(answered);
    // Taken by the list's read, not asked for again.
    expect(pages.length).toBe(TOPICS / 10);
    expect(new Set(pages.map((r) => r.path)).size).toBe(TOPICS / 10);
    expect(JSON.parse(plan.stdout).summary).toMatchObject({ unchanged: TOPICS, unmanaged: 0 });
  });

  it("a first plan of a large config costs those early pages at most: they come back empty", async () => {
    const topics = Array.from({ length: TOPICS }, (_, i) => `  - { key: fresh-${i}, name: Fresh ${i} }`);
    const empty = bigOrganization(0);
    const test = await cliTest({
      seedFile: null,
      seed: empty,
      config: `version: 1\norganization: Big Inc\ntopics:\n${topics.join("\n")}\n`,
    });
    test.emulator.clearRequests();
    const plan = await test.run(["plan", "--output", "json", "--concurrency", "8"]);
    expect(plan.code, plan.stderr).toBe(0);
    const pages = test.emulator.requests.filter((r) => r.path.startsWith("/v1/topics?")).map((r) => r.path);
    // The first page (its total is 0), and the four read with it: nothing else of the list.
    expect(pages.sort()).toEqual([0, 1, 2, 3, 4].map((n) => `/v1/topics?page=${n}&pageSize=10`));
    expect(JSON.parse(plan.stdout).summary).toMatchObject({ create: TOPICS });
  });

  it("a config that fails to load reports its error, whatever was read meanwhile", async () => {
    const cli = await session(`${TOPICS_CONFIG}  - { key: bad key, name: Bad }\n`);
    const plan = await cli("plan");
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain("notiform.yaml:");
    expect(plan.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(plan.requests.every((r) => r.startsWith("GET "))).toBe(true);
  });
});
