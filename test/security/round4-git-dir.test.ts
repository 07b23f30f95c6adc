// Hostile input, round 4 (issue 35), item 2: with the config at the repository root (the Action's
// default), a pull request's `{ file: .git/config }` put the checkout's stored
// `extraheader = AUTHORIZATION: basic ...` into the plan comment. Anything inside a .git folder is
// refused, however it is spelled or linked, and the CI recipes check out without persisting the
// token at all.
import { mkdir, readdir, readFile, symlink } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createWorkspace, runCli } from "../support/cli.js";

const TOKEN = "eC1hY2Nlc3MtdG9rZW46Z2hzX3NlY3JldA==";
const GIT_CONFIG = `[core]\n\trepositoryformatversion = 0\n[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic ${TOKEN}\n{{{body}}}\n`;

const layoutReading = (path: string) =>
  `version: 1\nlayouts:\n  - identifier: brand\n    name: Brand\n    content: { file: ${JSON.stringify(path)} }\n`;

async function repositoryWith(config: string) {
  const workspace = await createWorkspace({ "notiform.yaml": config, ".git/config": GIT_CONFIG });
  await mkdir(workspace.path("templates"));
  return workspace;
}

describe("{ file: } never reads inside .git (item 2)", () => {
  it.each([".git/config", "./.git/config", "templates/../.git/config", ".GIT/config", ".Git/config"])(
    "refuses %s at validate, naming the file and field",
    async (path) => {
      const workspace = await repositoryWith(layoutReading(path));
      for (const extra of [[], ["--allow-include-outside"]]) {
        const result = await runCli(["validate", ...extra], { cwd: workspace.dir });
        expect(result.code).toBe(1);
        expect(result.stderr).toContain(`notiform.yaml:5:`);
        expect(result.stderr).toContain(`file "${path}" is inside a .git folder`);
        expect(result.stderr + result.stdout).not.toContain(TOKEN);
      }
    },
  );

  it("refuses a link that resolves into .git", async () => {
    const workspace = await repositoryWith(layoutReading("templates/brand.html"));
    await symlink("../.git/config", workspace.path("templates/brand.html"));
    const result = await runCli(["validate"], { cwd: workspace.dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`file "templates/brand.html" is inside a .git folder`);
    expect(result.stderr).not.toContain(TOKEN);
  });

  it("still reads a file whose name only looks alike", async () => {
    const workspace = await repositoryWith(layoutReading("templates/.gitkeep.html"));
    await workspace.write("templates/.gitkeep.html", "<p>{{{body}}}</p>");
    const result = await runCli(["validate"], { cwd: workspace.dir });
    expect(result.code, result.stderr).toBe(0);
  });
});

describe("the CI recipes keep no token in the checkout (item 2)", () => {
  const DIR = join(import.meta.dirname, "../../examples/github-actions");
  type Step = { uses?: string; run?: string; with?: Record<string, unknown>; env?: Record<string, string> };

  it("every actions/checkout sets persist-credentials: false; a step that fetches or pushes authenticates itself", async () => {
    const files = (await readdir(DIR)).filter((f) => f.endsWith(".yml"));
    expect(files.length).toBeGreaterThan(3);
    let checkouts = 0;
    for (const file of files) {
      const workflow = parse(await readFile(join(DIR, file), "utf8")) as {
        jobs: Record<string, { steps: Step[] }>;
      };
      for (const job of Object.values(workflow.jobs)) {
        for (const step of job.steps) {
          if (step.uses?.startsWith("actions/checkout@")) {
            checkouts += 1;
            expect(step.with?.["persist-credentials"], file).toBe(false);
          }
          if (/\bgit (fetch|push)\b/.test(step.run ?? "")) {
            expect(step.run, file).toMatch(/^gh auth setup-git/);
            expect(step.env?.GH_TOKEN, file).toBe(`$\{{ github.token }}`);
          }
        }
      }
    }
    expect(checkouts).toBeGreaterThan(4);
  });
});
