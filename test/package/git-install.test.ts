// Installing from git at a release tag, as the README's "Install" section says (its first block,
// run through bash exactly as written): npm clones the tag, installs the build tools and runs the
// `prepare` script, which builds the bundle the CLI runs; without it the install "succeeded" and
// every run failed with ERR_MODULE_NOT_FOUND dist/bundle/main.js. The repository is the working
// tree committed to a local bare repository and tagged v<version>; npm runs offline, from its
// cache. One install is shared by every assertion (it is the slow part).
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";
import type { CliResult } from "../support/cli.js";
import {
  createProject,
  createTaggedRepository,
  ROOT,
  readmeInstallBlocks,
  run,
  runAsUser,
  type TaggedRepository,
} from "./release.js";

let repository: TaggedRepository;
let block = "";
let project = "";
let installed: CliResult;
let emulator: EmulatorHandle | undefined;

beforeAll(async () => {
  repository = await createTaggedRepository();
  block = (await readmeInstallBlocks())[0] ?? "";
  project = await createProject(repository.dir, "consumer");
  installed = await runAsUser(block, project, { NOTIFORM_REPO: repository.url });
  emulator = await startEmulator({ seedFile: join(ROOT, "examples", "emulator-seed.yaml"), port: 0 });
}, 240_000);

afterAll(async () => {
  await emulator?.close();
});

const notiform = (args: string[], env: Record<string, string> = {}) =>
  run("npx", ["--no", "--", "notiform", ...args], project, env);

describe("installed from a git tag, as the README says", () => {
  it("installs, builds, and the README's `npx --no -- notiform --help` shows notiform's help", async () => {
    expect(installed.code, installed.stdout + installed.stderr).toBe(0);
    expect(installed.stdout).toContain("notiform <command> [options]");
    expect(installed.stdout).not.toContain("npm exec");
    const pkg = JSON.parse(await readFile(join(project, "package.json"), "utf8"));
    expect(pkg.devDependencies).toEqual({ notiform: `git+${repository.url}#v${repository.version}` });
    // The lockfile pins the tag's commit: `npm ci` installs exactly this version.
    const lock = JSON.parse(await readFile(join(project, "package-lock.json"), "utf8"));
    expect(lock.packages["node_modules/notiform"].resolved).toBe(
      `git+${repository.url}#${repository.commit}`,
    );
    const result = await notiform(["--version"]);
    expect(result.stdout.trim()).toBe(repository.version);
  });

  it("refuses to run with NOTIFORM_REPO unset, naming it, before npm is asked anything", async () => {
    const elsewhere = await createProject(repository.dir, "unset");
    const result = await runAsUser(block, elsewhere);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("NOTIFORM_REPO: set it to the notiform git URL");
    expect(
      JSON.parse(await readFile(join(elsewhere, "package.json"), "utf8")).devDependencies,
    ).toBeUndefined();
  });

  it("plans and applies against the emulator, and the next plan is empty", async () => {
    const handle = emulator as EmulatorHandle;
    await writeFile(
      join(project, "notiform.yaml"),
      "version: 1\norganization: Acme Inc\ntopics:\n  - key: order-updates\n    name: Order updates\n",
    );
    const env = { NOTIFORM_API_KEY: handle.apiKey, NOTIFORM_API_URL: handle.url };
    const plan = await notiform(["plan", "--detailed-exitcode"], env);
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).toContain("+ topic order-updates");
    const apply = await notiform(["apply", "--auto-approve"], env);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    const again = await notiform(["plan", "--detailed-exitcode"], env);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(handle.store().topics.filter((t) => t.key === "order-updates")).toHaveLength(1);
  });

  it("`npm ci` (what the project's CI runs) clones the locked commit and builds it again", async () => {
    await rm(join(project, "node_modules"), { recursive: true, force: true });
    const ci = await run("npm", ["ci"], project);
    expect(ci.code, ci.stderr).toBe(0);
    const result = await notiform(["--help"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("notiform <command> [options]");
  }, 180_000); // a clone, an install of the build tools and a build: the slowest step here
});
