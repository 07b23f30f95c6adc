// A stand-in for the GitHub CLI (`gh`), on a recipe run's PATH: the pull-request commands the
// recipes use, recorded in a JSON file the harness reads. It behaves as gh does where the recipes
// depend on it: it needs GH_TOKEN, finds the repository from the checkout's `origin`, `pr view
// BRANCH` answers the newest pull request of that head branch whatever its state, `pr create`
// refuses a second open pull request for one head, a head branch the remote lacks, and a head with
// no commits beyond the base. Anything else it does not know is refused (exit 2), never faked.
// GH_STANDIN_STORE (the JSON file) and GH_STANDIN_REMOTE (the bare repository) come from the
// wrapper the harness writes, not from the recipe.
import { execFileSync } from "node:child_process";
import { readFileSync, renameSync, writeFileSync } from "node:fs";

const STORE = process.env.GH_STANDIN_STORE ?? "";
const REMOTE = process.env.GH_STANDIN_REMOTE ?? "";
const FIELDS = ["number", "state", "title", "body", "headRefName", "baseRefName", "url"];

/** Refused as gh refuses: the message on stderr and the exit code, set once at the root below. */
class Refused extends Error {
  constructor(message, code) {
    super(message);
    this.code = code;
  }
}

function fail(message, code = 1) {
  throw new Refused(message, code);
}

const load = () => JSON.parse(readFileSync(STORE, "utf8"));
function save(store) {
  writeFileSync(`${STORE}.tmp`, JSON.stringify(store, null, 2));
  renameSync(`${STORE}.tmp`, STORE);
}

function bareGit(args) {
  return execFileSync("git", args, { cwd: REMOTE, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
}
const remoteHas = (branch) => {
  try {
    bareGit(["rev-parse", "-q", "--verify", `refs/heads/${branch}^{commit}`]);
    return true;
  } catch {
    return false;
  }
};

/** Flags: --name value, --name=value, and the few boolean ones gh has. */
function parseArgs(args, known, booleans = []) {
  const flags = {};
  const positionals = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (!arg.startsWith("-")) {
      positionals.push(arg);
      continue;
    }
    const [name, inline] = arg.replace(/^--?/, "").split(/=(.*)/s);
    const long = { B: "base", H: "head", t: "title", b: "body", s: "state", q: "jq" }[name] ?? name;
    if (booleans.includes(long)) {
      flags[long] = true;
      continue;
    }
    if (!known.includes(long)) fail(`gh stand-in: unsupported flag ${arg}`, 2);
    const value = inline ?? args[++i];
    if (value === undefined) fail(`flag needs an argument: ${arg}`, 2);
    flags[long] = value;
  }
  return { flags, positionals };
}

/** A jq subset: `.`, `.field`, `.[N]`, `.[]`, `length`, joined with `|`. */
function jq(value, expression) {
  let values = [value];
  for (const part of expression.split("|").map((p) => p.trim())) {
    if (part === "length") {
      values = values.map((v) => (Array.isArray(v) ? v.length : Object.keys(v ?? {}).length));
      continue;
    }
    if (!/^\.(\w+|\[\d*\])*$/.test(part) && part !== ".") fail(`gh stand-in: unsupported jq ${part}`, 2);
    for (const step of part.match(/\w+|\[\d*\]/g) ?? []) {
      if (step === "[]") values = values.flatMap((v) => v ?? []);
      else if (step.startsWith("[")) values = values.map((v) => v?.[Number(step.slice(1, -1))] ?? null);
      else values = values.map((v) => v?.[step] ?? null);
    }
  }
  return values.map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join("\n");
}

function print(value, flags) {
  if (flags.json === undefined) return false;
  const fields = flags.json.split(",");
  for (const field of fields) if (!FIELDS.includes(field)) fail(`Unknown JSON field: "${field}"`, 1);
  const pick = (pr) => Object.fromEntries(fields.map((f) => [f, pr[f]]));
  const picked = Array.isArray(value) ? value.map(pick) : pick(value);
  process.stdout.write(`${flags.jq !== undefined ? jq(picked, flags.jq) : JSON.stringify(picked)}\n`);
  return true;
}

/** A pull request by number, or by head branch (the newest, any state), or the current branch's. */
function find(store, selector) {
  const head = selector ?? execFileSync("git", ["branch", "--show-current"], { encoding: "utf8" }).trim();
  const pr = /^\d+$/.test(head)
    ? store.pulls.find((p) => p.number === Number(head))
    : store.pulls.filter((p) => p.headRefName === head).at(-1);
  if (!pr) fail(`no pull requests found for branch "${head}"`);
  return pr;
}

const commands = {
  view(store, args) {
    const { flags, positionals } = parseArgs(args, ["json", "jq"]);
    const pr = find(store, positionals[0]);
    if (!print(pr, flags)) process.stdout.write(`${pr.title} #${pr.number}\n${pr.state}\n${pr.url}\n`);
  },
  list(store, args) {
    const { flags } = parseArgs(args, ["json", "jq", "head", "base", "state", "limit"]);
    const state = (flags.state ?? "open").toUpperCase();
    const pulls = store.pulls
      .filter((p) => state === "ALL" || p.state === state)
      .filter((p) => flags.head === undefined || p.headRefName === flags.head)
      .filter((p) => flags.base === undefined || p.baseRefName === flags.base)
      .reverse();
    if (!print(pulls, flags))
      for (const p of pulls) process.stdout.write(`${p.number}\t${p.title}\t${p.headRefName}\t${p.state}\n`);
  },
  create(store, args) {
    const { flags, positionals } = parseArgs(args, ["base", "head", "title", "body", "body-file"]);
    if (positionals.length > 0) fail(`gh stand-in: unexpected argument ${positionals[0]}`, 2);
    const head = flags.head ?? execFileSync("git", ["branch", "--show-current"], { encoding: "utf8" }).trim();
    const base = flags.base ?? "main";
    if (flags.title === undefined) fail("must provide `--title` and `--body` when not running interactively");
    const body = flags["body-file"] !== undefined ? readFileSync(flags["body-file"], "utf8") : flags.body;
    if (body === undefined) fail("must provide `--title` and `--body` when not running interactively");
    const open = store.pulls.find(
      (p) => p.headRefName === head && p.baseRefName === base && p.state === "OPEN",
    );
    if (open) fail(`a pull request for branch "${head}" into branch "${base}" already exists:\n${open.url}`);
    if (!remoteHas(head))
      fail(
        `pull request create failed: GraphQL: Head sha can't be blank, No commits between ${base} and ${head}`,
      );
    if (bareGit(["rev-list", "--count", `refs/heads/${base}..refs/heads/${head}`]).trim() === "0")
      fail(`pull request create failed: GraphQL: No commits between ${base} and ${head} (createPullRequest)`);
    const number = store.next++;
    const url = `https://github.com/acme/notifications/pull/${number}`;
    store.pulls.push({
      number,
      state: "OPEN",
      title: flags.title,
      body,
      headRefName: head,
      baseRefName: base,
      url,
    });
    save(store);
    process.stdout.write(`${url}\n`);
  },
  edit(store, args) {
    const { flags, positionals } = parseArgs(args, ["title", "body", "body-file"]);
    const pr = find(store, positionals[0]);
    if (flags.title !== undefined) pr.title = flags.title;
    if (flags.body !== undefined) pr.body = flags.body;
    if (flags["body-file"] !== undefined) pr.body = readFileSync(flags["body-file"], "utf8");
    save(store);
    process.stdout.write(`${pr.url}\n`);
  },
  close(store, args) {
    const { positionals } = parseArgs(args, [], ["delete-branch"]);
    const pr = find(store, positionals[0]);
    if (pr.state !== "OPEN") fail(`Pull request #${pr.number} is already ${pr.state.toLowerCase()}`);
    pr.state = "CLOSED";
    save(store);
  },
};

function main(argv) {
  if (!process.env.GH_TOKEN && !process.env.GITHUB_TOKEN)
    fail("gh: To use GitHub CLI in a GitHub Actions workflow, set the GH_TOKEN environment variable.", 4);
  // `gh auth setup-git`: git asks gh for the token (GH_TOKEN of the git process, at the time it
  // runs) over HTTPS to github.com; nothing of the token is written. The recipes check out with
  // persist-credentials: false and authenticate only the steps that fetch or push this way.
  if (argv[0] === "auth") {
    if (argv[1] !== "setup-git" || argv.length > 2)
      fail(`gh stand-in: unsupported command: gh ${argv.join(" ")}`, 2);
    execFileSync("git", [
      "config",
      "--global",
      "credential.https://github.com.helper",
      "!gh auth git-credential",
    ]);
    return;
  }
  let origin = "";
  try {
    origin = execFileSync("git", ["remote", "get-url", "origin"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    fail("failed to run git: fatal: not a git repository (or any of the parent directories): .git");
  }
  if (origin !== `file://${REMOTE}`)
    fail(`none of the git remotes configured for this repository point to a known GitHub host`);
  const [group, command, ...rest] = argv;
  const run = group === "pr" ? commands[command] : undefined;
  if (!run) fail(`gh stand-in: unsupported command: gh ${argv.join(" ")}`, 2);
  run(load(), rest);
}

try {
  main(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof Refused)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exitCode = error.code;
}
