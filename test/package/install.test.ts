// The package as users get it from the packed tarball, installed exactly as the README's
// "Install" section says (its second block, run through bash, offline): a shallow clone of the
// release tag, `npm ci && npm pack` there (the build runs as npm's `prepare`), then
// `npm install -D ./notiform-<version>.tgz` into an empty project, which then runs
// `npx --no -- notiform --help`. It lists no run-time dependencies: the bundle carries everything
// the CLI loads, even what it loads only on demand (diff for --verbose, listr2 on a terminal), so
// the tarball installs alone, offline, and each of those paths runs with nothing else in
// node_modules; the project's `npm ci` (what its CI runs) installs it again from the lockfile.
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";
import { ACME_BASE, type CliResult } from "../support/cli.js";
import { runOnPty } from "../support/pty.js";
import {
  createProject,
  createTaggedRepository,
  ROOT,
  readmeInstallBlocks,
  run,
  runAsUser,
} from "./release.js";

let emulator: EmulatorHandle | undefined;
let project = "";
let installed: CliResult;
let tarball: string[] = [];
let manifest: { version: string; dependencies?: Record<string, string> };

beforeAll(async () => {
  const repository = await createTaggedRepository();
  manifest = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8"));
  const block = (await readmeInstallBlocks())[1] ?? "";
  project = await createProject(repository.dir, "consumer");
  installed = await runAsUser(block, project, { NOTIFORM_REPO: repository.url });
  expect(installed.code, installed.stdout + installed.stderr).toBe(0);
  const listing = await run("tar", ["-tzf", `notiform-${manifest.version}.tgz`], project);
  tarball = listing.stdout.split("\n").flatMap((f) => (f ? [f.replace(/^package\//, "")] : []));
  emulator = await startEmulator({ seedFile: join(ROOT, "examples", "emulator-seed.yaml"), port: 0 });
}, 180_000);

/** A config that creates a topic and renames one of the seed's (the plan shows that as a diff). */
const RENAME = `version: 1
organization: Acme Inc
topics:
  - key: order-updates
    name: Order updates
  - key: legacy-alerts
    name: Legacy alerts, renamed
`;

const notiform = (args: string[], env: Record<string, string> = {}) =>
  run("npx", ["--no", "--", "notiform", ...args], project, env);

afterAll(async () => {
  await emulator?.close();
});

describe("the packed package", () => {
  it("builds on pack: the tarball ships the compiled CLI, bundled, and the licence", () => {
    const files = tarball;
    expect(files).toContain("LICENSE");
    expect(files).toContain("dist/bundle/main.js");
    expect(files).toContain("dist/bundle/load-worker.js");
    // What the CLI loads on demand is bundled too: nothing is left for node_modules.
    expect(files).toContain("dist/bundle/vendor/diff.js");
    expect(files).toContain("dist/bundle/vendor/listr2.js");
    // The schemas, compiled at build time, one file each, loaded on first use.
    expect(files).toContain("dist/bundle/validators/notiform.cjs");
    expect(files).toContain("dist/bundle/validators/state.cjs");
    // Only the bundle: tsc's per-module output is what the bundle is made from.
    expect(files.some((f: string) => f.startsWith("dist/") && !f.startsWith("dist/bundle/"))).toBe(false);
    expect(files).toContain("bin/notiform.js");
    expect(files).toContain("schemas/error.schema.json");
    expect(files.some((f: string) => f.startsWith("src/") || f.startsWith("test/"))).toBe(false);
  });

  it("ships the licence of every package whose code the bundle carries", async () => {
    const bundle = join(project, "node_modules", "notiform", "dist", "bundle");
    const notices = await readFile(join(bundle, "THIRD-PARTY-NOTICES.md"), "utf8");
    // Every chunk, not a list of names: how the bundler splits and names its chunks changes as
    // the code does (a module shared by two entry points can carry a package's code).
    const chunks = (await readdir(bundle, { recursive: true })).filter((f) => f.endsWith(".js"));
    expect(chunks).toContain("main.js");
    const code = await Promise.all(chunks.map((f) => readFile(join(bundle, f), "utf8")));
    // The bundler marks where each package's code begins: `// [...]node_modules/NAME/...`.
    const carried = new Set(
      code.flatMap((text) =>
        [...text.matchAll(/^\/\/ (?:.*\/)?node_modules\/((?:@[^/]+\/)?[^/]+)\//gm)].map((m) => m[1]),
      ),
    );
    expect(carried.size).toBeGreaterThan(10);
    for (const name of carried) expect(notices, name).toContain(`## ${name} `);
    // Each with its licence text, not just its name.
    expect(notices).not.toContain("ships no licence file");
    expect(notices).toMatch(/## yaml [\d.]+ \(ISC\)\n\nCopyright/);
  });

  it("installed into an empty project as the README says, its `npx --no -- notiform --help` runs", async () => {
    // The block's last line: notiform's help, not npm's.
    expect(installed.stdout).toContain("notiform <command> [options]");
    expect(installed.stdout).toContain("plan");
    const pkg = JSON.parse(await readFile(join(project, "package.json"), "utf8"));
    expect(pkg.devDependencies).toEqual({ notiform: `file:notiform-${manifest.version}.tgz` });
    // The clone the tarball was packed in is gone; the tarball stays, to be committed.
    expect((await readdir(project)).sort()).toEqual(
      ["node_modules", "package-lock.json", "package.json", `notiform-${manifest.version}.tgz`].sort(),
    );
  });

  it("`npm ci` (what the project's CI runs) installs it again from the lockfile, offline", async () => {
    const ci = await run("npm", ["ci"], project);
    expect(ci.code, ci.stderr).toBe(0);
    const result = await notiform(["--version"]);
    expect(result.stdout.trim()).toBe(manifest.version);
  }, 60_000);

  it("lists no run-time dependencies: notiform installs alone and `--version` runs", async () => {
    expect(manifest.dependencies ?? {}).toEqual({});
    const installed = (await readdir(join(project, "node_modules"))).filter((n) => !n.startsWith("."));
    expect(installed).toEqual(["notiform"]);
    const result = await notiform(["--version"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe(manifest.version);
  });

  it("validates a config with includes offline", async () => {
    await writeFile(join(project, "notiform.yaml"), `${ACME_BASE}include: [teams/*.yaml]\n`);
    await mkdir(join(project, "teams"), { recursive: true });
    await writeFile(join(project, "teams", "a.yaml"), "topics:\n  - key: team-a\n    name: Team A\n");
    const result = await notiform(["validate"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("3 topics");
  });

  it("plans against the emulator, --verbose with its unified diff", async () => {
    const handle = emulator as EmulatorHandle;
    await writeFile(join(project, "notiform.yaml"), RENAME);
    const env = { NOTIFORM_API_KEY: handle.apiKey };
    const result = await notiform(["plan", "--verbose", "--api-url", handle.url], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("+ topic order-updates");
    expect(result.stdout).toContain("--- topic/legacy-alerts (live)");
    expect(result.stdout + result.stderr).not.toContain(handle.apiKey);
  });

  it("applies on a terminal with its progress display", async () => {
    const handle = emulator as EmulatorHandle;
    await writeFile(join(project, "notiform.yaml"), RENAME);
    const pty = runOnPty(["apply", "--auto-approve", "--api-url", handle.url], {
      cwd: project,
      env: { NOTIFORM_API_KEY: handle.apiKey },
      bin: join(project, "node_modules", "notiform", "bin", "notiform.js"),
    });
    const code = await pty.exited;
    expect(code, pty.output()).toBe(0);
    // listr2 (loaded only on a terminal) drew the tasks.
    expect(pty.output()).toContain("✔ topics: 2/2");
    expect(pty.output()).toContain("Apply complete");
    expect(handle.store().topics.find((t) => t.key === "legacy-alerts")?.name).toBe("Legacy alerts, renamed");
  });
});
