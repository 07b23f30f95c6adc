// The repository on "GitHub": a local bare git repository whose `main` is protected by a
// pre-receive hook (any push to it is refused, as branch protection refuses it), and the harness's
// own working clone, through which it plays the people and GitHub's merge button. Only a push
// carrying GITHUB_MERGE_VARIABLE (the hook sees the pusher's environment over the local transport)
// may move `main`: that is the "merge pull request" path, never available to a workflow step.
import { execFile } from "node:child_process";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

export const GITHUB_MERGE_VARIABLE = "RECIPE_HARNESS_GITHUB_MERGE";

/** git with no user or system configuration: a fresh runner's git, plus the identity given. */
export function gitEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    HOME: home,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    LC_ALL: "C",
    ...extra,
  };
}

export function git(args: string[], cwd: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile("git", args, { cwd, env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`git ${args.join(" ")} failed in ${cwd}:\n${stderr}${stdout}`));
      else resolve(stdout);
    });
  });
}

const HOOK = `#!/bin/sh
# Branch protection of main: no direct pushes; only GitHub's own merge moves it.
while read -r old new ref; do
  if [ "$ref" = refs/heads/main ] && [ "\${${GITHUB_MERGE_VARIABLE}:-}" != 1 ]; then
    echo "error: GH006: Protected branch update failed for refs/heads/main." >&2
    echo "error: Changes must be made through a pull request." >&2
    exit 1
  fi
done
exit 0
`;

const PERSON = {
  GIT_AUTHOR_NAME: "Dana Developer",
  GIT_AUTHOR_EMAIL: "dana@example.com",
  GIT_COMMITTER_NAME: "GitHub",
  GIT_COMMITTER_EMAIL: "noreply@github.com",
};

export interface Remote {
  /** The bare repository, and its URL as a runner's checkout fetches it (file://: shallow works). */
  bare: string;
  url: string;
  /** The commit a ref points at in the remote, or undefined when the ref does not exist. */
  rev(ref: string): Promise<string | undefined>;
  /** A file's content at a ref of the remote. */
  show(ref: string, path: string): Promise<string>;
  /** The parents of a commit of the remote. */
  parents(commit: string): Promise<string[]>;
  /** Commit files to a new branch from main and merge it into main as GitHub would (merge commit). */
  mergeChange(branch: string, files: Record<string, string>, message: string): Promise<PushEvent>;
  /** Merge an existing remote branch into main with a merge commit (the branch is left behind). */
  mergeBranch(branch: string, message: string): Promise<PushEvent>;
  /**
   * Push a commit to a pull request's branch (made from main the first time) and let GitHub make
   * its test merge, refs/pull/N/merge, which the pull_request workflows run at.
   */
  pushToPull(
    number: number,
    branch: string,
    files: Record<string, string>,
    message: string,
  ): Promise<PullRequestEvent>;
}

/** What a push to a pull request hands the pull_request workflows. */
export interface PullRequestEvent {
  number: number;
  head: string;
  headSha: string;
  baseSha: string;
  mergeSha: string;
  changed: string[];
  /** From a fork: the run gets no secrets. */
  fork?: boolean;
}

/** What a push to main hands the workflows: the commits' range and the files they changed. */
export interface PushEvent {
  before: string;
  after: string;
  changed: string[];
}

export async function createRemote(root: string, initial: Record<string, string>): Promise<Remote> {
  const bare = join(root, "github", "acme", "notifications.git");
  const work = join(root, "people");
  const home = join(root, "people-home");
  await mkdir(bare, { recursive: true });
  await mkdir(work, { recursive: true });
  await mkdir(home, { recursive: true });
  const env = gitEnv(home, PERSON);
  await git(["init", "-q", "--bare", "-b", "main", bare], root, env);
  await writeFile(join(bare, "hooks", "pre-receive"), HOOK);
  await chmod(join(bare, "hooks", "pre-receive"), 0o755);
  const url = `file://${bare}`;
  await git(["init", "-q", "-b", "main", work], root, env);
  await git(["remote", "add", "origin", url], work, env);
  const merged = { ...env, [GITHUB_MERGE_VARIABLE]: "1" };

  const writeFiles = async (files: Record<string, string>) => {
    for (const [name, content] of Object.entries(files)) {
      await mkdir(dirname(join(work, name)), { recursive: true });
      await writeFile(join(work, name), content);
    }
  };
  await writeFiles(initial);
  await git(["add", "-A"], work, env);
  await git(["commit", "-q", "-m", "Initial commit"], work, env);
  await git(["push", "-q", "origin", "main"], work, merged);

  const rev = async (ref: string) => {
    const out = await git(["rev-parse", "-q", "--verify", `${ref}^{commit}`], bare, env).catch(() => "");
    return out.trim() || undefined;
  };
  const mainAt = async () => (await rev("refs/heads/main")) ?? "";

  /** Merge origin/<branch> into the newest main with a merge commit and push it as GitHub. */
  const merge = async (branch: string, message: string): Promise<PushEvent> => {
    const before = await mainAt();
    await git(["fetch", "-q", "origin", "+refs/heads/*:refs/remotes/origin/*"], work, env);
    await git(["checkout", "-q", "-f", "-B", "main", "origin/main"], work, env);
    await git(["merge", "-q", "--no-ff", "-m", message, `origin/${branch}`], work, env);
    await git(["push", "-q", "origin", "main"], work, merged);
    const after = await mainAt();
    const changed = (await git(["diff", "--name-only", before, after], bare, env))
      .split("\n")
      .filter(Boolean);
    return { before, after, changed };
  };

  return {
    bare,
    url,
    rev,
    show: (ref, path) => git(["show", `${ref}:${path}`], bare, env),
    parents: async (commit) =>
      (await git(["rev-list", "--parents", "-n", "1", commit], bare, env)).trim().split(" ").slice(1),
    mergeChange: async (branch, files, message) => {
      await git(["fetch", "-q", "origin", "+refs/heads/main:refs/remotes/origin/main"], work, env);
      await git(["checkout", "-q", "-f", "-B", branch, "origin/main"], work, env);
      await writeFiles(files);
      await git(["add", "-A"], work, env);
      await git(["commit", "-q", "-m", message], work, env);
      await git(["push", "-q", "origin", `${branch}:${branch}`], work, env);
      return merge(branch, `Merge pull request from acme/${branch}\n\n${message}`);
    },
    mergeBranch: (branch, message) => merge(branch, message),
    pushToPull: async (number, branch, files, message) => {
      await git(["fetch", "-q", "origin", "+refs/heads/*:refs/remotes/origin/*"], work, env);
      const start = (await rev(`refs/heads/${branch}`)) ? `origin/${branch}` : "origin/main";
      await git(["checkout", "-q", "-f", "-B", branch, start], work, env);
      await writeFiles(files);
      await git(["add", "-A"], work, env);
      await git(["commit", "-q", "-m", message], work, env);
      await git(["push", "-q", "origin", `${branch}:${branch}`], work, env);
      const baseSha = await mainAt();
      const headSha = (await rev(`refs/heads/${branch}`)) ?? "";
      await git(["checkout", "-q", "-f", "--detach", "origin/main"], work, env);
      await git(["merge", "-q", "--no-ff", "-m", `Merge ${headSha} into ${baseSha}`, branch], work, env);
      await git(["push", "-q", "-f", "origin", `HEAD:refs/pull/${number}/merge`], work, env);
      const mergeSha = (await rev(`refs/pull/${number}/merge`)) ?? "";
      const changed = (await git(["diff", "--name-only", `${baseSha}...${headSha}`], bare, env))
        .split("\n")
        .filter(Boolean);
      return { number, head: branch, headSha, baseSha, mergeSha, changed };
    },
  };
}

/** The content of a file in a local directory (a runner's workspace, after a job). */
export const readText = (path: string) => readFile(path, "utf8");
