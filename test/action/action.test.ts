// The GitHub Action's script (scripts/action.mjs) run as the composite action runs it, with a
// fake GITHUB_* environment, a fake GitHub API and the emulator, all on 127.0.0.1.
import { chmod, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ACME_BASE, cliTests, createWorkspace, runProcess, type Workspace } from "../support/cli.js";
import { ACTIONS_BOT, type FakeGitHub, startFakeGitHub } from "./fake-github.js";

const ROOT = join(import.meta.dirname, "..", "..");
const SCRIPT = join(ROOT, "scripts", "action.mjs");
const REPO = "acme/notifications";
const PR = 7;
const TOKEN = "ghs_fake_token_for_tests";

const cliTest = cliTests();
let github: FakeGitHub | undefined;
afterEach(async () => {
  await github?.close();
  github = undefined;
});

interface ActionRun {
  code: number | null;
  stdout: string;
  stderr: string;
  summary: string;
  outputs: string;
}

async function setup(config = ACME_BASE) {
  const session = await cliTest({ config });
  github = await startFakeGitHub(REPO, PR);
  return { ...session, github };
}

async function runAction(
  workspace: Workspace,
  inputs: Record<string, string>,
  options: { fork?: boolean; event?: string } = {},
): Promise<ActionRun> {
  const head = options.fork ? "someone/notifications" : REPO;
  await workspace.write(
    "event.json",
    JSON.stringify({
      pull_request: { number: PR, head: { repo: { full_name: head } }, base: { repo: { full_name: REPO } } },
    }),
  );
  await workspace.write("summary.md", "");
  await workspace.write("outputs.txt", "");
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: workspace.dir,
    NO_COLOR: "1",
    GITHUB_API_URL: github?.url ?? "http://127.0.0.1:9",
    GITHUB_REPOSITORY: REPO,
    GITHUB_EVENT_NAME: options.event ?? "pull_request",
    GITHUB_EVENT_PATH: workspace.path("event.json"),
    GITHUB_STEP_SUMMARY: workspace.path("summary.md"),
    GITHUB_OUTPUT: workspace.path("outputs.txt"),
    GITHUB_RUN_ID: "42",
    GITHUB_TOKEN: TOKEN,
    INPUT_COMMENT: "true",
    ...inputs,
  };
  const result = await runProcess(process.execPath, [SCRIPT], { cwd: workspace.dir, env });
  return {
    ...result,
    summary: await workspace.read("summary.md"),
    outputs: await workspace.read("outputs.txt"),
  };
}

describe("the GitHub Action script", () => {
  it("plan: the markdown plan in the job summary and one sticky comment, outputs set", async () => {
    const { workspace, emulator, github } = await setup();
    const inputs = {
      INPUT_COMMAND: "plan",
      INPUT_API_URL: emulator.url,
      NOTIFORM_ACTION_API_KEY: emulator.apiKey,
    };
    const first = await runAction(workspace, inputs);
    expect(first.code, first.stderr).toBe(0);
    expect(first.summary).toContain("<!-- notiform-plan -->");
    expect(first.summary).toContain("order-updates");
    expect(first.outputs).toContain("exitcode=2\n");
    expect(first.outputs).toContain("has-changes=true\n");
    expect(github.comments).toHaveLength(1);
    expect(github.comments[0]?.body).toContain("<!-- notiform-action:plan:default:notiform.yaml -->");
    expect(github.comments[0]?.body).toContain("order-updates");
    expect(github.requests.every((r) => r.authorization === `Bearer ${TOKEN}`)).toBe(true);

    // A second run updates the same comment instead of adding one.
    const second = await runAction(workspace, inputs);
    expect(second.code).toBe(0);
    expect(github.comments).toHaveLength(1);
    expect(github.requests.filter((r) => r.method === "PATCH")).toHaveLength(1);
  });

  it("never edits a comment someone else wrote, even one holding the marker", async () => {
    const { workspace, emulator, github } = await setup();
    const marker = "<!-- notiform-action:plan:default:notiform.yaml -->";
    const planted = { id: 1, body: `${marker}\nAll clear, nothing to see`, user: { login: "mallory" } };
    github.comments.push(planted);
    const inputs = {
      INPUT_COMMAND: "plan",
      INPUT_API_URL: emulator.url,
      NOTIFORM_ACTION_API_KEY: emulator.apiKey,
    };
    const first = await runAction(workspace, inputs);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).not.toContain("could not update");
    expect(github.comments).toHaveLength(2);
    expect(github.comments[0]).toEqual(planted);
    expect(github.comments[1]?.user.login).toBe(ACTIONS_BOT);
    expect(github.comments[1]?.body).toContain("order-updates");
    // The next run edits its own comment, still not the planted one.
    const second = await runAction(workspace, inputs);
    expect(second.code).toBe(0);
    expect(github.comments).toHaveLength(2);
    expect(github.comments[0]).toEqual(planted);
    expect(github.requests.filter((r) => r.method === "PATCH").map((r) => r.path)).toEqual([
      `/repos/${REPO}/issues/comments/${github.comments[1]?.id}`,
    ]);
  });

  it("with a personal token, its own user's comment is the one it edits", async () => {
    const { workspace, emulator, github } = await setup();
    github.users[TOKEN] = "release-bot";
    const inputs = {
      INPUT_COMMAND: "plan",
      INPUT_API_URL: emulator.url,
      NOTIFORM_ACTION_API_KEY: emulator.apiKey,
    };
    expect((await runAction(workspace, inputs)).code).toBe(0);
    expect((await runAction(workspace, inputs)).code).toBe(0);
    expect(github.comments.map((c) => c.user.login)).toEqual(["release-bot"]);
  });

  it("a failing plan replaces the old green comment, fails the step, and leaks no key", async () => {
    const { workspace, emulator, github } = await setup();
    const inputs = {
      INPUT_COMMAND: "plan",
      INPUT_API_URL: emulator.url,
      NOTIFORM_ACTION_API_KEY: emulator.apiKey,
    };
    expect((await runAction(workspace, inputs)).code).toBe(0);
    await workspace.write(
      "notiform.yaml",
      ACME_BASE.replace("organization: Acme Inc", "organization: Other Org"),
    );
    const failed = await runAction(workspace, inputs);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("::error::notiform plan failed");
    expect(github.comments).toHaveLength(1);
    const body = github.comments[0]?.body ?? "";
    expect(body).toContain("failed (exit 1)");
    expect(body).toContain("Other Org");
    expect(body).not.toContain("order-updates");
    expect(failed.summary).toContain("failed (exit 1)");
    for (const text of [failed.stdout, failed.stderr, failed.summary, failed.outputs, body])
      expect(text).not.toContain(emulator.apiKey);
    expect(github.requests.some((r) => r.body.includes(emulator.apiKey))).toBe(false);
  });

  it("apply: applies with --auto-approve and reports it in the summary", async () => {
    const { workspace, emulator, github } = await setup();
    const result = await runAction(workspace, {
      INPUT_COMMAND: "apply",
      INPUT_API_URL: emulator.url,
      NOTIFORM_ACTION_API_KEY: emulator.apiKey,
      INPUT_COMMENT: "false",
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.summary).toContain("notiform apply succeeded");
    expect(result.summary).toContain("Apply complete");
    expect(await workspace.read("notiform.state.json")).toContain("billing");
    expect(github.comments).toHaveLength(0);
  });

  it("promote: promotes Development's pending changes without a prompt (no TTY in a job)", async () => {
    const { workspace, emulator } = await setup();
    await workspace.write(
      "notiform.yaml",
      `version: 1
organization: Acme Inc
environments:
  development:
    apiKeyEnv: NOTIFORM_API_KEY_DEVELOPMENT
workflows:
  - identifier: order-shipped
    name: Order shipped
    tags: [orders, promoted]
`,
    );
    const common = {
      INPUT_ENVIRONMENT: "development",
      INPUT_API_KEY_VARIABLE: "NOTIFORM_API_KEY_DEVELOPMENT",
      INPUT_API_URL: emulator.url,
      NOTIFORM_ACTION_API_KEY: emulator.apiKey,
      INPUT_COMMENT: "false",
    };
    const applied = await runAction(workspace, { INPUT_COMMAND: "apply", ...common });
    expect(applied.code, applied.stderr).toBe(0);
    const tags = (env: "development" | "production") =>
      emulator.store(env).workflows.find((w) => w.triggers[0]?.identifier === "order-shipped")?.tags;
    expect(tags("production")).not.toEqual(["orders", "promoted"]);
    const result = await runAction(workspace, { INPUT_COMMAND: "promote", ...common });
    expect(result.code, result.stderr).toBe(0);
    expect(result.summary).toContain("notiform promote (development) succeeded");
    expect(tags("production")).toEqual(["orders", "promoted"]);
    expect(result.summary + result.stderr).not.toContain(emulator.apiKey);
  });

  it("a custom key variable and an environment reach notiform", async () => {
    const { workspace, emulator } = await setup();
    await workspace.write(
      "notiform.yaml",
      `${ACME_BASE}environments:\n  staging:\n    apiKeyEnv: NOTIFORM_STAGING_KEY\n`,
    );
    const result = await runAction(workspace, {
      INPUT_COMMAND: "plan",
      INPUT_ENVIRONMENT: "staging",
      INPUT_API_KEY_VARIABLE: "NOTIFORM_STAGING_KEY",
      INPUT_API_URL: emulator.url,
      NOTIFORM_ACTION_API_KEY: emulator.apiKey,
      INPUT_COMMENT: "false",
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.outputs).toContain("exitcode=2");
  });

  it("a forked pull request without a key says why instead of failing with 'no API key'", async () => {
    const { workspace, github } = await setup();
    const result = await runAction(workspace, { INPUT_COMMAND: "plan" }, { fork: true });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("::notice::");
    expect(result.stderr).toContain("fork");
    expect(result.summary).toContain("comes from a fork");
    expect(result.stderr + result.summary).not.toContain("no API key: the variable");
    expect(github.requests).toHaveLength(0);
  });

  it("an empty key on a pull request of this repository fails, naming the input", async () => {
    const { workspace } = await setup();
    const result = await runAction(workspace, { INPUT_COMMAND: "plan", NOTIFORM_ACTION_API_KEY: "" });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("the api-key input is empty");
  });

  it("an unknown command is refused before anything runs", async () => {
    const { workspace, github } = await setup();
    const result = await runAction(workspace, {
      INPUT_COMMAND: "destroy",
      NOTIFORM_ACTION_API_KEY: "x-key-1234",
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("plan, apply, promote");
    expect(github.requests).toHaveLength(0);
  });

  it("a read-only token does not turn a good plan red", async () => {
    const { workspace, emulator, github } = await setup();
    github.refuseWrites = 403;
    const result = await runAction(workspace, {
      INPUT_COMMAND: "plan",
      INPUT_API_URL: emulator.url,
      NOTIFORM_ACTION_API_KEY: emulator.apiKey,
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("::warning::notiform action: could not update the pull-request comment");
  });
});

describe("action.yml", () => {
  it("runs a release's built CLI as it is, and builds only a commit that carries none", async () => {
    const action = parse(await readFile(join(ROOT, "action.yml"), "utf8"));
    const install = (action.runs.steps as { run?: string }[])[0]?.run ?? "";
    const workspace = await createWorkspace({
      "bin/npm": '#!/bin/sh\necho "$*" >> "$(dirname "$0")/../npm-calls"\n',
    });
    await chmod(workspace.path("bin/npm"), 0o755);
    const runInstall = () =>
      runProcess("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", install], {
        cwd: workspace.dir,
        env: { PATH: `${workspace.path("bin")}:${process.env.PATH ?? ""}` },
      });
    const calls = () => workspace.read("npm-calls").catch(() => "");
    await workspace.write("dist/bundle/main.js", "");
    const release = await runInstall();
    expect(release.code, release.stderr).toBe(0);
    expect(await calls()).toBe("");
    await rm(workspace.path("dist"), { recursive: true });
    const commit = await runInstall();
    expect(commit.code, commit.stderr).toBe(0);
    expect(commit.stdout).toContain("::notice::");
    expect((await calls()).split("\n").filter(Boolean)).toEqual([
      "ci --no-audit --no-fund --loglevel=error",
      "run build --silent",
    ]);
  });

  it("is a composite action with the documented inputs, the key only in env", async () => {
    const text = await readFile(join(ROOT, "action.yml"), "utf8");
    const action = parse(text);
    expect(action.runs.using).toBe("composite");
    for (const name of [
      "command",
      "config",
      "environment",
      "api-url",
      "api-key",
      "api-key-variable",
      "comment",
    ])
      expect(Object.keys(action.inputs)).toContain(name);
    const steps = action.runs.steps as { run?: string; env?: Record<string, string> }[];
    expect(steps.some((s) => s.run?.includes("scripts/action.mjs"))).toBe(true);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub expression, not a template.
    const fromInput = "${{ inputs.api-key }}";
    expect(steps.some((s) => s.env?.NOTIFORM_ACTION_API_KEY === fromInput)).toBe(true);
    // The key never appears in a command line, where `set -x` or an error would print it.
    expect(steps.every((s) => !(s.run ?? "").includes("inputs.api-key"))).toBe(true);
    // Any action it uses is pinned by full commit SHA, like the recipes' (a tag can be moved).
    for (const step of steps as { uses?: string }[])
      if (step.uses !== undefined) expect(step.uses).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/);
  });
});
