// A workflow run, as GitHub starts one for an event: the workflow file as committed at the
// event's commit, its trigger filter, its jobs in `needs` order (a job whose needs did not all
// succeed is skipped, as its default `if: success()` says), each on a fresh runner (its own
// workspace, temp directory and home), a job with `environment:` waiting for the approval the
// test gives, and job outputs evaluated after the job's steps.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { parse } from "yaml";
import { type Contexts, condition, interpolate, type JobStatus, type Value } from "./expressions.js";
import type { PullRequestEvent, PushEvent } from "./remote.js";
import { type JobScope, runStep, type Step, type StepRecord } from "./steps.js";
import { eventTriggers } from "./triggers.js";
import { REPOSITORY, type World } from "./world.js";

interface Job {
  needs?: string | string[];
  if?: string;
  environment?: string | { name: string };
  env?: Record<string, string>;
  outputs?: Record<string, string>;
  steps: Step[];
}

interface Workflow {
  on: unknown;
  env?: Record<string, string>;
  jobs: Record<string, Job>;
}

export interface JobRun {
  result: "success" | "failure" | "skipped";
  steps: StepRecord[];
  outputs: Record<string, string>;
  summary: string;
  workspace: string;
  /** The environment whose approval the job waited for, when it has one. */
  environment?: string;
}

export interface WorkflowRun {
  triggered: boolean;
  jobs: Record<string, JobRun>;
  /** Every step's name, outcome and output: the message of a failing assertion. */
  log(): string;
}

export interface RunOptions {
  /** The reviewer of a protected environment: true approves the job waiting for it. */
  approve?: (environment: string, job: string) => boolean;
}

function needsOf(job: Job): string[] {
  return job.needs === undefined ? [] : Array.isArray(job.needs) ? job.needs : [job.needs];
}

/** The runner's PATH: the stand-ins first, then node's directory (npx) and the system's tools. */
function runnerPath(world: World): string {
  return [world.shims, dirname(process.execPath), "/usr/local/bin", "/usr/bin", "/bin"].join(":");
}

async function runJob(
  world: World,
  name: string,
  job: Job,
  workflow: Workflow,
  github: Record<string, Value>,
  needs: Record<string, Value>,
  runDir: string,
  secrets: Record<string, string>,
): Promise<JobRun> {
  const dir = join(runDir, name);
  const workspace = join(dir, "work", "notifications");
  const temp = join(dir, "temp");
  const home = join(dir, "home");
  for (const d of [workspace, temp, home]) await mkdir(d, { recursive: true });
  const eventPath = join(temp, "event.json");
  await writeFile(eventPath, JSON.stringify(github.event));
  const jobGithub = { ...github, workspace, job: name };
  const base: Contexts = {
    github: jobGithub,
    secrets,
    needs,
    runner: { temp, os: "Linux" },
    vars: world.vars,
    steps: {},
    env: {},
  };
  const env = Object.fromEntries(
    Object.entries({ ...workflow.env, ...job.env }).map(([k, v]) => [
      k,
      interpolate(String(v), { contexts: base }),
    ]),
  );
  const processEnv: Record<string, string> = {
    PATH: runnerPath(world),
    HOME: home,
    CI: "true",
    GITHUB_ACTIONS: "true",
    GITHUB_WORKSPACE: workspace,
    GITHUB_REPOSITORY: REPOSITORY,
    GITHUB_EVENT_NAME: String(github.event_name),
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_SHA: String(github.sha),
    GITHUB_REF: String(github.ref),
    GITHUB_RUN_ID: String(github.run_id),
    GITHUB_RUN_ATTEMPT: "1",
    GITHUB_JOB: name,
    GITHUB_SERVER_URL: "https://github.com",
    // Nothing in a recipe run may reach GitHub's API: the gh stand-in needs none, and a port-9
    // loopback address fails fast for anything that tries.
    GITHUB_API_URL: world.githubApiUrl ?? "http://127.0.0.1:9",
    RUNNER_TEMP: temp,
    RUNNER_OS: "Linux",
    GIT_CONFIG_NOSYSTEM: "1",
    // npx must find notiform in node_modules/.bin and never ask a registry.
    npm_config_offline: "true",
    npm_config_update_notifier: "false",
    // A run whose API URL ends up unset would go to the hosted API: every https:// request goes
    // to a closed loopback port instead (the emulator, http://127.0.0.1, is reached directly).
    HTTPS_PROXY: "http://127.0.0.1:9",
    ...world.runnerEnv,
    ...env,
  };
  const scope: JobScope = {
    world,
    workspace,
    temp,
    processEnv,
    contexts: { ...base, env },
    steps: {},
    addedEnv: {},
    summary: [],
    counter: { n: 0 },
  };
  const records: StepRecord[] = [];
  let status: JobStatus = "success";
  for (const step of job.steps) {
    const record = await runStep(scope, step, processEnv, status);
    records.push(record);
    if (record.outcome === "failure" && !step["continue-on-error"]) status = "failure";
  }
  const contexts = { ...scope.contexts, steps: scope.steps as unknown as Value };
  const outputs = Object.fromEntries(
    Object.entries(job.outputs ?? {}).map(([k, v]) => [k, interpolate(v, { contexts })]),
  );
  return {
    result: status === "success" ? "success" : "failure",
    steps: records,
    outputs,
    summary: scope.summary.join(""),
    workspace,
  };
}

/** What GitHub hands a run: its event, the commit it runs at, and what decides whether it runs. */
interface Trigger {
  eventName: "push" | "pull_request" | "schedule" | "workflow_dispatch";
  payload: Record<string, Value>;
  sha: string;
  ref: string;
  /** The branch the filters look at (the pushed branch, or the pull request's base). */
  branch: string;
  changed: string[];
  /** Secrets the run gets: none for a pull request from a fork. */
  secrets: Record<string, string>;
  extra?: Record<string, Value>;
}

/** Run the workflow `path` of the repository for a push to main, if its trigger selects it. */
export function runPush(world: World, path: string, push: PushEvent, options: RunOptions = {}) {
  return runWorkflow(
    world,
    path,
    {
      eventName: "push",
      payload: {
        ref: "refs/heads/main",
        before: push.before,
        after: push.after,
        repository: { full_name: REPOSITORY, default_branch: "main" },
      },
      sha: push.after,
      ref: "refs/heads/main",
      branch: "main",
      changed: push.changed,
      secrets: world.secrets,
      extra: { ref_name: "main" },
    },
    options,
  );
}

/** Run the workflow `path` for a pull request's push (opened or synchronize), at its merge commit. */
export function runPullRequest(world: World, path: string, pull: PullRequestEvent, options: RunOptions = {}) {
  const headRepo = pull.fork ? "someone/notifications" : REPOSITORY;
  return runWorkflow(
    world,
    path,
    {
      eventName: "pull_request",
      payload: {
        action: "synchronize",
        number: pull.number,
        pull_request: {
          number: pull.number,
          head: { ref: pull.head, sha: pull.headSha, repo: { full_name: headRepo } },
          base: { ref: "main", sha: pull.baseSha, repo: { full_name: REPOSITORY } },
        },
        repository: { full_name: REPOSITORY, default_branch: "main" },
      },
      sha: pull.mergeSha,
      ref: `refs/pull/${pull.number}/merge`,
      branch: "main",
      changed: pull.changed,
      // GitHub passes no secrets to a workflow run for a pull request from a fork.
      secrets: pull.fork ? {} : world.secrets,
      extra: { head_ref: pull.head, base_ref: "main" },
    },
    options,
  );
}

/**
 * Run the workflow `path` as GitHub starts it on its schedule: the file on the default branch's
 * newest commit, with the cron expression it names (its first, when it names several).
 */
export async function runSchedule(world: World, path: string, options: RunOptions = {}) {
  const sha = (await world.remote.rev("refs/heads/main")) ?? "";
  const on = (parse(await world.remote.show(sha, path)) as Workflow).on as Record<string, unknown>;
  const cron = (on?.schedule as { cron: string }[] | undefined)?.[0]?.cron ?? "";
  return runOnMain(world, path, "schedule", sha, { schedule: cron }, options);
}

/** Run the workflow `path` on demand ("Run workflow", workflow_dispatch) on main, without inputs. */
export async function runDispatch(world: World, path: string, options: RunOptions = {}) {
  const sha = (await world.remote.rev("refs/heads/main")) ?? "";
  return runOnMain(world, path, "workflow_dispatch", sha, { inputs: {}, ref: "refs/heads/main" }, options);
}

function runOnMain(
  world: World,
  path: string,
  eventName: "schedule" | "workflow_dispatch",
  sha: string,
  payload: Record<string, Value>,
  options: RunOptions,
) {
  return runWorkflow(
    world,
    path,
    {
      eventName,
      payload: { ...payload, repository: { full_name: REPOSITORY, default_branch: "main" } },
      sha,
      ref: "refs/heads/main",
      branch: "main",
      changed: [],
      secrets: world.secrets,
      extra: { ref_name: "main" },
    },
    options,
  );
}

async function runWorkflow(
  world: World,
  path: string,
  trigger: Trigger,
  options: RunOptions,
): Promise<WorkflowRun> {
  const workflow = parse(await world.remote.show(trigger.sha, path)) as Workflow;
  const runs: Record<string, JobRun> = {};
  const log = () =>
    Object.entries(runs)
      .map(([job, run]) =>
        [
          `== job ${job}: ${run.result}`,
          ...run.steps.map((s) => `-- ${s.name}: ${s.outcome} (${s.ms} ms)\n${s.output}`),
        ].join("\n"),
      )
      .join("\n");
  if (!eventTriggers(workflow.on, trigger.eventName, trigger.branch, trigger.changed))
    return { triggered: false, jobs: runs, log };
  const runId = world.nextRunId();
  const github: Record<string, Value> = {
    event_name: trigger.eventName,
    event: trigger.payload,
    repository: REPOSITORY,
    sha: trigger.sha,
    ref: trigger.ref,
    run_id: String(runId),
    token: "ghs_runner_token_for_this_run",
    server_url: "https://github.com",
    ...trigger.extra,
  };
  const runDir = join(world.root, "runs", String(runId));
  const pending = Object.keys(workflow.jobs);
  // Each pass runs every job whose needs are done; a cycle or unknown need ends the loop.
  for (let pass = 0; pass < pending.length + 1 && pending.length > 0; pass += 1) {
    for (const name of [...pending]) {
      const job = workflow.jobs[name] as Job;
      if (!needsOf(job).every((n) => runs[n] !== undefined)) continue;
      pending.splice(pending.indexOf(name), 1);
      const needs = Object.fromEntries(
        needsOf(job).map((n) => [n, { result: runs[n]?.result ?? null, outputs: runs[n]?.outputs ?? {} }]),
      );
      const allSucceeded = needsOf(job).every((n) => runs[n]?.result === "success");
      const contexts = { github, needs, vars: world.vars, secrets: trigger.secrets } as Contexts;
      const environment = typeof job.environment === "object" ? job.environment.name : job.environment;
      const skipped: JobRun = { result: "skipped", steps: [], outputs: {}, summary: "", workspace: "" };
      if (!condition(job.if, { contexts, status: allSucceeded ? "success" : "failure" })) {
        runs[name] = skipped;
      } else if (environment !== undefined && !(options.approve?.(environment, name) ?? false)) {
        runs[name] = { ...skipped, environment };
      } else {
        const run = await runJob(world, name, job, workflow, github, needs, runDir, trigger.secrets);
        runs[name] = environment === undefined ? run : { ...run, environment };
      }
    }
  }
  if (pending.length > 0) throw new Error(`jobs never became ready: ${pending.join(", ")}`);
  return { triggered: true, jobs: runs, log };
}
