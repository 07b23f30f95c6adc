// Ctrl-C during apply, --target, and the emulator and validate commands as processes.
import { describe, expect, it } from "vitest";
import { cliTests, createWorkspace, runCli, TENANT_1, WORKFLOW_SHIPPED } from "../support/cli.js";

const cliTest = cliTests();

function manyTopics(count: number): string {
  const topics = Array.from({ length: count }, (_, i) => `  - key: topic-${i}\n    name: Topic ${i}\n`).join(
    "",
  );
  return `version: 1\norganization: Acme Inc\nnotificationGroups:\n  - key: billing\n    name: Billing\ntopics:\n${topics}`;
}

describe("Ctrl-C during apply", () => {
  it("stops starting actions, reports, exits 130, and a re-run converges", async () => {
    const {
      emulator: handle,
      workspace,
      run,
      cli,
    } = await cliTest({ config: manyTopics(60), latencyMs: 25 });
    const args = ["apply", "--auto-approve", "--concurrency", "2"];
    const interrupted = await run(args, {
      onSpawn: (child) => {
        const timer = setInterval(() => {
          if (handle.requests.filter((r) => r.method === "POST").length >= 6) {
            child.kill("SIGINT");
            clearInterval(timer);
          }
        }, 2);
        child.on("close", () => clearInterval(timer));
      },
    });
    expect(interrupted.code).toBe(130);
    expect(interrupted.stderr).toContain("Stopping: starting nothing new");
    expect(interrupted.stdout).toMatch(/\d+ applied, 0 failed, \d+ skipped/);
    const created = handle.store().topics.filter((t) => t.key.startsWith("topic-")).length;
    expect(created).toBeGreaterThan(0);
    expect(created).toBeLessThan(60);
    // The state file records the group created before the stop.
    expect(await workspace.read("notiform.state.json")).toContain('"billing"');

    const rerun = await run(args);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(handle.store().notificationGroups.filter((g) => g.name === "Billing")).toHaveLength(1);
    const plan = await cli("plan", "--detailed-exitcode");
    expect(plan.code).toBe(0);
  });
});

describe("--target", () => {
  it("limits plan and apply to the named resources and what they depend on", async () => {
    const config = `version: 1\norganization: Acme Inc\ntopics:\n  - key: a\n    name: A\n  - key: b\n    name: B\nnotificationGroups:\n  - key: billing\n    name: Billing\nworkflows:\n  - key: order-shipped\n    id: ${WORKFLOW_SHIPPED}\n    notificationGroup: billing\noverrides:\n  - workflow: order-shipped\n    tenant: ${TENANT_1}\n`;
    const { cli, emulator } = await cliTest({ config });
    const plan = JSON.parse(
      (await cli("plan", "--output", "json", "--target", "workflow/order-shipped")).stdout,
    );
    expect(plan.actions.map((a: { id: string }) => a.id).sort()).toEqual([
      "notificationGroup/billing",
      "workflow/order-shipped",
    ]);
    const applied = await cli("apply", "--auto-approve", "--target", "topic/b");
    expect(applied.code).toBe(0);
    expect(emulator.store().topics.map((t) => t.key)).toContain("b");
    expect(emulator.store().topics.map((t) => t.key)).not.toContain("a");
  });
});

describe("notiform validate", () => {
  it("lists every problem as file:line:col, sorted, masks values from the environment, and exits 1", async () => {
    const config = `version: 1\ntopics:\n  - key: ok\n    name: \${TOPIC_NAME}\n  - key: bad key\n    name: B\nworkflows:\n  - key: w\n    id: \${WORKFLOW_ID}\n`;
    const workspace = await createWorkspace({ "notiform.yaml": config });
    const result = await runCli(["validate"], {
      cwd: workspace.dir,
      env: { TOPIC_NAME: "Sensitive Name", WORKFLOW_ID: "sekret-value-123" },
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      [
        'notiform.yaml:5:10  error  topics[1].key: must use only letters, digits, "-", "_", ".", ":", "@", "+" and "/" (not "." or ".." alone), got "bad key"',
        'notiform.yaml:9:9  error  workflows[0].id: must be a 24-character hex id, got "********"',
        "2 errors: the configuration is not valid",
        "",
      ].join("\n"),
    );
    const json = JSON.parse(
      (
        await runCli(["validate", "--output", "json"], {
          cwd: workspace.dir,
          env: { TOPIC_NAME: "x", WORKFLOW_ID: "y" },
        })
      ).stdout,
    );
    expect(json.valid).toBe(false);
    expect(json.problems[0]).toMatchObject({
      severity: "error",
      rule: "schema",
      file: "notiform.yaml",
      line: 5,
      col: 10,
      field: "topics[1].key",
    });
  });

  it("says so when the config file is missing", async () => {
    const workspace = await createWorkspace();
    const result = await runCli(["validate"], { cwd: workspace.dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("error: config file notiform.yaml not found");
  });
});

describe("notiform emulator", () => {
  it("documents the seed format and the fault flags in --help", async () => {
    const help = (await runCli(["emulator", "--help"], { cwd: process.cwd() })).stdout;
    for (const text of [
      "Seed file",
      "--seed",
      "--latency",
      "--error-rate",
      "--drop-rate",
      "--rate-limit",
      "--fault-seed",
      "--strict-spec",
    ]) {
      expect(help).toContain(text);
    }
  });

  it("serves the API until Ctrl-C, and never prints a key", async () => {
    let url = "";
    const result = await runCli(["emulator", "--port", "0"], {
      cwd: process.cwd(),
      onSpawn: (child) => {
        child.stderr?.on("data", async (chunk: Buffer) => {
          const match = /listening on (http:\/\/\S+)/.exec(chunk.toString());
          if (!match?.[1] || url !== "") return;
          url = match[1];
          const response = await fetch(`${url}/v1/organizations/me`, {
            headers: { authorization: "ApiKey nf_dev_demo_key" },
          });
          expect(response.status).toBe(200);
          child.kill("SIGINT");
        });
      },
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain("nf_dev_demo_key");
    expect(result.stderr).toContain("notiform emulator stopped");
  });
});

describe("verification after apply", () => {
  it("warns, naming the field, when the server silently kept another value", async () => {
    const { emulator, cli } = await cliTest({
      config:
        "version: 1\norganization: Acme Inc\ntopics:\n  - key: existing-announcements\n    name: Company news\n",
    });
    const topic = emulator.store().topics.find((t) => t.key === "existing-announcements");
    // The server answers the rename with the old name: it ignored it.
    emulator.injectFault({
      method: "PATCH",
      path: "/v1/topics/existing-announcements",
      kind: { status: 200, body: { data: topic } },
    });
    const result = await cli("apply", "--auto-approve");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Verification warnings");
    expect(result.stdout).toContain(
      'topic/existing-announcements: the server kept name = "Announcements" instead of "Company news"',
    );
  });
});
