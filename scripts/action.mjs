#!/usr/bin/env node
// The logic of the GitHub Action (action.yml): run notiform once, write the job summary, keep one
// sticky pull-request comment, set outputs. Plain Node (no dependencies) so it is tested locally
// with a fake GITHUB_* environment and a fake GitHub API on 127.0.0.1.
//
// Secrets: the API key arrives in NOTIFORM_ACTION_API_KEY and is handed to notiform only through
// the environment variable the config names; it is never put on a command line, printed, or
// written anywhere. notiform masks it in everything it prints.
import { spawn } from "node:child_process";
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const CLI = fileURLToPath(new URL("../bin/notiform.js", import.meta.url));
const COMMANDS = ["plan", "apply", "promote"];
/** GitHub refuses comments over 65,536 characters; keep a margin for the marker and notes. */
const MAX_BODY = 60_000;
/** Pages of 100 comments searched for ours: bounded, a PR with 5,000 comments is not normal. */
const MAX_PAGES = 50;

function inputs(env) {
  const command = (env.INPUT_COMMAND ?? "plan").trim();
  return {
    command,
    config: (env.INPUT_CONFIG ?? "").trim() || "notiform.yaml",
    environment: (env.INPUT_ENVIRONMENT ?? "").trim(),
    apiUrl: (env.INPUT_API_URL ?? "").trim(),
    keyVariable: (env.INPUT_API_KEY_VARIABLE ?? "").trim() || "NOTIFORM_API_KEY",
    key: env.NOTIFORM_ACTION_API_KEY ?? "",
    comment: (env.INPUT_COMMENT ?? "true").trim() !== "false",
    args: (env.INPUT_ARGS ?? "").split(/\s+/).filter(Boolean),
    preview: (env.INPUT_PREVIEW ?? "").trim(),
  };
}

/** The pull request of the event, and whether it comes from a fork (no secrets there). */
function pullRequestOf(env) {
  if (!env.GITHUB_EVENT_PATH) return undefined;
  const event = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, "utf8"));
  const pr = event.pull_request;
  if (!pr) return undefined;
  const head = pr.head?.repo?.full_name;
  const base = pr.base?.repo?.full_name ?? env.GITHUB_REPOSITORY;
  return { number: pr.number, fromFork: head !== undefined && head !== base };
}

function cliArgs(input) {
  const args = [input.command, "--config", input.config];
  if (input.environment) args.push("--env", input.environment);
  if (input.apiUrl) args.push("--api-url", input.apiUrl);
  if (input.command === "plan") args.push("--output", "markdown", "--detailed-exitcode");
  // No TTY in a job: apply and promote would refuse to ask. The workflow's review (the pull
  // request, a protected environment's approval) is the approval.
  if (input.command === "apply" || input.command === "promote") args.push("--auto-approve");
  return [...args, ...input.args];
}

/** `preview --changed` for the plan's changed messages, with the plan's config, environment and API. */
function previewArgs(input) {
  const args = ["preview", "--changed", "--config", input.config, "--out", input.preview];
  if (input.environment) args.push("--env", input.environment);
  if (input.apiUrl) args.push("--api-url", input.apiUrl);
  return args;
}

function runCli(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk) => {
      stderr += chunk;
      process.stderr.write(chunk);
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

const fence = (text) => `\`\`\`\n${text.replace(/```/g, "`\u200b``").trimEnd()}\n\`\`\``;
const truncate = (text) =>
  text.length <= MAX_BODY ? text : `${text.slice(0, MAX_BODY)}\n\n_Truncated: see the job log._\n`;

/** The markdown for the summary and the comment, success or failure. */
function render(input, result, ok, where) {
  const title = `notiform ${input.command}${input.environment ? ` (${input.environment})` : ""}`;
  if (input.command === "plan" && ok) return result.stdout;
  const status = ok ? "succeeded" : `failed (exit ${result.code})`;
  const output = [result.stdout, result.stderr].filter((t) => t.trim() !== "").join("\n");
  return `### ${title} ${status}\n\n${output ? fence(output) : "_No output._"}\n\n${where}\n`;
}

function markerOf(input) {
  return `<!-- notiform-action:${input.command}:${input.environment || "default"}:${input.config} -->`;
}

async function github(env, method, path, body) {
  const base = (env.GITHUB_API_URL ?? "https://api.github.com").replace(/\/+$/, "");
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${env.GITHUB_TOKEN}`,
      accept: "application/vnd.github+json",
      "x-github-api-version": "2022-11-28",
      ...(body ? { "content-type": "application/json" } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  if (!response.ok) throw new Error(`GitHub API ${method} ${path}: ${response.status}`);
  return response.status === 204 ? undefined : response.json();
}

/**
 * Who our comments are written by: the token's own user, or the Actions bot for the workflow's
 * GITHUB_TOKEN (an installation token, which GET /user refuses).
 */
async function ownLogin(env) {
  try {
    const user = await github(env, "GET", "/user");
    if (user && typeof user.login === "string") return user.login;
  } catch {
    // An installation token: its comments are the Actions bot's.
  }
  return "github-actions[bot]";
}

/**
 * Update our one comment, or create it. Ours means written by this token's identity AND starting
 * with the hidden marker: anyone can post a comment holding the marker, and editing theirs would
 * let them hide the plan (or have it refused, leaving no plan comment at all).
 */
async function stickyComment(env, number, marker, body) {
  const repo = env.GITHUB_REPOSITORY;
  const login = await ownLogin(env);
  for (let page = 1; page <= MAX_PAGES; page += 1) {
    const comments = await github(
      env,
      "GET",
      `/repos/${repo}/issues/${number}/comments?per_page=100&page=${page}`,
    );
    const mine = comments.find(
      (c) => c.user?.login === login && typeof c.body === "string" && c.body.startsWith(marker),
    );
    if (mine) return github(env, "PATCH", `/repos/${repo}/issues/comments/${mine.id}`, { body });
    if (comments.length < 100) break;
  }
  return github(env, "POST", `/repos/${repo}/issues/${number}/comments`, { body });
}

function report(env, { summary, outputs }) {
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, `${summary}\n`);
  if (env.GITHUB_OUTPUT) {
    const lines = Object.entries(outputs).map(([name, value]) => `${name}=${value}`);
    appendFileSync(env.GITHUB_OUTPUT, `${lines.join("\n")}\n`);
  }
}

async function main(env = process.env) {
  const input = inputs(env);
  if (!COMMANDS.includes(input.command)) {
    process.stderr.write(
      `::error::notiform action: command must be one of ${COMMANDS.join(", ")}, not "${input.command}"\n`,
    );
    return 1;
  }
  const pr = pullRequestOf(env);
  if (input.key === "") {
    if (pr?.fromFork) {
      const text = `### notiform ${input.command} skipped\n\nThis pull request comes from a fork. GitHub gives workflows run for forks no secrets, so there is no API key and notiform cannot reach the API. Nothing was planned or changed. A maintainer can review the change and run the plan from a branch of this repository.\n`;
      process.stderr.write(
        `::notice::notiform ${input.command} skipped: a pull request from a fork gets no secrets, so there is no API key.\n`,
      );
      report(env, { summary: text, outputs: { exitcode: "", "has-changes": "" } });
      return 0;
    }
    process.stderr.write(
      `::error::notiform action: the api-key input is empty. Pass it from a secret (api-key: \${{ secrets.NOTIFORM_API_KEY }}) and check the secret exists in this repository or environment.\n`,
    );
    return 1;
  }
  const childEnv = { ...env, [input.keyVariable]: input.key };
  delete childEnv.NOTIFORM_ACTION_API_KEY;
  const result = await runCli(cliArgs(input), childEnv);
  const ok = input.command === "plan" ? result.code === 0 || result.code === 2 : result.code === 0;
  const run = env.GITHUB_RUN_ID
    ? `[Run ${env.GITHUB_RUN_ID}](${env.GITHUB_SERVER_URL ?? "https://github.com"}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID})`
    : "";
  // The changed messages rendered, for the workflow to upload: a message that does not render is
  // shown as such in the site, so only a folder that was not written at all is left out.
  let previewDir = "";
  if (input.preview && input.command === "plan" && result.code === 2) {
    await runCli(previewArgs(input), childEnv);
    if (existsSync(join(input.preview, "index.html"))) previewDir = input.preview;
  }
  const artifacts = env.GITHUB_RUN_ID
    ? `${env.GITHUB_SERVER_URL ?? "https://github.com"}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}#artifacts`
    : "";
  const previewNote =
    previewDir && artifacts
      ? `\nRendered messages (before and after): download **${previewDir}** from [this run's artifacts](${artifacts}) and open index.html.\n`
      : "";
  const body = truncate(render(input, result, ok, run) + previewNote);
  report(env, {
    summary: body,
    outputs: {
      exitcode: String(result.code),
      "has-changes": String(input.command === "plan" && result.code === 2),
      "preview-dir": previewDir,
    },
  });
  if (pr && input.comment && env.GITHUB_TOKEN) {
    try {
      await stickyComment(env, pr.number, markerOf(input), `${markerOf(input)}\n${body}`);
    } catch (error) {
      // A read-only token (forks, restricted permissions) must not turn a good plan red.
      process.stderr.write(
        `::warning::notiform action: could not update the pull-request comment: ${error.message}\n`,
      );
    }
  }
  if (!ok)
    process.stderr.write(
      `::error::notiform ${input.command} failed (exit ${result.code}); see the log above.\n`,
    );
  return ok ? 0 : 1;
}

process.exitCode = await main();
