// Seeds: files in YAML or JSON checked against their schema and for references, every problem
// naming the seed and the field; seed objects combined with files; generated bulk data; and the
// same seed with the same clock giving the same data.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSeedFile, type Seed, startEmulator } from "../../src/emulator/index.js";
import { SEED, start, stop, T1, W1, W3 } from "./harness.js";

async function seedFile(name: string, text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "notiform-seed-"));
  const file = join(dir, name);
  await writeFile(file, text);
  return file;
}

async function problemOf(file: string): Promise<string> {
  try {
    await loadSeedFile(file);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("the seed was accepted");
}

describe("seed files", () => {
  it("reads the bundled YAML seed", async () => {
    const seed = await loadSeedFile(SEED);
    expect(seed.organization?.name).toBe("Acme Inc");
    expect(seed.apiKeys?.map((k) => k.environment)).toEqual(["development", "production"]);
    expect(seed.environments?.production?.workflows).toHaveLength(3);
  });

  it("reads JSON seeds", async () => {
    const file = await seedFile("seed.json", JSON.stringify({ organization: { name: "Json Co" } }));
    expect((await loadSeedFile(file)).organization?.name).toBe("Json Co");
  });

  it("names the file and the line's problem for broken YAML", async () => {
    const file = await seedFile("seed.yaml", "organization: [unclosed\n");
    const message = await problemOf(file);
    expect(message).toContain(`the emulator seed ${file} is not valid YAML`);
  });

  it("names the file and each field that breaks the schema", async () => {
    const file = await seedFile(
      "seed.yaml",
      [
        "apiKeys:",
        "  - { key: nf_key_1, environment: staging }",
        "colour: blue",
        "environments:",
        "  development:",
        "    workflows:",
        "      - { _id: not-hex, name: W }",
        "    topics:",
        "      - { name: No key }",
      ].join("\n"),
    );
    const message = await problemOf(file);
    expect(message).toContain(`the emulator seed ${file} is not valid:`);
    expect(message).toContain('apiKeys[0].environment: must be one of "development", "production"');
    expect(message).toContain('(top level): unknown field "colour"');
    expect(message).toContain("environments.development.workflows[0]._id: must be a 24-character hex id");
    expect(message).toContain('environments.development.topics[0]: missing field "key"');
  });

  it("refuses references to records the environment does not have, and duplicates", async () => {
    const file = await seedFile(
      "seed.yaml",
      [
        "apiKeys:",
        "  - { key: nf_key_1, environment: development }",
        "  - { key: nf_key_1, environment: production }",
        "environments:",
        "  production:",
        `    workflows: [{ _id: "${W1}", name: A, notificationGroup: Billing }, { _id: "${W1}", name: B }]`,
        `    overrides: [{ workflowId: "${W1}", tenantId: "${T1}" }]`,
      ].join("\n"),
    );
    const message = await problemOf(file);
    expect(message).toContain("apiKeys[1].key: the same key is listed twice");
    expect(message).toContain(`environments.production.workflows[1]: workflow id ${W1} is listed twice`);
    expect(message).toContain(
      'environments.production.workflows[0].notificationGroup: no notification group named "Billing"',
    );
    expect(message).toContain(`environments.production.overrides[0].tenantId: no tenant ${T1} in production`);
    expect(message).not.toContain("nf_key_1 ");
  });

  it("fails to start on a seed file that cannot be read, naming it", async () => {
    await expect(startEmulator({ seedFile: "no/such/seed.yaml" })).rejects.toThrow(
      "the emulator seed no/such/seed.yaml cannot be read",
    );
  });
});

describe("seed objects", () => {
  it("win per section over the seed file, and may reference the file's records", async () => {
    const seed: Seed = {
      environments: {
        development: {
          topics: [{ key: "only-this", name: "Only this" }],
          overrides: [{ workflowId: W1, tenantId: T1, active: true }],
        },
      },
    };
    const { handle } = await start({ seed });
    const store = handle.store();
    expect(store.topics.map((t) => t.key)).toEqual(["only-this"]);
    expect(store.workflows).toHaveLength(3);
    expect(store.overrides).toMatchObject([{ _workflowId: W1, _tenantId: T1, active: true }]);
  });

  it("are checked too, named as the seed option", async () => {
    const seed = { apiKeys: [{ key: "x", environment: "development" }] } as Seed;
    await expect(startEmulator({ seed })).rejects.toThrow(
      "the emulator seed (seed option) is not valid:\n  - apiKeys[0].key: must NOT have fewer than 4 characters",
    );
  });

  it("start a usable emulator without any seed", async () => {
    const handle = await startEmulator();
    try {
      const response = await fetch(`${handle.url}/v1/notification-groups`, {
        headers: { authorization: `ApiKey ${handle.apiKey}` },
      });
      expect(await response.json()).toMatchObject({ data: [{ name: "General" }] });
      expect(handle.productionApiKey).toBeUndefined();
    } finally {
      await handle.close();
    }
  });
});

describe("seeded workflow content", () => {
  it("is stored as a PUT with `steps` stores it: templates, their chain, trigger variables", async () => {
    const { handle } = await start();
    const development = handle.store("development");
    const digest = development.workflows.find((w) => w._id === W3);
    const [email, inApp] = digest?.steps ?? [];
    expect(digest?.steps.map((s) => [s.name, s.template?.type])).toEqual([
      ["digest-email", "email"],
      ["digest-in-app", "in_app"],
    ]);
    expect(email?.template).toMatchObject({ subject: "Your week at Acme", contentType: "customHtml" });
    expect(email?._templateId).toBe(email?.template?._id);
    // Made before the organization had layouts: on none, in either environment.
    expect(email?.template?._layoutId).toBeNull();
    expect(development.layouts?.some((l) => l.isDefault === true)).toBe(true);
    expect(inApp?._parentId).toBe(email?._templateId);
    expect(digest?.triggers[0]?.variables?.map((v) => v.name)).toEqual(["firstName"]);
  });

  it("in Production is the promoted copy: each template points at Development's of the same step", async () => {
    const { handle } = await start();
    const source = handle.store("development").workflows.find((w) => w._id === W3);
    const copy = handle.store("production").workflows.find((w) => w._parentId === W3);
    expect(copy?.steps.map((s) => s.template?._parentId)).toEqual(source?.steps.map((s) => s._templateId));
    expect(copy?.steps[0]?.template?._layoutId).toBeNull();
  });
});

describe("generated data and repeatability", () => {
  it("generates numbered topics, tenants and workflows that overrides may use", async () => {
    const seed: Seed = {
      environments: {
        production: {
          generate: { topics: 12, tenants: 3, workflows: 2 },
          overrides: [{ workflowId: "64f1c0ffef00000000000002", tenantId: "660000000000000000000003" }],
        },
      },
    };
    const { handle, call } = await start({ seed });
    const store = handle.store("production");
    expect(store.topics.map((t) => t.key).slice(0, 2)).toEqual(["topic-00001", "topic-00002"]);
    expect(store.topics.at(-1)?.key).toBe("topic-00012");
    // The file's own production tenants (2) and workflows (3) stay: the option replaced other sections only.
    expect(store.tenants.map((t) => t._id).slice(2)).toEqual([
      "660000000000000000000001",
      "660000000000000000000002",
      "660000000000000000000003",
    ]);
    expect(store.workflows.map((w) => w.name).slice(3)).toEqual(["Workflow 1", "Workflow 2"]);
    expect(store.overrides).toHaveLength(1);
    const page = await call("GET", "/v1/topics?page=1&pageSize=10", undefined, handle.productionApiKey);
    expect(page.body).toMatchObject({
      totalCount: 12,
      data: [{ key: "topic-00011" }, { key: "topic-00012" }],
    });
  });

  it("gives the same ids and timestamps for the same seed and clock", async () => {
    const now = () => new Date("2026-01-02T03:04:05.000Z");
    const run = async () => {
      const { handle, call } = await start({ now });
      await call("POST", "/v1/topics", { key: "new-topic", name: "New" });
      await call("POST", "/v1/notification-groups", { name: "Billing" });
      const state = await (await fetch(`${handle.url}/__emulator/state`)).text();
      await stop(handle);
      return state;
    };
    const first = await run();
    expect(first).toContain("2026-01-02T03:04:05.000Z");
    expect(await run()).toBe(first);
  });
});
