// Hostile input, round 4 (issue 35), items 5 and 6: what `notiform export` writes. It never
// writes through a symbolic link out of --dir (a dangling link, a linked subdirectory, a link
// with --force), and names its files uniquely, case-insensitively, so no layout's content is lost
// to another's and every export plans back to zero.
import { mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";
import { createClient } from "../../src/kinds/client.js";
import { createWorkspace, runCli } from "../support/cli.js";

let emulator: EmulatorHandle;
const LAYOUTS = ["brand:eu", "brand_eu", "Brand-US", "brand-us"];
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, seedFile: "examples/emulator-seed.yaml" });
  const client = createClient({ baseUrl: emulator.url, apiKey: emulator.apiKey, insecureHttp: true });
  for (const identifier of LAYOUTS)
    await client.createLayout({
      name: `Layout ${identifier}`,
      identifier,
      content: `<main data-layout="${identifier}">{{{body}}}</main>`,
    });
  await client.close();
});
afterAll(async () => {
  await emulator.close();
});

const exportInto = (cwd: string, ...extra: string[]) =>
  runCli(["export", "--dir", "out", "--api-url", emulator.url, ...extra], {
    cwd,
    env: { NOTIFORM_API_KEY: emulator.apiKey },
  });

async function outside() {
  return mkdtemp(join(tmpdir(), "notiform-outside-"));
}

describe("export never follows a link out of --dir (item 5)", () => {
  it("a dangling link in the target is refused; its target is not created", async () => {
    const workspace = await createWorkspace();
    const away = await outside();
    await mkdir(workspace.path("out"));
    await symlink(join(away, "created.yaml"), workspace.path("out/notiform.yaml"));
    const result = await exportInto(workspace.dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("out/notiform.yaml is a symbolic link");
    expect(await readdir(away)).toEqual([]);
  });

  it("a linked subdirectory is refused; nothing is written into it", async () => {
    const workspace = await createWorkspace();
    const away = await outside();
    await mkdir(workspace.path("out"));
    await symlink(away, workspace.path("out/layouts"));
    const result = await exportInto(workspace.dir, "--force");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("out/layouts is a symbolic link");
    expect(await readdir(away)).toEqual([]);
  });

  it("with --force, a link to an outside file is refused and the file is untouched", async () => {
    const workspace = await createWorkspace();
    const away = await outside();
    await writeFile(join(away, "victim.txt"), "precious\n");
    await mkdir(workspace.path("out"));
    await symlink(join(away, "victim.txt"), workspace.path("out/layouts.yaml"));
    const result = await exportInto(workspace.dir, "--force");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("out/layouts.yaml is a symbolic link");
    expect(await readFile(join(away, "victim.txt"), "utf8")).toBe("precious\n");
  });

  it("a link at the state file or its lock is refused too", async () => {
    for (const name of ["notiform.state.json", "notiform.state.json.lock"]) {
      const workspace = await createWorkspace();
      const away = await outside();
      await mkdir(workspace.path("out"));
      await symlink(join(away, "x"), workspace.path(`out/${name}`));
      const result = await exportInto(workspace.dir, "--force");
      expect(result.code, name).toBe(1);
      expect(result.stderr).toContain(`out/${name} is a symbolic link`);
      expect(await readdir(away)).toEqual([]);
    }
  });
});

describe("export names files uniquely, case-insensitively (item 6)", () => {
  it("brand:eu, brand_eu, Brand-US and brand-us: four files, every content kept, and a plan of zero", async () => {
    const workspace = await createWorkspace();
    const result = await exportInto(workspace.dir);
    expect(result.code, result.stderr).toBe(0);
    const files = await readdir(workspace.path("out/layouts"));
    // The seed's own layouts are there too.
    expect(files.length).toBeGreaterThanOrEqual(LAYOUTS.length);
    expect(new Set(files.map((f) => f.toLowerCase())).size).toBe(files.length);
    const contents = await Promise.all(
      files.map((f) => readFile(workspace.path(`out/layouts/${f}`), "utf8")),
    );
    for (const identifier of LAYOUTS)
      expect(contents).toContain(`<main data-layout="${identifier}">{{{body}}}</main>`);
    const plan = await runCli(["plan", "--detailed-exitcode", "--api-url", emulator.url], {
      cwd: workspace.path("out"),
      env: { NOTIFORM_API_KEY: emulator.apiKey },
    });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toContain("No changes.");
    // The same names on every export.
    const again = await createWorkspace();
    expect((await exportInto(again.dir)).code).toBe(0);
    expect((await readdir(again.path("out/layouts"))).sort()).toEqual([...files].sort());
  });
});
