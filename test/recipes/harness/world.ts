// Everything a recipe run reaches outside its own workspace, made once per test: the protected
// remote, the pull requests (the gh stand-in's record), the notiform release as the Action and as
// the package `npm ci` installs, and the tools on a runner's PATH (stand-ins for gh and npm, the
// real git, bash, node and npx).
import { chmod, cp, mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRemote, type PushEvent, type Remote } from "./remote.js";

export const ROOT = join(import.meta.dirname, "..", "..", "..");
export const REPOSITORY = "acme/notifications";

export interface PullRequest {
  number: number;
  state: "OPEN" | "CLOSED" | "MERGED";
  title: string;
  body: string;
  headRefName: string;
  baseRefName: string;
}

export interface Issue {
  number: number;
  state: "OPEN" | "CLOSED";
  title: string;
  body: string;
  labels: { name: string }[];
  author: { login: string };
  comments: { author: { login: string }; body: string }[];
}

export interface World {
  root: string;
  remote: Remote;
  /** The tools directory put first on every runner's PATH. */
  shims: string;
  /** notiform's release: the Action's checkout (action.yml at its root) and the installed package. */
  release: string;
  secrets: Record<string, string>;
  /** Variables every runner has (what a real run would get from the config or the organization). */
  runnerEnv: Record<string, string>;
  /**
   * The repository's configuration variables, the `vars` context (Settings > Variables): empty
   * unless a test sets them; an unset one reads as the empty string, as on GitHub.
   */
  vars: Record<string, string>;
  /** GitHub's REST API for the runs (a fake on 127.0.0.1), when a test has one. */
  githubApiUrl?: string;
  pulls(): Promise<PullRequest[]>;
  /** The repository's issues, oldest first (the gh stand-in's record). */
  issues(): Promise<Issue[]>;
  /** GitHub's merge button: merge the pull request's head into main (the branch stays). */
  mergePull(number: number): Promise<PushEvent>;
  nextRunId(): number;
  /** What runs uploaded with actions/upload-artifact: its name, the run, the files (relative paths). */
  artifacts: { name: string; runId: string; files: string[] }[];
}

/** The NOTIFORM_REPO a user of these recipes set: the npm stand-in never fetches it. */
const NOTIFORM_REPO = "https://git.example.com/notiform.git";

/**
 * The install spec README tells users to put in package.json (`npm install -D SPEC`, the first
 * one, with NOTIFORM_REPO set): the user's repository here pins exactly that, so the recipes and
 * the README cannot drift apart.
 */
export async function readmeInstallSpec(): Promise<string> {
  const readme = await readFile(join(ROOT, "README.md"), "utf8");
  const spec = /^npm install -D "([^"]+)"$/m.exec(readme)?.[1];
  if (spec === undefined) throw new Error('README.md shows no `npm install -D "..."` line');
  return spec.replace(/\$\{NOTIFORM_REPO(?::\?[^}]*)?\}/, NOTIFORM_REPO);
}

/**
 * The Action's checkout at a release tag: the files the Action runs plus the built dist/bundle,
 * and no node_modules: a release runs with nothing installed, as the Action and `npm ci` get it.
 */
async function makeRelease(dir: string): Promise<void> {
  for (const name of ["action.yml", "package.json", "bin", "schemas", "scripts/action.mjs", "dist/bundle"])
    await cp(join(ROOT, name), join(dir, name), { recursive: true });
}

const NPM_SHIM = (release: string, spec: string) => `#!/bin/sh
# npm stand-in: \`npm ci\` installs the lockfile's notiform (this harness's release, no registry).
set -e
if [ "$1" != ci ]; then echo "npm stand-in: unsupported: npm $*" >&2; exit 2; fi
[ -f package-lock.json ] || { echo "npm ERR! The \\\`npm ci\\\` command can only install with an existing package-lock.json" >&2; exit 1; }
pinned=$(node -e 'const p=require("./package.json"); process.stdout.write(String((p.devDependencies||{}).notiform||(p.dependencies||{}).notiform||""))')
if [ "$pinned" != ${JSON.stringify(spec)} ]; then echo "npm stand-in: notiform is pinned as '$pinned', not as README says" >&2; exit 1; fi
rm -rf node_modules
mkdir -p node_modules/.bin
ln -s ${JSON.stringify(release)} node_modules/notiform
ln -s ../notiform/bin/notiform.js node_modules/.bin/notiform
echo "added 1 package in 0s"
`;

export async function createWorld(
  files: Record<string, string>,
  secrets: Record<string, string>,
  runnerEnv: Record<string, string> = {},
  vars: Record<string, string> = {},
): Promise<World> {
  const root = await mkdtemp(join(tmpdir(), "notiform-recipes-"));
  const shims = join(root, "tools");
  const release = join(root, "release");
  await mkdir(shims, { recursive: true });
  await makeRelease(release);
  const spec = await readmeInstallSpec();
  const remote = await createRemote(root, files);
  const store = join(root, "pulls.json");
  await writeFile(store, JSON.stringify({ next: 1, pulls: [] }));
  const gh = join(import.meta.dirname, "gh.mjs");
  await writeFile(
    join(shims, "gh"),
    `#!/bin/sh\nGH_STANDIN_STORE=${JSON.stringify(store)} GH_STANDIN_REMOTE=${JSON.stringify(remote.bare)} exec ${JSON.stringify(process.execPath)} ${JSON.stringify(gh)} "$@"\n`,
  );
  await writeFile(join(shims, "npm"), NPM_SHIM(release, spec));
  await chmod(join(shims, "gh"), 0o755);
  await chmod(join(shims, "npm"), 0o755);
  let runs = 1000;
  const pulls = async () => (JSON.parse(await readFile(store, "utf8")) as { pulls: PullRequest[] }).pulls;
  const issues = async () => (JSON.parse(await readFile(store, "utf8")) as { issues?: Issue[] }).issues ?? [];
  return {
    root,
    remote,
    shims,
    release,
    secrets,
    runnerEnv,
    vars,
    pulls,
    issues,
    nextRunId: () => ++runs,
    artifacts: [],
    mergePull: async (number) => {
      const data = JSON.parse(await readFile(store, "utf8")) as { pulls: PullRequest[] };
      const pull = data.pulls.find((p) => p.number === number);
      if (pull?.state !== "OPEN") throw new Error(`pull request #${number} is not open`);
      const event = await remote.mergeBranch(
        pull.headRefName,
        `Merge pull request #${number} from acme/${pull.headRefName}\n\n${pull.title}`,
      );
      pull.state = "MERGED";
      await writeFile(store, JSON.stringify(data, null, 2));
      return event;
    },
  };
}
