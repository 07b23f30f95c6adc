// A stand-in for the GitHub CLI (`gh`), on a recipe run's PATH: the pull-request, issue and label
// commands the recipes use, recorded in a JSON file the harness reads. It behaves as gh does where
// the recipes depend on it: it needs GH_TOKEN, finds the repository from the checkout's `origin`,
// `pr view BRANCH` answers the newest pull request of that head branch whatever its state, `pr
// create` refuses a second open pull request for one head, a head branch the remote lacks, and a
// head with no commits beyond the base; issues and pull requests share one numbering, lists come
// newest first, `issue create --label` refuses a label the repository does not have (`label
// create` makes it; again only with --force), `issue close` refuses a closed issue. What a run's
// token creates is authored by app/github-actions. Anything else it does not know is refused
// (exit 2), never faked.
// GH_STANDIN_STORE (the JSON file) and GH_STANDIN_REMOTE (the bare repository) come from the
// wrapper the harness writes, not from the recipe.
import { execFileSync } from "node:child_process";
import { readFileSync, renameSync, writeFileSync } from "node:fs";

const STORE = process.env.GH_STANDIN_STORE ?? "";
const REMOTE = process.env.GH_STANDIN_REMOTE ?? "";
const FIELDS = ["number", "state", "title", "body", "headRefName", "baseRefName", "url"];
const ISSUE_FIELDS = ["number", "state", "title", "body", "labels", "author", "url", "comments"];
/** Who a workflow run's token acts as (gh's --author value and JSON login for the Actions bot). */
const RUN_AUTHOR = "app/github-actions";

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

const load = () => ({ issues: [], labels: [], ...JSON.parse(readFileSync(STORE, "utf8")) });
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
    const long =
      {
        B: "base",
        H: "head",
        t: "title",
        b: "body",
        s: "state",
        q: "jq",
        l: "label",
        A: "author",
        F: "body-file",
        c: "comment",
        L: "limit",
      }[name] ?? name;
    if (booleans.includes(long)) {
      flags[long] = true;
      continue;
    }
    if (!known.includes(long)) fail(`gh stand-in: unsupported flag ${arg}`, 2);
    const value = inline ?? args[++i];
    if (value === undefined) fail(`flag needs an argument: ${arg}`, 2);
    // --label may repeat, and each may list several, comma-separated, as gh takes them.
    flags[long] = long === "label" ? [...(flags.label ?? []), ...value.split(",")] : value;
  }
  return { flags, positionals };
}

/** A jq subset: `.`, `.field`, `.[N]`, `.[]` (chained: `.[0].number`), `length`, joined with `|`. */
function jq(value, expression) {
  let values = [value];
  for (const part of expression.split("|").map((p) => p.trim())) {
    if (part === "length") {
      values = values.map((v) => (Array.isArray(v) ? v.length : Object.keys(v ?? {}).length));
      continue;
    }
    if (!/^\.(\w+|\[\d*\])?(\.\w+|\.?\[\d*\])*$/.test(part)) fail(`gh stand-in: unsupported jq ${part}`, 2);
    for (const step of part.match(/\w+|\[\d*\]/g) ?? []) {
      if (step === "[]") values = values.flatMap((v) => v ?? []);
      else if (step.startsWith("[")) values = values.map((v) => v?.[Number(step.slice(1, -1))] ?? null);
      else values = values.map((v) => v?.[step] ?? null);
    }
  }
  // As gh prints --jq results: a string raw, null as an empty line, anything else as JSON.
  return values.map((v) => `${typeof v === "string" ? v : v === null ? "" : JSON.stringify(v)}\n`).join("");
}

function print(value, flags, known = FIELDS) {
  if (flags.json === undefined) return false;
  const fields = flags.json.split(",");
  for (const field of fields) if (!known.includes(field)) fail(`Unknown JSON field: "${field}"`, 1);
  const pick = (pr) => Object.fromEntries(fields.map((f) => [f, pr[f]]));
  const picked = Array.isArray(value) ? value.map(pick) : pick(value);
  process.stdout.write(flags.jq !== undefined ? jq(picked, flags.jq) : `${JSON.stringify(picked)}\n`);
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

/** An issue by number, as `gh issue edit/close N` takes it. */
function findIssue(store, selector) {
  const issue = /^\d+$/.test(selector ?? "")
    ? store.issues.find((i) => i.number === Number(selector))
    : undefined;
  if (!issue) fail(`GraphQL: Could not resolve to an issue or pull request with the number of ${selector}.`);
  return issue;
}

function bodyOf(flags) {
  return flags["body-file"] !== undefined ? readFileSync(flags["body-file"], "utf8") : flags.body;
}

function checkLabels(store, names = []) {
  for (const name of names)
    if (!store.labels.some((l) => l.name === name)) fail(`could not add label: '${name}' not found`);
}

const issueCommands = {
  list(store, args) {
    const { flags } = parseArgs(args, ["json", "jq", "state", "label", "author", "limit"]);
    const state = (flags.state ?? "open").toUpperCase();
    if (!["OPEN", "CLOSED", "ALL"].includes(state))
      fail(`invalid argument "${flags.state}" for "--state"`, 1);
    const issues = store.issues
      .filter((i) => state === "ALL" || i.state === state)
      .filter((i) => (flags.label ?? []).every((name) => i.labels.some((l) => l.name === name)))
      .filter((i) => flags.author === undefined || i.author.login === flags.author)
      .reverse()
      .slice(0, Number(flags.limit ?? 30));
    if (!print(issues, flags, ISSUE_FIELDS))
      for (const i of issues) process.stdout.write(`${i.number}\t${i.state}\t${i.title}\n`);
  },
  create(store, args) {
    const { flags, positionals } = parseArgs(args, ["title", "body", "body-file", "label"]);
    if (positionals.length > 0) fail(`gh stand-in: unexpected argument ${positionals[0]}`, 2);
    const body = bodyOf(flags);
    if (flags.title === undefined || body === undefined)
      fail("must provide `--title` and `--body` (or `--body-file`) when not running interactively");
    checkLabels(store, flags.label);
    const number = store.next++;
    const url = `https://github.com/acme/notifications/issues/${number}`;
    const labels = (flags.label ?? []).map((name) => ({ name }));
    store.issues.push({
      number,
      state: "OPEN",
      title: flags.title,
      body,
      labels,
      author: { login: RUN_AUTHOR },
      url,
      comments: [],
    });
    save(store);
    process.stdout.write(`${url}\n`);
  },
  edit(store, args) {
    const { flags, positionals } = parseArgs(args, ["title", "body", "body-file", "add-label"]);
    const issue = findIssue(store, positionals[0]);
    if (flags.title !== undefined) issue.title = flags.title;
    const body = bodyOf(flags);
    if (body !== undefined) issue.body = body;
    if (flags["add-label"] !== undefined) {
      const names = flags["add-label"].split(",");
      checkLabels(store, names);
      for (const name of names) if (!issue.labels.some((l) => l.name === name)) issue.labels.push({ name });
    }
    save(store);
    process.stdout.write(`${issue.url}\n`);
  },
  close(store, args) {
    const { flags, positionals } = parseArgs(args, ["comment", "reason"]);
    const issue = findIssue(store, positionals[0]);
    if (issue.state !== "OPEN") fail(`Issue #${issue.number} (${issue.title}) is already closed`);
    if (flags.comment !== undefined)
      issue.comments.push({ author: { login: RUN_AUTHOR }, body: flags.comment });
    issue.state = "CLOSED";
    save(store);
  },
};

const labelCommands = {
  create(store, args) {
    const { flags, positionals } = parseArgs(args, ["color", "description"], ["force"]);
    const name = positionals[0];
    if (name === undefined) fail("cannot create label: name argument required", 1);
    const existing = store.labels.find((l) => l.name === name);
    if (existing && !flags.force)
      fail(`label with name "${name}" already exists; use \`--force\` to update its color and description`);
    const label = { name, color: flags.color ?? "ededed", description: flags.description ?? "" };
    if (existing) Object.assign(existing, label);
    else store.labels.push(label);
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
  const groups = { pr: commands, issue: issueCommands, label: labelCommands };
  const run =
    Object.hasOwn(groups, group) && Object.hasOwn(groups[group], command)
      ? groups[group][command]
      : undefined;
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
