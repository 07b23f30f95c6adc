// CLI manners: per-command help, did-you-mean for flags, plurals in summaries, and a warning
// when the config has no organization guard.
import { describe, expect, it } from "vitest";
import { ACME_BASE, cliTests, createWorkspace, runCli, TENANT_1, WORKFLOW_SHIPPED } from "../support/cli.js";

const cliTest = cliTests();

const help = async (command: string) => {
  const workspace = await createWorkspace();
  const result = await runCli([command, "--help"], { cwd: workspace.dir });
  expect(result.code).toBe(0);
  return result.stdout;
};

describe("--help of each command lists only its own flags", () => {
  it("validate: config flags, no API or plan flags", async () => {
    const text = await help("validate");
    expect(text).toContain("--config");
    for (const flag of ["--api-url", "--concurrency", "--target", "--insecure-http", "--port"])
      expect(text).not.toContain(flag);
  });

  it("plan: config, API and plan flags, none of the emulator's", async () => {
    const text = await help("plan");
    for (const flag of ["--config", "--api-url", "--target", "--detailed-exitcode", "--out"])
      expect(text).toContain(flag);
    expect(text).not.toContain("--port");
    expect(text).not.toContain("--auto-approve");
  });

  it("emulator: its own flags, no config or API flags", async () => {
    const text = await help("emulator");
    expect(text).toContain("--port");
    for (const flag of ["--config", "--api-url", "--target", "--concurrency"])
      expect(text).not.toContain(flag);
  });
});

describe("an unknown flag", () => {
  it("suggests the nearest flag of that command", async () => {
    const workspace = await createWorkspace();
    const result = await runCli(["apply", "--auto-aprove"], { cwd: workspace.dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("did you mean --auto-approve?");
  });

  it("an unknown command is named, with the nearest command", async () => {
    const workspace = await createWorkspace();
    const result = await runCli(["pla"], { cwd: workspace.dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error: unknown command "pla"');
    expect(result.stderr).toContain("did you mean `notiform plan`?");
  });

  it("a flag of another command is refused, not silently accepted", async () => {
    const workspace = await createWorkspace({ "notiform.yaml": ACME_BASE });
    const result = await runCli(["validate", "--api-url", "http://127.0.0.1:9"], { cwd: workspace.dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("api-url");
  });
});

describe("plurals", () => {
  it("validate counts one of each in the singular", async () => {
    const workspace = await createWorkspace({
      "notiform.yaml":
        "version: 1\norganization: Acme Inc\ntopics:\n  - key: a\n    name: A\nnotificationGroups:\n  - key: g\n    name: G\n",
    });
    const result = await runCli(["validate"], { cwd: workspace.dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      "1 file valid: 1 notification group, 1 topic, 0 tenants, 0 layouts, 0 workflows, 0 workflow overrides",
    );
  });

  it("export says 1 override, and every count agrees with its noun", async () => {
    const config = `${ACME_BASE}workflows:\n  - key: shipped\n    id: ${WORKFLOW_SHIPPED}\noverrides:\n  - workflow: shipped\n    tenant: ${TENANT_1}\n    active: false\n`;
    const session = await cliTest({ config: config });
    const applied = await session.cli("apply", "--auto-approve");
    expect(applied.code, applied.stderr).toBe(0);
    const result = await session.cli("export", "--dir", "exported");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(", 1 workflow override ");
    const counts = [...result.stderr.matchAll(/(\d+) (topic|override|workflow|notification group)(s?)\b/g)];
    expect(counts).toHaveLength(4);
    for (const [, n, , s] of counts) expect(s === "", `${n} ${s}`).toBe(n === "1");
  });
});

describe("a config without an organization guard", () => {
  it("gets a warning on stderr from plan and from apply", async () => {
    const session = await cliTest({ config: ACME_BASE.replace("organization: Acme Inc\n", "") });
    const plan = await session.cli("plan", "--output", "json");
    expect(plan.code).toBe(0);
    expect(plan.stderr).toContain("warning: the config has no `organization` guard");
    expect(JSON.parse(plan.stdout).formatVersion).toBe(4);
    const apply = await session.cli("apply", "--auto-approve");
    expect(apply.code).toBe(0);
    expect(apply.stderr).toContain("warning: the config has no `organization` guard");
  });

  it("is silent when the guard is there", async () => {
    const session = await cliTest({ config: ACME_BASE });
    const plan = await session.cli("plan");
    expect(plan.stderr).toBe("");
  });
});
