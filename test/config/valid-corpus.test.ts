// The good-input corpus: every directory under test/fixtures/valid/ loads, with exactly the
// resources counted in expected.json and exactly the warnings listed there.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/loader/index.js";

const ROOT = join(import.meta.dirname, "..", "fixtures", "valid");

interface Expected {
  args?: string[];
  env?: Record<string, string>;
  summary: {
    files: number;
    topics: number;
    notificationGroups: number;
    workflows: number;
    overrides: number;
  };
  warnings: { file: string; line: number; col: number; severity: string; message: string }[];
}

function optionsFor(name: string) {
  const dir = join(ROOT, name);
  const expected = JSON.parse(readFileSync(join(dir, "expected.json"), "utf8")) as Expected;
  const env = expected.args?.[0] === "--env" ? expected.args[1] : undefined;
  return { expected, options: { cwd: dir, vars: expected.env ?? {}, ...(env !== undefined ? { env } : {}) } };
}

describe("valid configs", () => {
  it.each(readdirSync(ROOT).sort())("%s loads with the expected resources and warnings", async (name) => {
    const { expected, options } = optionsFor(name);
    const { desired, warnings } = await loadConfig(options);
    expect({
      files: desired.files.length,
      topics: desired.resources.topic.length,
      notificationGroups: desired.resources.notificationGroup.length,
      workflows: desired.resources.workflow.length,
      overrides: desired.resources.override.length,
    }).toEqual(expected.summary);
    expect(warnings.map((w) => ({ ...w.pos, severity: w.severity, message: w.message }))).toEqual(
      expected.warnings,
    );
    expect((await loadConfig(options)).desired.digest).toBe(desired.digest);
  });

  it("resolves anchors, aliases, flow mappings and quoted ids in one file", async () => {
    const { desired } = await loadConfig(optionsFor("single-file").options);
    const quiet = { email: true, sms: false, in_app: true, chat: false, push: false };
    expect(desired.organization).toBe("Acme Inc");
    expect(desired.resources.topic[1]?.spec).toEqual({ key: "news:monthly", name: "Monthly newsletter" });
    expect(desired.resources.workflow[0]?.spec.data).toEqual({ team: "fulfilment", priority: 2 });
    expect(desired.resources.override.map((o) => o.spec)).toEqual([
      {
        workflow: "order-shipped",
        tenant: "650000000000000000000001",
        active: true,
        preferenceSettings: quiet,
      },
      { workflow: "64F1C0FFEE0000000000B002", tenant: "650000000000000000000002" },
    ]);
  });

  it("layers the production files over the base and takes the environment's settings", async () => {
    const { desired } = await loadConfig(optionsFor("environments").options);
    expect(desired).toMatchObject({
      organization: "Acme Inc",
      environment: "production",
      apiUrl: "https://api.novu.co",
      apiKeyEnv: "NOTIFORM_API_KEY_PRODUCTION",
    });
    expect(desired.resources.topic.map((t) => t.spec)).toEqual([
      { key: "order-updates", name: "Order updates" },
      { key: "production-only", name: "Production only" },
    ]);
    expect(desired.resources.workflow[0]?.spec).toEqual({
      key: "order-shipped",
      id: "64f1c0ffee0000000000c001",
      active: true,
    });
    expect(desired.resources.workflow[0]?.source.fields.id?.file).toBe("env/production/overrides.yaml");
    expect(desired.sensitive).toEqual(["prod"]);
  });
});
