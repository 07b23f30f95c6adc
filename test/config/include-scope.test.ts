// Includes stay inside the project (issue 12 item 7): an absolute include, one climbing out
// with "..", and one reaching out through a symbolic link are config errors at the include,
// unless allowed (--allow-include-outside); a symlinked directory that loops back is one error,
// each file read once, instead of a "defined twice" per path.
import { mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/errors.js";
import { loadConfig } from "../../src/loader/index.js";
import { createWorkspace, runCli } from "../support/cli.js";

const TOPIC = "topics:\n  - key: outside\n    name: Outside\n";

async function problemsOf(promise: Promise<unknown>): Promise<{ where: string; message: string }[]> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return (error as ConfigError).problems
    .filter((p) => p.severity === "error")
    .map((p) => ({ where: `${p.pos.file}:${p.pos.line}:${p.pos.col}`, message: p.message }));
}

describe("includes stay inside the project", () => {
  it("refuses an include that climbs out with .., at the include's position", async () => {
    const ws = await createWorkspace({
      "secret.yaml": TOPIC,
      "project/notiform.yaml": "version: 1\ninclude:\n  - topics/*.yaml\n  - ../secret.yaml\n",
      "project/topics/a.yaml": "topics:\n  - key: a\n    name: A\n",
    });
    const problems = await problemsOf(loadConfig({ cwd: join(ws.dir, "project"), vars: {} }));
    expect(problems).toEqual([
      {
        where: "notiform.yaml:4:5",
        message: expect.stringMatching(
          /include "\.\.\/secret\.yaml" leads outside the project directory.*--allow-include-outside/,
        ),
      },
    ]);
  });

  it("refuses an absolute include", async () => {
    const ws = await createWorkspace({ "secret.yaml": TOPIC });
    await ws.write(
      "project/notiform.yaml",
      `version: 1\ninclude: ${JSON.stringify(ws.path("secret.yaml"))}\n`,
    );
    const problems = await problemsOf(loadConfig({ cwd: join(ws.dir, "project"), vars: {} }));
    expect(problems).toEqual([
      { where: "notiform.yaml:2:10", message: expect.stringContaining("is an absolute path") },
    ]);
  });

  it("refuses a file reached through a symbolic link that leads outside", async () => {
    const ws = await createWorkspace({
      "elsewhere/secret.yaml": TOPIC,
      "project/notiform.yaml": "version: 1\ninclude: linked/*.yaml\n",
    });
    await symlink(ws.path("elsewhere"), ws.path("project/linked"));
    const problems = await problemsOf(loadConfig({ cwd: join(ws.dir, "project"), vars: {} }));
    expect(problems).toEqual([
      {
        where: "notiform.yaml:2:10",
        message: expect.stringMatching(
          /reaches linked\/secret\.yaml through a symbolic link leading outside/,
        ),
      },
    ]);
  });

  it("loads all of them when allowed", async () => {
    const ws = await createWorkspace({
      "secret.yaml": TOPIC,
      "project/notiform.yaml": "version: 1\ninclude: ../secret.yaml\n",
    });
    const { desired } = await loadConfig({
      cwd: join(ws.dir, "project"),
      vars: {},
      allowIncludeOutside: true,
    });
    expect(desired.resources.topic.map((t) => t.spec.key)).toEqual(["outside"]);
  });

  it("reports a looping symlinked directory once and reads each file once", async () => {
    const ws = await createWorkspace({
      "notiform.yaml": "version: 1\ninclude: 'teams/**/*.yaml'\n",
      "teams/a.yaml": "topics:\n  - key: a\n    name: A\n",
      "teams/b.yaml": "topics:\n  - key: b\n    name: B\n",
    });
    await mkdir(ws.path("teams/sub"));
    await symlink(ws.path("teams"), ws.path("teams/sub/loop"));
    const problems = await problemsOf(loadConfig({ cwd: ws.dir, vars: {} }));
    expect(problems).toEqual([
      {
        where: "notiform.yaml:2:10",
        message: expect.stringMatching(/reaches the same file by more than one path .*loops back/),
      },
    ]);
  });

  it("validate refuses it from the command line, and --allow-include-outside lets it through", async () => {
    const ws = await createWorkspace({
      "secret.yaml": TOPIC,
      "project/notiform.yaml": "version: 1\ninclude: ../secret.yaml\n",
    });
    const refused = await runCli(["validate"], { cwd: ws.path("project") });
    expect(refused.code).toBe(1);
    expect(refused.stderr + refused.stdout).toContain("leads outside the project directory");
    const allowed = await runCli(["validate", "--allow-include-outside"], { cwd: ws.path("project") });
    expect(allowed.code).toBe(0);
  });
});
