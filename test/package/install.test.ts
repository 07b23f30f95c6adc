// The package as users get it: `npm pack` on a clean checkout (no dist/) must build and ship the
// CLI, and the tarball must install into an empty project and run there. It lists no run-time
// dependencies: the bundle carries everything the CLI loads, even what it loads only on demand
// (diff for --verbose, listr2 on a terminal), so the tarball installs alone, offline, and each of
// those paths runs with nothing else in node_modules. The project gets a lockfile derived from
// ours. The checkout is copied so packing never rewrites the dist/ other tests run.
import { cp, mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";
import { ACME_BASE, type CliResult, runProcess } from "../support/cli.js";
import { runOnPty } from "../support/pty.js";

const ROOT = join(import.meta.dirname, "..", "..");
const SOURCES = [
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "tsconfig.build.json",
  "src",
  "scripts/bundle.mjs",
  "scripts/precompile-schemas.mjs",
  "scripts/third-party-notices.mjs",
];

function run(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<CliResult> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return runProcess(command, args, {
    cwd,
    env: { ...inherited, NO_COLOR: "1", npm_config_update_notifier: "false", ...env },
  });
}

/** A lockfile for a project depending only on the tarball: our lock's production entries. */
async function lockFor(tarball: string) {
  const lock = JSON.parse(await readFile(join(ROOT, "package-lock.json"), "utf8"));
  const self = lock.packages[""];
  const dependency = `file:${tarball}`;
  const packages: Record<string, unknown> = {
    "": { name: "consumer", dependencies: { notiform: dependency } },
  };
  for (const [path, entry] of Object.entries<{ dev?: boolean; link?: boolean }>(lock.packages)) {
    if (path !== "" && !entry.dev && !entry.link) packages[path] = entry;
  }
  packages["node_modules/notiform"] = {
    version: self.version,
    resolved: dependency,
    license: self.license,
    dependencies: self.dependencies,
    bin: self.bin,
    engines: self.engines,
  };
  return { name: "consumer", lockfileVersion: 3, requires: true, packages };
}

let emulator: EmulatorHandle | undefined;
let project = "";
let packed: CliResult;
let manifest: { version: string; dependencies?: Record<string, string> };

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), "notiform-pack-"));
  const checkout = join(dir, "checkout");
  manifest = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8"));
  const shipped = (manifest as unknown as { files: string[] }).files.filter(
    (name) => !name.startsWith("dist"),
  );
  for (const name of [...SOURCES, ...shipped])
    await cp(join(ROOT, name), join(checkout, name), { recursive: true });
  await symlink(join(ROOT, "node_modules"), join(checkout, "node_modules"), "dir");
  packed = await run("npm", ["pack", "--pack-destination", dir, "--json"], checkout);
  const tarball = join(dir, JSON.parse(packed.stdout)[0].filename);
  project = join(dir, "consumer");
  await mkdir(project);
  await writeFile(
    join(project, "package.json"),
    JSON.stringify({ name: "consumer", private: true, dependencies: { notiform: `file:${tarball}` } }),
  );
  await writeFile(join(project, "package-lock.json"), JSON.stringify(await lockFor(tarball), null, 2));
  const installed = await run("npm", ["ci", "--offline", "--no-audit", "--no-fund"], project);
  expect(installed.code, installed.stderr).toBe(0);
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
  it("builds on pack: the tarball ships the compiled CLI, bundled", () => {
    expect(packed.code, packed.stderr).toBe(0);
    const files = JSON.parse(packed.stdout)[0].files.map((f: { path: string }) => f.path);
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
    const code = await Promise.all(
      ["main.js", "load-messages.js", "vendor/diff.js", "vendor/listr2.js"].map((f) =>
        readFile(join(bundle, f), "utf8"),
      ),
    );
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

  it("installed into an empty project, `npx notiform --help` runs", async () => {
    const result = await run("npx", ["--no", "--", "notiform", "--help"], project);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("notiform <command> [options]");
    expect(result.stdout).toContain("plan");
  });

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
