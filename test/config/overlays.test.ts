// Environment overlays (issue 13, item 5): an overlay entry matches a base entry by its identity
// and gives only the fields it changes; null makes a base field unmanaged in that environment;
// fields the schema requires are checked after layering, naming the environment; `validate`
// without --env checks the base and every environment layered over it.
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/errors.js";
import { loadConfig } from "../../src/loader/index.js";
import { validateConfig } from "../../src/loader/validate-config.js";
import { createWorkspace, runCli } from "../support/cli.js";

const ROOT = `version: 1
environments:
  development:
    include: [dev.yaml]
  production:
    include: [prod.yaml]
topics:
  - key: orders
    name: Orders
workflows:
  - identifier: order-shipped
    name: Order shipped
    active: true
    preferenceSettings: { sms: true, email: true }
`;

async function load(files: Record<string, string>, env?: string) {
  const ws = await createWorkspace({ "notiform.yaml": ROOT, ...files });
  return loadConfig({ cwd: ws.dir, vars: {}, ...(env !== undefined ? { env } : {}) });
}

describe("environment overlays", () => {
  it("match base entries by identity and give only the fields they change", async () => {
    const { desired } = await load(
      {
        "dev.yaml":
          "topics:\n  - key: orders\nworkflows:\n  - identifier: order-shipped\n    id: 64f1c0ffee0000000000a001\n    preferenceSettings: { sms: false }\n",
        "prod.yaml": "",
      },
      "development",
    );
    expect(desired.resources.topic.map((t) => t.spec)).toEqual([{ key: "orders", name: "Orders" }]);
    expect(desired.resources.workflow[0]?.spec).toEqual({
      key: "order-shipped",
      identifier: "order-shipped",
      id: "64f1c0ffee0000000000a001",
      name: "Order shipped",
      active: true,
      preferenceSettings: { sms: false, email: true },
    });
    // The overlay's field points at the overlay; the others still at the base.
    expect(desired.resources.workflow[0]?.source.fields.id?.file).toBe("dev.yaml");
    expect(desired.resources.workflow[0]?.source.fields.name?.file).toBe("notiform.yaml");
  });

  it("leave a field set to null unmanaged in that environment only", async () => {
    const files = {
      "dev.yaml": "",
      "prod.yaml":
        "workflows:\n  - identifier: order-shipped\n    active: null\n    preferenceSettings: { sms: null }\n",
    };
    const production = (await load(files, "production")).desired.resources.workflow[0]?.spec;
    expect(production).toEqual({
      key: "order-shipped",
      identifier: "order-shipped",
      name: "Order shipped",
      preferenceSettings: { email: true },
    });
    const development = (await load(files, "development")).desired.resources.workflow[0]?.spec;
    expect(development?.active).toBe(true);
  });

  it("still need every required field after layering, and a base file may not use null", async () => {
    const error = await load(
      { "dev.yaml": "topics:\n  - key: new-topic\n", "prod.yaml": "" },
      "development",
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toMatchObject([
      {
        message: 'topic "new-topic": missing required field "name"',
        pos: { file: "dev.yaml", line: 2, col: 5 },
      },
    ]);
    const ws = await createWorkspace({
      "notiform.yaml": "version: 1\ntopics:\n  - key: a\n    name: null\n",
    });
    const base = await loadConfig({ cwd: ws.dir, vars: {} }).catch((e: unknown) => e);
    expect((base as ConfigError).problems[0]?.message).toBe("topics[0].name: must be a string, got nothing");
  });

  it("are all checked by validate without --env, each problem naming its environment", async () => {
    const ws = await createWorkspace({
      "notiform.yaml": ROOT,
      "dev.yaml": "overrides:\n  - workflow: no-such-workflow\n    tenant: acme\n",
      "prod.yaml": "topics:\n  - key: status\n",
    });
    const result = await validateConfig({ cwd: ws.dir, vars: {}, allEnvironments: true });
    expect(result.valid).toBe(false);
    const messages = result.problems.map((p) => `${p.pos.file}:${p.pos.line} ${p.message}`);
    expect(messages).toHaveLength(2);
    expect(messages[0]).toMatch(
      /^dev\.yaml:2 override names workflow "no-such-workflow".*\(environment development\)$/,
    );
    expect(messages[1]).toBe(
      'prod.yaml:2 topic "status" (environment production): missing required field "name"',
    );

    const cli = await runCli(["validate"], { cwd: ws.dir });
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain("(environment production)");
    expect(cli.stderr).toContain("2 errors");
  });

  it("leave a field set to null unmanaged also when its value is one of a list (an enum, a constant)", async () => {
    const ws = await createWorkspace({
      "notiform.yaml":
        'version: 1\nenvironments:\n  stage:\n    include: [stage.yaml]\nbranding:\n  color: "#000000"\n  direction: rtl\nlayouts:\n  - identifier: brand\n    contentType: customHtml\n',
      "stage.yaml": "branding:\n  direction: null\nlayouts:\n  - identifier: brand\n    contentType: null\n",
    });
    const { desired } = await loadConfig({ cwd: ws.dir, vars: {}, env: "stage" });
    expect(desired.resources.branding[0]?.spec).toEqual({ color: "#000000" });
    expect(desired.resources.layout[0]?.spec).toEqual({ identifier: "brand" });
  });

  it("refuse a null inside a field: only a field, or a channel, is left unmanaged", async () => {
    const result = await validateConfig({
      cwd: (
        await createWorkspace({
          "notiform.yaml": ROOT,
          "dev.yaml":
            "workflows:\n  - identifier: order-shipped\n    steps:\n      - name: null\n        type: sms\n        template: { content: null }\n",
          "prod.yaml": "",
        })
      ).dir,
      vars: {},
      env: "development",
    });
    expect(result.problems.map((p) => [`${p.pos.file}:${p.pos.line}`, p.field, p.message])).toEqual([
      [
        "dev.yaml:4",
        "workflows[0].steps[0].name",
        "workflows[0].steps[0].name: must be a string, got nothing",
      ],
      [
        "dev.yaml:6",
        "workflows[0].steps[0].template.content",
        expect.stringMatching(/^workflows\[0\]\.steps\[0\]\.template\.content: /),
      ],
    ]);
  });
});
