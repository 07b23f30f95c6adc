// A stand-in for actions/github-script: runs a step's `script` as the action does (an async
// function body given `require`, `github`, `context` and `core`) in the step's working directory,
// with `github` an Octokit-shaped client of the few REST routes the recipes call, sent to
// GITHUB_API_URL (the harness's fake GitHub on 127.0.0.1). A route it does not know throws.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const MAX_PAGES = 50;
const env = process.env;
const [owner, repo] = (env.GITHUB_REPOSITORY ?? "/").split("/");
const payload = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH ?? "", "utf8"));

async function request(method, path, body) {
  const response = await fetch(`${env.GITHUB_API_URL}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${env.INPUT_GITHUB_TOKEN}`,
      accept: "application/vnd.github+json",
      ...(body ? { "content-type": "application/json" } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const data = await response.json();
  if (!response.ok) throw new Error(`HttpError: ${data.message ?? response.status} (${method} ${path})`);
  return { status: response.status, data };
}

const routes = {
  issues: {
    listComments: ({ owner, repo, issue_number, per_page = 30, page = 1 }) =>
      request(
        "GET",
        `/repos/${owner}/${repo}/issues/${issue_number}/comments?per_page=${per_page}&page=${page}`,
      ),
    createComment: ({ owner, repo, issue_number, body }) =>
      request("POST", `/repos/${owner}/${repo}/issues/${issue_number}/comments`, { body }),
    updateComment: ({ owner, repo, comment_id, body }) =>
      request("PATCH", `/repos/${owner}/${repo}/issues/comments/${comment_id}`, { body }),
  },
};

const strict = (object, path) =>
  new Proxy(object, {
    get(target, key) {
      if (typeof key !== "string" || key in target) return target[key];
      throw new Error(`the github-script stand-in has no github.${[...path, key].join(".")}`);
    },
  });

const github = {
  rest: strict(Object.fromEntries(Object.entries(routes).map(([k, v]) => [k, strict(v, ["rest", k])])), [
    "rest",
  ]),
  async paginate(route, params) {
    let all = [];
    for (let page = 1; page <= MAX_PAGES; page += 1) {
      const { data } = await route({ ...params, per_page: 100, page });
      all = all.concat(data);
      if (data.length < 100) return all;
    }
    throw new Error("the github-script stand-in stops after 50 pages");
  },
};

const context = {
  repo: { owner, repo },
  issue: { owner, repo, number: payload.pull_request?.number ?? payload.issue?.number },
  payload,
  eventName: env.GITHUB_EVENT_NAME,
  sha: env.GITHUB_SHA,
  ref: env.GITHUB_REF,
  runId: Number(env.GITHUB_RUN_ID),
};
const core = {
  setFailed(message) {
    process.stderr.write(`::error::${message}\n`);
    process.exitCode = 1;
  },
  info: (message) => process.stdout.write(`${message}\n`),
  warning: (message) => process.stdout.write(`::warning::${message}\n`),
};

const script = readFileSync(process.argv[2] ?? "", "utf8");
const AsyncFunction = (async () => {}).constructor;
try {
  await new AsyncFunction("require", "github", "context", "core", script)(
    createRequire(join(process.cwd(), "github-script.js")),
    github,
    context,
    core,
  );
} catch (error) {
  process.stderr.write(`::error::Unhandled error: ${error.message}\n`);
  process.exitCode = 1;
}
