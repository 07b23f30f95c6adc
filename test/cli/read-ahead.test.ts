// A plan loads its config while the live reads start (src/loader/load-beside.ts,
// src/kinds/read-live.ts startReadAhead): a large one on a worker thread, a small one that
// includes nothing on the main thread. As processes over HTTP against the emulator: which
// thread a config loads on, that what crosses back from the worker is what the same load on the
// main thread gives (problems with their file, line and field; values from the environment
// masked), and that the reads started before the config is known obey what the config would:
// Development-only kinds are not read with a Production key, and a config that fails costs no
// read of a kind it does not hold.
import { describe, expect, it } from "vitest";
import { IN_THREAD_MAX_BYTES } from "../../src/loader/load-beside.js";
import { cliTests } from "../support/cli.js";

const cliTest = cliTests();

async function setup(config: string) {
  const { emulator: handle, run } = await cliTest({ config, env: () => ({}) });
  const cli = (args: string[], env: Record<string, string>) => run(args, { env });
  return { handle, cli };
}

const OVERRIDES = `version: 1
organization: Acme Inc
workflows:
  - identifier: order-shipped
overrides:
  - workflow: order-shipped
    tenant: tenant-one
    active: true
`;

/** Topics enough to take a config past IN_THREAD_MAX_BYTES (each entry is about 40 bytes). */
function paddingTopics(): string {
  const count = Math.ceil(IN_THREAD_MAX_BYTES / 30);
  return Array.from({ length: count }, (_, i) => `  - key: padding-${i}\n    name: Padding ${i}\n`).join("");
}

/** The thread --verbose's timing line says the config was loaded on. */
function loadedOn(stderr: string): string | undefined {
  return /config loaded (on a worker thread|in this thread)/.exec(stderr)?.[1];
}

describe("where a plan loads its config", () => {
  const small = "version: 1\norganization: Acme Inc\ntopics:\n  - key: one\n    name: One\n";

  it("a small root file that includes nothing loads in this thread, with the same plan", async () => {
    const { handle, cli } = await setup(small);
    const plan = await cli(["plan", "--verbose", "--output", "json"], { NOTIFORM_API_KEY: handle.apiKey });
    expect(plan.code, plan.stderr).toBe(0);
    expect(loadedOn(plan.stderr)).toBe("in this thread");
    expect(JSON.parse(plan.stdout).actions.map((a: { id: string }) => a.id)).toEqual(["topic/one"]);
  });

  it("a root file past IN_THREAD_MAX_BYTES loads on a worker", async () => {
    const config = `${small}${paddingTopics()}`;
    expect(Buffer.byteLength(config)).toBeGreaterThan(IN_THREAD_MAX_BYTES);
    const { handle, cli } = await setup(config);
    const plan = await cli(["plan", "--verbose", "--output", "json"], { NOTIFORM_API_KEY: handle.apiKey });
    expect(plan.code, plan.stderr).toBe(0);
    expect(loadedOn(plan.stderr)).toBe("on a worker thread");
    expect(JSON.parse(plan.stdout).summary.create).toBe(1 + Math.ceil(IN_THREAD_MAX_BYTES / 30));
  });

  it("a small root file that includes others loads on a worker: what it includes may be large", async () => {
    const { emulator: handle, run } = await cliTest({
      config: "version: 1\norganization: Acme Inc\ninclude: [more/*.yaml]\n",
      files: { "more/topics.yaml": "topics:\n  - key: one\n    name: One\n" },
      env: () => ({}),
    });
    const plan = await run(["plan", "--verbose", "--output", "json"], {
      env: { NOTIFORM_API_KEY: handle.apiKey },
    });
    expect(plan.code, plan.stderr).toBe(0);
    expect(loadedOn(plan.stderr)).toBe("on a worker thread");
    expect(JSON.parse(plan.stdout).actions.map((a: { id: string }) => a.id)).toEqual(["topic/one"]);
  });
});

describe("reads started while the config loads", () => {
  it("with a Production key (no --env), Development-only overrides are not read at all", async () => {
    const { handle, cli } = await setup(OVERRIDES);
    const key = handle.productionApiKey;
    expect(key).toBeDefined();
    const plan = await cli(["plan", "--output", "json"], { NOTIFORM_API_KEY: key ?? "" });
    expect(plan.code, plan.stderr).toBe(0);
    const actions = JSON.parse(plan.stdout).actions as { id: string; op: string }[];
    expect(actions.find((a) => a.id === "override/order-shipped@tenant-one")?.op).toBe("not-applicable");
    expect(handle.requests.filter((r) => r.path.startsWith("/v1/workflow-overrides"))).toEqual([]);
    // The Development key reads them, from the first page (the same plan, another environment).
    handle.clearRequests();
    const development = await cli(["plan", "--output", "json"], { NOTIFORM_API_KEY: handle.apiKey });
    expect(development.code, development.stderr).toBe(0);
    expect(handle.requests.map((r) => r.path)).toContain("/v1/workflow-overrides?page=0&limit=100");
  });

  it("a config larger than one part of the worker's answer arrives whole and in order", async () => {
    // 2,345 topics: three parts of the answer (load-worker.ts sends 1,000 entries a part).
    const keys = Array.from({ length: 2_345 }, (_, i) => `topic-${String(i).padStart(4, "0")}`);
    const config = `version: 1\norganization: Acme Inc\ntopics:\n${keys.map((key) => `  - key: ${key}\n    name: T ${key}\n`).join("")}`;
    const { handle, cli } = await setup(config);
    const plan = await cli(["plan", "--output", "json"], { NOTIFORM_API_KEY: handle.apiKey });
    expect(plan.code, plan.stderr).toBe(0);
    const planned = JSON.parse(plan.stdout);
    expect(planned.summary.create).toBe(keys.length);
    expect(planned.actions.map((a: { id: string }) => a.id)).toEqual(keys.map((key) => `topic/${key}`));
    // Each entry keeps its own source position (packed on the worker, unpacked here): the parts
    // were joined in order.
    expect(planned.actions.map((a: { source?: unknown }) => a.source)).toEqual(
      keys.map((_, i) => ({ file: "notiform.yaml", line: 3 + 2 * i + 1, col: 5 })),
    );
  });

  it.each([
    ["in this thread", ""],
    ["on a worker", paddingTopics()],
  ])(
    "a config error found %s is reported alike: file, line, field, masked value, exit 1",
    async (where, padding) => {
      const secret = "s3cret value";
      const config =
        [
          "version: 1",
          "organization: Acme Inc",
          "topics:",
          "  - key: fine",
          "    name: Fine",
          // biome-ignore lint/suspicious/noTemplateCurlyInString: a config interpolation, not a template.
          "  - key: ${TOPIC_KEY}",
          "    name: Bad",
          "",
        ].join("\n") + padding;
      expect(Buffer.byteLength(config) > IN_THREAD_MAX_BYTES).toBe(where === "on a worker");
      const { handle, cli } = await setup(config);
      const env = { NOTIFORM_API_KEY: handle.apiKey, TOPIC_KEY: secret };
      const text = await cli(["plan"], env);
      expect(text.code).toBe(1);
      expect(text.stderr).toMatch(/notiform\.yaml:6:\d+/);
      expect(text.stderr).toContain("key");
      expect(text.stdout + text.stderr).not.toContain(secret);
      expect(text.stderr).not.toMatch(/\n\s+at /);

      const json = await cli(["plan", "--output", "json"], env);
      expect(json.code).toBe(1);
      // The error report is the JSON document on stdout (schemas/error.schema.json).
      const report = JSON.parse(json.stdout);
      expect(report.error?.code).toBe("CONFIG_INVALID");
      expect(report.error?.problems?.[0]?.location).toMatchObject({ file: "notiform.yaml", line: 6 });
      expect(json.stdout + json.stderr).not.toContain(secret);
      // The config holds only topics: nothing else was read while it loaded.
      expect(
        handle.requests.filter(
          (r) => !r.path.startsWith("/v1/topics") && !/^\/v1\/(organizations|environments)\/me/.test(r.path),
        ),
      ).toEqual([]);
    },
  );
});
