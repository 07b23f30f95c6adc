// `notiform validate` as data and as text: what validateConfig returns for valid and invalid
// configs, and exactly what the command prints from it (stdout, stderr, JSON), masked.
import { describe, expect, it } from "vitest";
import { renderValidateJson, renderValidateText, validateConfig } from "../../src/loader/validate-config.js";
import { Masker } from "../../src/mask.js";
import { createWorkspace } from "../support/cli.js";

const W1 = "64f1c0ffee0000000000a001";

describe("validateConfig", () => {
  // Found by test/config/arrangement-equivalence.test.ts: one mistake in one file is one error.
  const ref = (name: string) => `\${${name}}`;
  const oneError = async (files: Record<string, string>) => {
    const result = await validateConfig({ cwd: (await createWorkspace(files)).dir, vars: {} });
    return result.problems.map((p) => [
      `${p.pos.file}:${p.pos.line}:${p.pos.col}`,
      p.rule,
      p.field,
      p.message,
    ]);
  };

  // biome-ignore lint/suspicious/noTemplateCurlyInString: ${...} is the config's interpolation syntax, on purpose.
  it("tells an unset ${VAR} once, naming its field, not again as the raw text the schema refuses", async () => {
    expect(
      await oneError({
        "notiform.yaml": `version: 1\ntopics:\n  - key: ${ref("TOPIC_KEY")}\n    name: Orders\n`,
      }),
    ).toEqual([
      [
        "notiform.yaml:3:10",
        "interpolation",
        "topics[0].key",
        `environment variable TOPIC_KEY is not set and has no default (write ${ref("TOPIC_KEY:-default")} to give one)`,
      ],
    ]);
  });

  it("says in plain words what an empty branding and a { file } with company lack, not the validator's", async () => {
    expect(
      await oneError({
        "notiform.yaml": `version: 1
branding: {}
workflows:
  - identifier: w
    name: W
    preview: { file: example.json, payload: {} }
    steps: []
`,
        "example.json": "{}",
      }),
    ).toEqual([
      ["notiform.yaml:2:11", "schema", "branding", "branding: must set at least 1 field, got none"],
      [
        "notiform.yaml:6:14",
        "schema",
        "workflows[0].preview",
        'workflows[0].preview: with "file" nothing else may be given (the rest belongs in that file)',
      ],
    ]);
  });

  // biome-ignore lint/suspicious/noTemplateCurlyInString: ${...} is the config's interpolation syntax, on purpose.
  it("tells an unset ${VAR} in an include pattern once, not again as a pattern that matches no file", async () => {
    for (const include of [`"${ref("NF_PARTS")}/*.yaml"`, `["${ref("NF_PARTS")}/*.yaml"]`]) {
      const problems = await oneError({ "notiform.yaml": `version: 1\ninclude: ${include}\n` });
      expect(problems.map(([, rule]) => rule)).toEqual(["interpolation"]);
    }
  });

  it("does not call an entry missing when its required field was refused, in another file", async () => {
    expect(
      await oneError({
        "notiform.yaml":
          "version: 1\ninclude: groups.yaml\nworkflows:\n  - identifier: w\n    notificationGroup: billing\n",
        "groups.yaml": "notificationGroups:\n  - key: billing\n    name: [Billing]\n",
      }),
    ).toEqual([
      [
        "groups.yaml:3:11",
        "schema",
        "notificationGroups[0].name",
        "notificationGroups[0].name: must be a string, got a list",
      ],
    ]);
  });

  it("does not call a reference missing when an entry's identity could not be read", async () => {
    const files = {
      "notiform.yaml":
        "version: 1\ninclude: groups.yaml\nworkflows:\n  - identifier: w\n    notificationGroup: billing\n",
    };
    expect(
      await oneError({
        ...files,
        "groups.yaml": `notificationGroups:\n  - key: ${ref("GROUP_KEY")}\n    name: Billing\n`,
      }),
    ).toEqual([
      [
        "groups.yaml:2:10",
        "interpolation",
        "notificationGroups[0].key",
        `environment variable GROUP_KEY is not set and has no default (write ${ref("GROUP_KEY:-default")} to give one)`,
      ],
    ]);
    expect(
      await oneError({
        ...files,
        "groups.yaml": "notificationGroups:\n  - key: [billing]\n    name: Billing\n",
      }),
    ).toEqual([
      [
        "groups.yaml:2:10",
        "schema",
        "notificationGroups[0].key",
        "notificationGroups[0].key: must be a string, got a list",
      ],
    ]);
  });

  it("tells an unset variable in a template file's path once, not also as a file that does not exist", async () => {
    expect(
      await oneError({
        "notiform.yaml": `version: 1\nlayouts:\n  - identifier: a\n    content: { file: "${ref("LAYOUT_FILE")}" }\n`,
      }),
    ).toEqual([
      [
        "notiform.yaml:4:22",
        "interpolation",
        "layouts[0].content.file",
        `environment variable LAYOUT_FILE is not set and has no default (write ${ref("LAYOUT_FILE:-default")} to give one)`,
      ],
    ]);
  });

  it("calls a reference missing also when an included file is empty", async () => {
    expect(
      await oneError({
        "notiform.yaml": "version: 1\ninclude: [a.yaml, b.yaml]\n",
        "a.yaml": "",
        "b.yaml": "workflows:\n  - identifier: w\n    notificationGroup: missing-group\n",
      }),
    ).toEqual([
      [
        "b.yaml:3:24",
        "unknown-reference",
        undefined,
        'workflow "w" names notification group "missing-group", which is not a notificationGroups key of this config',
      ],
    ]);
  });

  it("counts the resources of a valid config and prints warnings on stderr", async () => {
    const ws = await createWorkspace({
      "notiform.yaml": `version: 1\ninclude: [more.yaml, none/*.yaml]\ntopics:\n  - key: a\n    name: A\nworkflows:\n  - key: w\n    id: ${W1}\n`,
      "more.yaml":
        "notificationGroups:\n  - key: g\n    name: G\noverrides:\n  - workflow: w\n    tenant: 650000000000000000000001\n",
    });
    const result = await validateConfig({ cwd: ws.dir, vars: {} });
    expect(result.valid).toBe(true);
    expect(result.summary).toEqual({
      files: 2,
      branding: 0,
      topics: 1,
      tenants: 0,
      layouts: 0,
      notificationGroups: 1,
      workflows: 1,
      overrides: 1,
    });
    expect(renderValidateText(result)).toEqual({
      out: "2 files valid: 1 notification group, 1 topic, 0 tenants, 0 layouts, 1 workflow, 1 workflow override\n",
      err: 'notiform.yaml:2:22  warning  include "none/*.yaml" matches no file\n',
    });
    expect(JSON.parse(renderValidateJson(result))).toEqual({
      valid: true,
      problems: [
        {
          severity: "warning",
          rule: "include-empty",
          message: 'include "none/*.yaml" matches no file',
          file: "notiform.yaml",
          line: 2,
          col: 22,
          field: null,
        },
      ],
      summary: {
        files: 2,
        branding: 0,
        topics: 1,
        tenants: 0,
        layouts: 0,
        notificationGroups: 1,
        workflows: 1,
        overrides: 1,
      },
    });
  });

  it("says '1 file' for a single file and prints nothing on stderr", async () => {
    const ws = await createWorkspace({ "notiform.yaml": "version: 1\n" });
    expect(renderValidateText(await validateConfig({ cwd: ws.dir, vars: {} }))).toEqual({
      out: "1 file valid: 0 notification groups, 0 topics, 0 tenants, 0 layouts, 0 workflows, 0 workflow overrides\n",
      err: "",
    });
  });

  it("without --env, counts each environment's entries too, not only the base's", async () => {
    // The summary counted only the base: a topic that only production's overlay adds went uncounted.
    const ws = await createWorkspace({
      "notiform.yaml":
        "version: 1\ntopics:\n  - { key: a, name: A }\nenvironments:\n  development: { apiKeyEnv: NOTIFORM_DEV }\n  production:\n    apiKeyEnv: NOTIFORM_PROD\n    include: [prod.yaml]\n",
      "prod.yaml": "topics:\n  - { key: b, name: B }\n  - { key: a, name: A in production }\n",
    });
    const all = await validateConfig({ cwd: ws.dir, vars: {}, allEnvironments: true });
    expect(all.summary).toMatchObject({ files: 2, topics: 1 });
    expect(all.environments).toEqual({
      development: expect.objectContaining({ topics: 1, workflows: 0 }),
      production: expect.objectContaining({ topics: 2, workflows: 0 }),
    });
    expect(renderValidateText(all).out).toBe(
      [
        "2 files valid: the base: 0 notification groups, 1 topic, 0 tenants, 0 layouts, 0 workflows, 0 workflow overrides",
        "environment development: 0 notification groups, 1 topic, 0 tenants, 0 layouts, 0 workflows, 0 workflow overrides",
        "environment production: 0 notification groups, 2 topics, 0 tenants, 0 layouts, 0 workflows, 0 workflow overrides",
        "",
      ].join("\n"),
    );
    expect(JSON.parse(renderValidateJson(all)).environments.production.topics).toBe(2);
    // One environment selected: its entries are the summary, and nothing more is listed.
    const production = await validateConfig({ cwd: ws.dir, vars: {}, env: "production" });
    expect(production.summary).toMatchObject({ topics: 2 });
    expect(production.environments).toBeUndefined();
    expect(JSON.parse(renderValidateJson(production))).not.toHaveProperty("environments");
  });

  it("lists every problem of every file, sorted by file, line and column, and counts only errors", async () => {
    const ws = await createWorkspace({
      "notiform.yaml": `version: 1\ninclude: [b.yaml, a.yaml, none.yaml]\nworkflows:\n  - key: w\n    id: nothex\n  - key: v\n    id: ${W1}\n    nmae: V\n`,
      "b.yaml": "topics:\n  - key: t\n",
      "a.yaml": "topics: {}\n",
    });
    const result = await validateConfig({ cwd: ws.dir, vars: {} });
    expect(result.valid).toBe(false);
    expect(result.summary).toBeNull();
    expect(renderValidateText(result)).toEqual({
      out: "",
      err: [
        "a.yaml:1:9  error  topics: must be a list, got a mapping",
        'b.yaml:2:5  error  topics[0]: missing required field "name"',
        'notiform.yaml:2:27  warning  include "none.yaml" matches no file',
        'notiform.yaml:5:9  error  workflows[0].id: must be a 24-character hex id, got "nothex"',
        'notiform.yaml:8:5  error  unknown property "nmae" in workflows[1] (did you mean "name"?)',
        "4 errors: the configuration is not valid",
        "",
      ].join("\n"),
    });
    const json = JSON.parse(renderValidateJson(result)) as {
      problems: { field: string | null }[];
      summary: null;
    };
    expect(json.summary).toBeNull();
    expect(json.problems.map((p) => p.field)).toEqual([
      "topics",
      "topics[0]",
      null,
      "workflows[0].id",
      "workflows[1].nmae",
    ]);
  });

  it("hands back the values from the environment, so the command can mask them even in a failure", async () => {
    const ws = await createWorkspace({
      // biome-ignore lint/suspicious/noTemplateCurlyInString: ${...} is the config's interpolation syntax, on purpose.
      "notiform.yaml": "version: 1\ntopics:\n  - key: ${TOPIC_KEY}\n    name: ${TOPIC_NAME}\n",
    });
    const result = await validateConfig({
      cwd: ws.dir,
      vars: { TOPIC_KEY: "not a key!", TOPIC_NAME: "Private Name" },
    });
    expect(result.sensitive.sort()).toEqual(["Private Name", "not a key!"]);
    const masker = new Masker().add(...result.sensitive);
    const text = masker.mask(renderValidateText(result).err);
    expect(text).toContain(
      "topics[0].key: a key, identifier or reference to one cannot come from the environment (${TOPIC_KEY})",
    );
    expect(text).not.toContain("not a key!");
    const json = masker.mask(renderValidateJson(result));
    expect(JSON.parse(json).valid).toBe(false);
  });

  it("refuses a key, identifier or reference from the environment, once, at its field; a default or a name may", async () => {
    // The state file, every plan's action ids and exported file names hold them as they are:
    // no value from the environment may be written there (found by secrets-any-form.test.ts).
    const yaml = [
      "version: 1",
      "notificationGroups:",
      "  - { key: '${K1}', name: G }",
      "topics:",
      "  - { key: '${K2}', name: T }",
      "tenants:",
      "  - { identifier: '${K3}', name: N }",
      "layouts:",
      "  - { identifier: '${K4}', content: '{{{body}}}' }",
      "workflows:",
      "  - identifier: '${K5}'",
      "    key: '${K6}'",
      "    name: W ${NAME}",
      "    notificationGroup: '${K7}'",
      "    steps: [{ name: s, type: email, template: { subject: s, content: c, layout: '${K8}' } }]",
      "overrides:",
      "  - { workflow: '${K9}', tenant: '${K10}' }",
      "",
    ].join("\n");
    // Each reference names its entry: K7 the group K1, K8 the layout K4, K9 the workflow K6, K10 the tenant K3.
    const vars: Record<string, string> = Object.fromEntries(
      [...Array(6)].map((_, i) => [`K${i + 1}`, `id-${i + 1}`]),
    );
    Object.assign(vars, { K7: "id-1", K8: "id-4", K9: "id-6", K10: "id-3" });
    const ws = await createWorkspace({ "notiform.yaml": yaml });
    const refused = await validateConfig({ cwd: ws.dir, vars: { ...vars, NAME: "Secret Name" } });
    expect(refused.problems.map((p) => [p.pos.line, p.field, p.message.replace(/ \(\$\{.*/s, "")])).toEqual([
      [
        3,
        "notificationGroups[0].key",
        "notificationGroups[0].key: a key, identifier or reference to one cannot come from the environment",
      ],
      [
        5,
        "topics[0].key",
        "topics[0].key: a key, identifier or reference to one cannot come from the environment",
      ],
      [
        7,
        "tenants[0].identifier",
        "tenants[0].identifier: a key, identifier or reference to one cannot come from the environment",
      ],
      [
        9,
        "layouts[0].identifier",
        "layouts[0].identifier: a key, identifier or reference to one cannot come from the environment",
      ],
      [
        11,
        "workflows[0].identifier",
        "workflows[0].identifier: a key, identifier or reference to one cannot come from the environment",
      ],
      [
        12,
        "workflows[0].key",
        "workflows[0].key: a key, identifier or reference to one cannot come from the environment",
      ],
      [
        14,
        "workflows[0].notificationGroup",
        "workflows[0].notificationGroup: a key, identifier or reference to one cannot come from the environment",
      ],
      [
        15,
        "workflows[0].steps[0].template.layout",
        "workflows[0].steps[0].template.layout: a key, identifier or reference to one cannot come from the environment",
      ],
      [
        17,
        "overrides[0].workflow",
        "overrides[0].workflow: a key, identifier or reference to one cannot come from the environment",
      ],
      [
        17,
        "overrides[0].tenant",
        "overrides[0].tenant: a key, identifier or reference to one cannot come from the environment",
      ],
    ]);
    // Unset, each default is plain text from the file: the same config is valid.
    const defaults = yaml.replace(/\$\{(K\d+)\}/g, (_, name: string) => `\${${name}:-${vars[name]}}`);
    await ws.write("notiform.yaml", defaults);
    const valid = await validateConfig({ cwd: ws.dir, vars: { NAME: "Secret Name" } });
    expect(valid.problems).toEqual([]);
    expect(valid.sensitive).toEqual(["Secret Name"]);
  });

  it("still fails with the missing file's name when there is no root file", async () => {
    const ws = await createWorkspace({});
    await expect(validateConfig({ cwd: ws.dir, vars: {} })).rejects.toMatchObject({
      code: "CONFIG_NOT_FOUND",
    });
  });
});
