// A notiform release as a user reaches it, for the package tests: the working tree (tracked and
// new files, as they are now) committed to a local bare git repository and tagged v<version>,
// which is what a user's NOTIFORM_REPO points at; and the README's "Install" commands, run
// through bash exactly as written, in an empty project, offline (npm answers from its cache).
import { cp, mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type CliResult, runProcess } from "../support/cli.js";

export const ROOT = join(import.meta.dirname, "..", "..");

/** The environment a user's shell has, offline, without colour or npm's update check. */
export function userEnv(extra: Record<string, string> = {}): Record<string, string> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && !entry[0].startsWith("NOTIFORM_"),
    ),
  );
  return {
    ...inherited,
    NO_COLOR: "1",
    npm_config_offline: "true",
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
    ...extra,
  };
}

export function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  return runProcess(command, args, { cwd, env: userEnv(env) });
}

/** A shell script as a user pastes it: bash, stopping at the first failing command. */
export function runAsUser(script: string, cwd: string, env: Record<string, string> = {}): Promise<CliResult> {
  return run("bash", ["-e", "-o", "pipefail", "-c", script], cwd, env);
}

const GIT_ENV = {
  GIT_AUTHOR_NAME: "Release",
  GIT_AUTHOR_EMAIL: "release@example.com",
  GIT_COMMITTER_NAME: "Release",
  GIT_COMMITTER_EMAIL: "release@example.com",
  GIT_CONFIG_NOSYSTEM: "1",
};

async function git(args: string[], cwd: string): Promise<string> {
  const result = await run("git", args, cwd, GIT_ENV);
  if (result.code !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr}`);
  return result.stdout;
}

export interface TaggedRepository {
  /** The bare repository's URL (file://), what NOTIFORM_REPO is set to. */
  url: string;
  /** The package version, and the commit its tag v<version> points at. */
  version: string;
  commit: string;
  /** A scratch directory beside it for the test's projects. */
  dir: string;
}

/** The working tree committed to a fresh bare repository, tagged v<package version>. */
export async function createTaggedRepository(): Promise<TaggedRepository> {
  const dir = await mkdtemp(join(tmpdir(), "notiform-release-"));
  const work = join(dir, "work");
  await mkdir(work);
  const listed = await git(["ls-files", "-z", "--cached", "--others", "--exclude-standard"], ROOT);
  for (const file of new Set(listed.split("\0").filter(Boolean)))
    await cp(join(ROOT, file), join(work, file)).catch((error: NodeJS.ErrnoException) => {
      // A tracked file deleted in the working tree is not part of it.
      if (error.code !== "ENOENT") throw error;
    });
  const version = JSON.parse(await readFile(join(work, "package.json"), "utf8")).version as string;
  await git(["init", "-q", "-b", "main"], work);
  await git(["add", "-A"], work);
  await git(["commit", "-q", "-m", `Release v${version}`], work);
  await git(["tag", `v${version}`], work);
  const bare = join(dir, "notiform.git");
  await git(["clone", "-q", "--bare", work, bare], dir);
  const commit = (await git(["rev-parse", "HEAD"], work)).trim();
  return { url: pathToFileURL(bare).href, version, commit, dir };
}

/** An empty project that will hold a user's config: a package.json and nothing else. */
export async function createProject(parent: string, name: string): Promise<string> {
  const project = join(parent, name);
  await mkdir(project);
  await writeFile(join(project, "package.json"), `${JSON.stringify({ name, private: true }, null, 2)}\n`);
  return project;
}

/** The shell blocks of the README's "Install" section, in order: the git URL, then the tarball. */
export async function readmeInstallBlocks(): Promise<string[]> {
  const readme = await readFile(join(ROOT, "README.md"), "utf8");
  const section = /^## Install\n([\s\S]*?)(?=^## )/m.exec(readme)?.[1] ?? "";
  return [...section.matchAll(/^```sh\n([\s\S]*?)^```/gm)].map((m) => m[1] ?? "");
}
