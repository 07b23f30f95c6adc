// `notiform export` and `notiform whoami` against the emulator: an export of a populated server
// validates and plans back to zero changes, is deterministic, and never overwrites unasked.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  ACME_BASE,
  cliTests,
  runCli,
  TENANT_1,
  TENANT_2,
  WORKFLOW_RESET,
  WORKFLOW_SHIPPED,
} from "../support/cli.js";

const POPULATE = `${ACME_BASE}workflows:
  - key: order-shipped
    id: ${WORKFLOW_SHIPPED}
    name: Order shipped
    notificationGroup: billing
    tags: [orders]
  - key: password-reset
    id: ${WORKFLOW_RESET}
    critical: true
    active: false
overrides:
  - workflow: order-shipped
    tenant: ${TENANT_1}
    active: true
    preferenceSettings: { sms: false }
  - workflow: password-reset
    tenant: ${TENANT_2}
`;

const cliTest = cliTests();

/** A server the config in source/ was applied to; commands then run beside source/. */
async function populated(options: { strictSpec?: boolean } = {}) {
  const test = await cliTest({ files: { "source/notiform.yaml": POPULATE }, ...options });
  const applied = await test.run(["apply", "--auto-approve"], { cwd: test.workspace.path("source") });
  expect(applied.code, applied.stderr).toBe(0);
  return { ...test, target: test.workspace, url: test.emulator.url };
}

async function readTree(dir: string): Promise<Record<string, string>> {
  const names = (await readdir(dir)).filter((n) => n.endsWith(".yaml")).sort();
  return Object.fromEntries(
    await Promise.all(names.map(async (n) => [n, await readFile(join(dir, n), "utf8")])),
  );
}

describe.each([
  ["with the observed extensions", false],
  ["on a spec-only server", true],
])("notiform export %s", (_label, strictSpec) => {
  it("exports files that validate and plan back to zero changes against the same server", async () => {
    const { target, cli } = await populated({ strictSpec });
    const exported = await cli("export", "--dir", "config");
    expect(exported.code, exported.stderr).toBe(0);
    const files = await readTree(target.path("config"));
    expect(Object.keys(files)).toContain("notiform.yaml");
    expect(files["topics.yaml"]).toContain("key: order-updates");
    // Tenants by identifier where the server lists them; else by id.
    expect(files["overrides.yaml"]).toContain(strictSpec ? `tenantId: "${TENANT_1}"` : "tenant: tenant-one");
    if (!strictSpec) expect(files["workflows.yaml"]).toContain("key: order-shipped");

    // validate is offline: it takes no --api-url (each command accepts only its own flags).
    const validate = await runCli(["validate", "--config", "config/notiform.yaml"], { cwd: target.dir });
    expect(validate.code, validate.stderr).toBe(0);
    const plan = await cli("plan", "--config", "config/notiform.yaml", "--detailed-exitcode");
    expect(plan.stdout).toContain("No changes.");
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);

    // Zero changes must come from a config that holds the server, not from an empty one: every
    // exported entry plans as unchanged, and the whole lists show nothing left unmanaged.
    const entries = Object.values(files).reduce((sum, text) => sum + entriesIn(text), 0);
    expect(entries).toBeGreaterThanOrEqual(strictSpec ? 5 : 7);
    const json = await cli(
      "plan",
      "--config",
      "config/notiform.yaml",
      "--list-unmanaged",
      "--output",
      "json",
      "--detailed-exitcode",
    );
    expect(json.code, json.stderr).toBe(0);
    const summary = JSON.parse(json.stdout).summary;
    expect(summary).toMatchObject({ create: 0, update: 0, unverified: 0, unmanaged: 0 });
    expect(summary.unchanged).toBe(entries);
  });

  it("writes the state file the exported config needs: group ids by key, for this server", async () => {
    const { target, cli, url } = await populated({ strictSpec });
    expect((await cli("export", "--dir", "config")).code).toBe(0);
    const state = JSON.parse(await readFile(target.path("config/notiform.state.json"), "utf8"));
    expect(state.target).toEqual({
      apiUrl: url,
      // The URL sealed under the key (issue 35 item 1): a next run without --api-url trusts it.
      apiUrlSeal: expect.stringMatching(/^hmac-sha256:[0-9a-f]{64}$/),
      organization: "Acme Inc",
      environment: null,
    });
    // A spec-only server cannot list groups: none exported, none recorded.
    const groups: { key: string; name: string }[] = strictSpec
      ? []
      : parse(await readFile(target.path("config/notification-groups.yaml"), "utf8")).notificationGroups;
    const keys = groups.map((g) => g.key);
    if (!strictSpec) expect(keys).toContain("billing");
    expect(Object.keys(state.notificationGroups).sort()).toEqual([...keys].sort());
    for (const group of groups) {
      expect(state.notificationGroups[group.key]).toMatchObject({ name: group.name });
      expect(state.notificationGroups[group.key].id).toMatch(/^[0-9a-f]{24}$/);
    }
    expect(state.intents ?? {}).toEqual({});
  });
});

/** Entries a section file holds: a list's length, or 1 for a single mapping (branding). */
function entriesIn(text: string): number {
  const document = parse(text) as Record<string, unknown>;
  let count = 0;
  for (const [section, value] of Object.entries(document)) {
    if (["version", "organization", "include", "serverEnvironment"].includes(section)) continue;
    count += Array.isArray(value) ? value.length : 1;
  }
  return count;
}

describe("notiform export safety and determinism", () => {
  it("refuses to overwrite existing files unless --force, and re-exports byte for byte", async () => {
    const { target, cli } = await populated();
    expect((await cli("export", "--dir", "config")).code).toBe(0);
    const first = await readTree(target.path("config"));

    const refused = await cli("export", "--dir", "config");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("refusing to overwrite");
    expect(refused.stderr).toContain("--force");

    const forced = await cli("export", "--dir", "config", "--force");
    expect(forced.code).toBe(0);
    expect(await readTree(target.path("config"))).toEqual(first);
  });

  it.each([
    ["under a file", "config/notiform.yaml/sub", "a part of the path is a file, not a directory"],
    // Where the file system makes no directory (a recursive mkdir looped there forever).
    ["under /proc", "/proc/notiform-export", "the file system lets no directory be made there"],
  ])("says plainly that it cannot create its --dir %s; nothing is written", async (_, dir, reason) => {
    const { target, cli } = await populated();
    expect((await cli("export", "--dir", "config")).code).toBe(0);
    const before = await readTree(target.path("config"));
    const refused = await cli("export", "--dir", dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`cannot create the export directory ${dir}: ${reason}`);
    expect(refused.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(await readTree(target.path("config"))).toEqual(before);
  });
});

describe("notiform export interrupted", () => {
  it("writes the root file last: an export stopped between two files never leaves a root naming a missing one", async () => {
    const { workspace, run } = await populated();
    // A preload that logs the name of each file renamed into place, in order (every write is atomic).
    const log = workspace.path("renames.log");
    await workspace.write(
      "log-renames.mjs",
      `import { appendFileSync } from "node:fs";
import { createRequire, syncBuiltinESMExports } from "node:module";
const fsp = createRequire(import.meta.url)("node:fs/promises");
const rename = fsp.rename;
fsp.rename = async (from, to) => { await rename(from, to); appendFileSync(${JSON.stringify(log)}, to + "\\n"); };
syncBuiltinESMExports();
`,
    );
    const exported = await run(["export", "--dir", "config"], {
      env: { NODE_OPTIONS: `--import ${pathToFileURL(workspace.path("log-renames.mjs")).href}` },
    });
    expect(exported.code, exported.stderr).toBe(0);
    const written = (await readFile(log, "utf8"))
      .trim()
      .split("\n")
      .filter((path) => path.includes("/config/") && !path.endsWith(".json"));
    expect(written.length).toBeGreaterThan(3);
    expect(written.at(-1)).toBe(join(workspace.path("config"), "notiform.yaml"));
  });
});

describe("notiform export of values from the environment", () => {
  it("names keys after the variable, and keeps what the live state carries (steps name layouts by identifier)", async () => {
    const { cli, workspace } = await cliTest({
      flavor: "real",
      config: `version: 1
organization: Acme Inc
notificationGroups:
  - key: ops
    name: "Ops \${TEAM_NAME}"
layouts:
  - identifier: brand
    name: Brand
    content: "<html><body>{{{body}}}</body></html>"
workflows:
  - identifier: receipt
    name: Receipt
    notificationGroup: ops
    steps:
      - name: email
        type: email
        template: { subject: Hi, content: "<p>Thanks</p>", contentType: customHtml, layout: brand }
`,
      env: (keys) => ({ NOTIFORM_API_KEY: keys.development, TEAM_NAME: "Night Shift Zq9" }),
    });
    expect((await cli("apply", "--auto-approve")).code).toBe(0);
    const exported = await cli("export", "--dir", "out");
    expect(exported.code, exported.stderr).toBe(0);
    const groups = await workspace.read("out/notification-groups.yaml");
    expect(groups).toContain("key: ops-team-name");
    expect(groups).toContain(`name: Ops \${TEAM_NAME}`);
    const workflows = await workspace.read("out/workflows.yaml");
    expect(workflows).toContain("notificationGroup: ops-team-name");
    expect(workflows).toContain("layout: brand");
    for (const text of [groups, workflows, await workspace.read("out/notiform.state.json")])
      expect(text.toLowerCase()).not.toContain("night");
    // And it plans back to zero with the variable set.
    const again = await cli("plan", "--config", "out/notiform.yaml", "--detailed-exitcode");
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });
});

describe("notiform whoami", () => {
  it("prints the API URL, the organization and the environment", async () => {
    const { cli, url } = await populated();
    const result = await cli("whoami");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(url);
    expect(result.stdout).toContain("Acme Inc");
    expect(result.stdout).toContain("(none selected)");
    const json = JSON.parse((await cli("whoami", "--output", "json")).stdout);
    expect(json).toMatchObject({ apiUrl: url, organization: "Acme Inc", environment: null });
  });

  it("exits 1 on a bad key and names the variable, never the key", async () => {
    const { run } = await cliTest();
    const result = await run(["whoami"], { env: { NOTIFORM_API_KEY: "nf_not_a_real_key_42" } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("NOTIFORM_API_KEY");
    expect(result.stderr).not.toContain("nf_not_a_real_key_42");
  });
});
