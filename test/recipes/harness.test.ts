// The recipe harness behaves as GitHub does where the recipes depend on it, so a recipe that
// would fail on GitHub fails here: main refuses a direct push, the gh stand-in finds pull
// requests as gh does and refuses what gh refuses, expressions and `if:` evaluate as GitHub's,
// and push filters select as GitHub's.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { condition, evaluate, interpolate } from "./harness/expressions.js";
import { git, gitEnv } from "./harness/remote.js";
import { pathSelected } from "./harness/triggers.js";
import { createWorld } from "./harness/world.js";

const run = promisify(execFile);

describe("the protected remote and the gh stand-in", () => {
  it("refuse what GitHub refuses, and find pull requests as gh does", async () => {
    const world = await createWorld({ "README.md": "# x\n" }, {});
    const clone = join(world.root, "clone");
    const env = gitEnv(world.root, {
      GIT_AUTHOR_NAME: "a",
      GIT_AUTHOR_EMAIL: "a@example.com",
      GIT_COMMITTER_NAME: "a",
      GIT_COMMITTER_EMAIL: "a@example.com",
    });
    await git(["clone", "-q", world.remote.url, clone], world.root, env);
    await git(["commit", "-q", "--allow-empty", "-m", "direct"], clone, env);
    await expect(git(["push", "origin", "HEAD:main"], clone, env)).rejects.toThrow(/Protected branch/);
    await git(["push", "-q", "origin", "HEAD:topic"], clone, env);

    const gh = (...args: string[]) =>
      run(join(world.shims, "gh"), args, { cwd: clone, env: { ...env, GH_TOKEN: "t" } });
    await expect(run(join(world.shims, "gh"), ["pr", "list"], { cwd: clone, env })).rejects.toThrow(
      /GH_TOKEN/,
    );
    await expect(gh("pr", "view", "topic")).rejects.toThrow(/no pull requests found/);
    await gh("pr", "create", "--base", "main", "--head", "topic", "--title", "T", "--body", "B");
    await expect(
      gh("pr", "create", "--base", "main", "--head", "topic", "--title", "T", "--body", "B"),
    ).rejects.toThrow(/already exists/);
    await expect(
      gh("pr", "create", "--base", "main", "--head", "absent", "--title", "T", "--body", "B"),
    ).rejects.toThrow(/create failed/);
    expect((await gh("pr", "view", "topic", "--json", "state", "--jq", ".state")).stdout).toBe("OPEN\n");
    await world.mergePull(1);
    // The newest pull request of the branch, whatever its state.
    expect((await gh("pr", "view", "topic", "--json", "state", "--jq", ".state")).stdout).toBe("MERGED\n");
    expect((await gh("pr", "list", "--head", "topic", "--json", "number", "--jq", "length")).stdout).toBe(
      "0\n",
    );
    await expect(gh("pr", "merge", "1")).rejects.toThrow(/unsupported/);

    // Issues share the numbering, refuse a label the repository lacks, and close once.
    const issue = ["issue", "create", "--title", "Drift", "--body", "B", "--label", "drift"];
    await expect(gh(...issue)).rejects.toThrow(/could not add label: 'drift' not found/);
    await gh("label", "create", "drift");
    await expect(gh("label", "create", "drift")).rejects.toThrow(/already exists/);
    await gh("label", "create", "drift", "--force");
    expect((await gh(...issue)).stdout).toContain("/issues/2\n");
    const open = [
      "issue",
      "list",
      "--label",
      "drift",
      "--limit",
      "1",
      "--json",
      "number",
      "--jq",
      ".[].number",
    ];
    expect((await gh(...open)).stdout).toBe("2\n");
    // gh prints a null result as an empty line.
    expect(
      (await gh("issue", "list", "--state", "closed", "--json", "number", "--jq", ".[0].number")).stdout,
    ).toBe("\n");
    await gh("issue", "close", "2", "--comment", "fixed");
    await expect(gh("issue", "close", "2")).rejects.toThrow(/already closed/);
    expect((await gh(...open)).stdout).toBe("");
    expect((await world.issues())[0]?.comments).toEqual([
      { author: { login: "app/github-actions" }, body: "fixed" },
    ]);
  });
});

describe("expressions and filters", () => {
  const contexts = {
    steps: { run: { outputs: { "has-changes": "true" }, outcome: "success" } },
    github: { event: { pull_request: { number: 7 } } },
  };

  it("evaluate as GitHub's", () => {
    expect(evaluate("steps.run.outputs.has-changes == 'TRUE'", { contexts })).toBe(true);
    expect(evaluate("steps.missing.outputs.x", { contexts })).toBe(null);
    expect(evaluate("steps.run.outcome != 'skipped' && 'yes' || 'no'", { contexts })).toBe("yes");
    expect(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub expression, not a template.
      interpolate("pr-${{ github.event.pull_request.number }}-${{ steps.x.outputs.y }}", { contexts }),
    ).toBe("pr-7-");
    expect(() => evaluate("contains(github.event, 'x')", { contexts })).toThrow(/unsupported function/);
  });

  it("an `if:` without a status function runs only while the job succeeds", () => {
    expect(condition("steps.run.outcome == 'success'", { contexts, status: "failure" })).toBe(false);
    expect(condition("always() && steps.run.outcome == 'success'", { contexts, status: "failure" })).toBe(
      true,
    );
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub expression, not a template.
    expect(condition("${{ !cancelled() }}", { contexts, status: "failure" })).toBe(true);
    expect(condition(undefined, { contexts, status: "failure" })).toBe(false);
  });

  it("path filters: later patterns win, a state file alone selects nothing", () => {
    const paths = ["notiform/**", "!notiform/*.state.json"];
    expect(pathSelected("notiform/notiform.yaml", paths)).toBe(true);
    expect(pathSelected("notiform/teams/a.yaml", paths)).toBe(true);
    expect(pathSelected("notiform/notiform.state.json", paths)).toBe(false);
    expect(pathSelected("README.md", paths)).toBe(false);
  });
});
