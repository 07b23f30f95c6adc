// The config pipeline's promises: positions for every field, includes relative to the including
// file, environment overlays field by field, ${VAR} interpolation with masking, a digest that
// ignores formatting and file layout, and warnings that do not fail the load.
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/loader/index.js";
import { createWorkspace } from "../support/cli.js";

const W1 = "64f1c0ffee0000000000a001";

describe("loadConfig", () => {
  it("keeps where every resource and field came from", async () => {
    const ws = await createWorkspace({
      "notiform.yaml": `version: 1\ntopics:\n  - key: a\n    name: A\noverrides:\n  - workflow: ${W1}\n    tenant: 650000000000000000000001\n    preferenceSettings: { sms: false }\n`,
    });
    const { desired } = await loadConfig({ cwd: ws.dir, vars: {} });
    expect(desired.resources.topic[0]?.source.pos).toEqual({ file: "notiform.yaml", line: 3, col: 5 });
    expect(desired.resources.topic[0]?.source.fields.name).toEqual({
      file: "notiform.yaml",
      line: 4,
      col: 11,
    });
    expect(desired.resources.override[0]?.source.fields["preferenceSettings.sms"]).toEqual({
      file: "notiform.yaml",
      line: 8,
      col: 32,
    });
  });

  it("reads unquoted all-digit ids as the text written, not as numbers", async () => {
    const ws = await createWorkspace({
      "notiform.yaml": `version: 1\noverrides:\n  - workflow: ${W1}\n    tenant: 650000000000000000000001\n`,
    });
    const { desired } = await loadConfig({ cwd: ws.dir, vars: {} });
    expect(desired.resources.override[0]?.spec.tenant).toBe("650000000000000000000001");
  });

  it("loads includes relative to the including file, nested, sorted, each file once", async () => {
    const ws = await createWorkspace({
      "notiform.yaml": "version: 1\ninclude: [teams/*.yaml, teams/b.yaml]\n",
      "teams/b.yaml": "include: nested/*.yaml\ntopics:\n  - key: b\n    name: B\n",
      "teams/a.yaml": "topics:\n  - key: a\n    name: A\n",
      "teams/nested/c.yaml": "topics:\n  - key: c\n    name: C\n",
    });
    const { desired } = await loadConfig({ cwd: ws.dir, vars: {} });
    expect(desired.resources.topic.map((t) => t.spec.key)).toEqual(["a", "b", "c"]);
    expect(desired.files.map((f) => f.slice(ws.dir.length + 1))).toEqual([
      "notiform.yaml",
      "teams/a.yaml",
      "teams/b.yaml",
      "teams/nested/c.yaml",
    ]);
    expect(desired.resources.topic[2]?.source.pos.file).toBe("teams/nested/c.yaml");
  });

  it("warns about an include that matches nothing, and still loads", async () => {
    const ws = await createWorkspace({ "notiform.yaml": "version: 1\ninclude:\n  - tenants/*.yaml\n" });
    const { warnings } = await loadConfig({ cwd: ws.dir, vars: {} });
    expect(warnings).toEqual([
      expect.objectContaining({
        severity: "warning",
        message: 'include "tenants/*.yaml" matches no file',
        pos: { file: "notiform.yaml", line: 3, col: 5 },
      }),
    ]);
  });

  it("layers the selected environment over the base, field by field", async () => {
    const ws = await createWorkspace({
      "notiform.yaml": `version: 1\norganization: Base Org\nenvironments:\n  dev:\n    organization: Dev Org\n    apiUrl: http://127.0.0.1:4010\n    apiKeyEnv: NOTIFORM_DEV_KEY\n    include: [dev/*.yaml]\ntopics:\n  - key: a\n    name: A\n  - key: b\n    name: B\noverrides:\n  - workflow: ${W1}\n    tenant: 650000000000000000000001\n    active: true\n    preferenceSettings: { email: false, sms: false }\n`,
      "dev/overlay.yaml": `topics:\n  - key: a\n    name: A (dev)\n  - key: dev-only\n    name: D\noverrides:\n  - workflow: ${W1}\n    tenant: 650000000000000000000001\n    preferenceSettings: { sms: true }\n`,
    });
    const { desired } = await loadConfig({ cwd: ws.dir, vars: {}, env: "dev" });
    expect(desired).toMatchObject({
      organization: "Dev Org",
      environment: "dev",
      apiUrl: "http://127.0.0.1:4010",
      apiKeyEnv: "NOTIFORM_DEV_KEY",
    });
    expect(desired.resources.topic.map((t) => [t.spec.key, t.spec.name])).toEqual([
      ["a", "A (dev)"],
      ["b", "B"],
      ["dev-only", "D"],
    ]);
    expect(desired.resources.override[0]?.spec).toEqual({
      workflow: W1,
      tenant: "650000000000000000000001",
      active: true,
      preferenceSettings: { email: false, sms: true },
    });
    expect(desired.resources.topic[0]?.source.fields.name?.file).toBe("dev/overlay.yaml");
    // Without --env there is no silent default: the choices are named.
    await expect(loadConfig({ cwd: ws.dir, vars: {} })).rejects.toMatchObject({
      code: "USAGE",
      message: "notiform.yaml defines environments (dev): choose one with --env",
    });
  });

  // biome-ignore lint/suspicious/noTemplateCurlyInString: the test is about literal ${...} references.
  it("interpolates ${VAR}, ${VAR:-default} and $${ escapes, remembering values from the environment", async () => {
    const ws = await createWorkspace({
      "notiform.yaml": `version: 1\norganization: \${ORG}\ntopics:\n  - key: a\n    name: \${NAME:-Fallback}\n  - key: b\n    name: "$\${literal}"\nworkflows:\n  - key: w\n    id: ${W1}\n    active: \${ACTIVE}\n`,
    });
    const { desired } = await loadConfig({ cwd: ws.dir, vars: { ORG: "Secret Org Name", ACTIVE: "false" } });
    expect(desired.organization).toBe("Secret Org Name");
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the escaped reference comes out literally.
    expect(desired.resources.topic.map((t) => t.spec.name)).toEqual(["Fallback", "${literal}"]);
    expect(desired.resources.workflow[0]?.spec.active).toBe(false);
    // "false" is not recorded: it hides nothing, and masking it would garble JSON output.
    expect(desired.sensitive).toEqual(["Secret Org Name"]);
  });

  it("gives the same digest whatever the formatting, comments, order or file layout", async () => {
    const one = await createWorkspace({
      "notiform.yaml": "version: 1\ntopics:\n  - key: a\n    name: A\n  - key: b\n    name: B\n",
    });
    const two = await createWorkspace({
      "notiform.yaml": "# comment\nversion: 1\ninclude: [more.yaml]\ntopics:\n  - { name: B, key: b }\n",
      "more.yaml": "topics:\n  - name: A   # trailing\n    key: a\n",
    });
    const three = await createWorkspace({
      "notiform.yaml": "version: 1\ntopics:\n  - key: a\n    name: A changed\n  - key: b\n    name: B\n",
    });
    const digest = async (dir: string) => (await loadConfig({ cwd: dir, vars: {} })).desired.digest;
    expect(await digest(one.dir)).toBe(await digest(two.dir));
    expect(await digest(one.dir)).not.toBe(await digest(three.dir));
    expect(await digest(one.dir)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("says which file is missing when the root file does not exist", async () => {
    const ws = await createWorkspace({});
    await expect(
      loadConfig({ cwd: ws.dir, vars: {}, configPath: "conf/notiform.yaml" }),
    ).rejects.toMatchObject({
      code: "CONFIG_NOT_FOUND",
      message: "config file conf/notiform.yaml not found",
    });
  });
});
