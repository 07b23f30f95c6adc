// One step of a job, as a GitHub-hosted runner runs it: `run:` scripts with bash (the default
// shell is `bash -e {0}`, WITHOUT pipefail; `shell: bash` adds `--noprofile --norc -eo pipefail`),
// the step's outputs and environment files read back afterwards, and `uses:` dispatched to the few
// actions the recipes use, each pinned to the commit SHA this harness knows: a real shallow
// actions/checkout, setup-node as a no-op that still insists on a lockfile for `cache: npm`,
// and the notiform Action run from its action.yml as a composite action.
import { spawn } from "node:child_process";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { isAbsolute, join, relative } from "node:path";
import { parse } from "yaml";
import { type Contexts, condition, interpolate, type JobStatus, type Value } from "./expressions.js";
import { git, gitEnv } from "./remote.js";
import type { World } from "./world.js";

export const PINS: Record<string, string> = {
  "actions/checkout": "11bd71901bbe5b1630ceea73d27597364c9af683", // v4.2.2
  "actions/setup-node": "39370e3970a6d050c480ffad4ff0ed4d3fdee5af", // v4.1.0
  "actions/github-script": "60a0d83039c74a4aee543508d2ffcb1c3799cdea", // v7.0.1
  "actions/upload-artifact": "ea165f8d65b6e75b540449e92b4886f43607fa02", // v4.6.2
};

const GITHUB_SCRIPT = join(import.meta.dirname, "github-script.mjs");

/** Longest a single step may run: a hung step fails the test instead of hanging it. */
const STEP_TIMEOUT_MS = 60_000;

export interface Step {
  name?: string;
  id?: string;
  if?: string | boolean;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, string | number | boolean>;
  "working-directory"?: string;
  "continue-on-error"?: boolean;
}

export interface StepRecord {
  name: string;
  outcome: "success" | "failure" | "skipped";
  output: string;
  outputs: Record<string, string>;
  ms: number;
}

/** What a job's steps share: the runner's directories, environment and the contexts so far. */
export interface JobScope {
  world: World;
  workspace: string;
  temp: string;
  /** The process environment every step starts from (runner variables, GITHUB_*). */
  processEnv: Record<string, string>;
  contexts: Contexts;
  /** Steps' results by id, as the `steps` context shows them. */
  steps: Record<string, { outputs: Record<string, string>; outcome: string; conclusion: string }>;
  /** Variables later steps get from GITHUB_ENV. */
  addedEnv: Record<string, string>;
  summary: string[];
  counter: { n: number };
}

function runProcess(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const add = (chunk: string) => {
      output += chunk;
    };
    child.stdout.setEncoding("utf8").on("data", add);
    child.stderr.setEncoding("utf8").on("data", add);
    const timer = setTimeout(() => child.kill("SIGKILL"), STEP_TIMEOUT_MS);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, output: signal ? `${output}\n[killed: ${signal}]` : output });
    });
  });
}

/** GITHUB_OUTPUT / GITHUB_ENV: `name=value` lines and `name<<DELIMITER` blocks. */
export function parseCommandFile(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? "";
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2] ?? "", i + 1);
      if (end < 0) throw new Error(`unterminated ${heredoc[1]}<<${heredoc[2]} in a command file`);
      values[heredoc[1] ?? ""] = lines.slice(i + 1, end).join("\n");
      i = end;
    } else if (line.includes("=")) {
      values[line.slice(0, line.indexOf("="))] = line.slice(line.indexOf("=") + 1);
    }
  }
  return values;
}

const asEnv = (values: Record<string, unknown> | undefined, scope: { contexts: Contexts }) =>
  Object.fromEntries(
    Object.entries(values ?? {}).map(([k, v]) => [k, interpolate(String(v), { contexts: scope.contexts })]),
  );

async function runScript(scope: JobScope, step: Step, env: Record<string, string>, cwd: string) {
  const n = ++scope.counter.n;
  const script = join(scope.temp, `step-${n}.sh`);
  await writeFile(script, interpolate(step.run ?? "", { contexts: scope.contexts }));
  const files = { GITHUB_OUTPUT: `output-${n}`, GITHUB_ENV: `env-${n}`, GITHUB_STEP_SUMMARY: `summary-${n}` };
  for (const name of Object.values(files)) await writeFile(join(scope.temp, name), "");
  const fileEnv = Object.fromEntries(Object.entries(files).map(([k, v]) => [k, join(scope.temp, v)]));
  const shell = step.shell ?? "default";
  const args =
    shell === "bash"
      ? ["--noprofile", "--norc", "-eo", "pipefail", script]
      : shell === "default"
        ? ["-e", script]
        : undefined;
  if (args === undefined) throw new Error(`the harness runs bash steps only, not shell: ${shell}`);
  const result = await runProcess("bash", args, cwd, { ...env, ...fileEnv });
  Object.assign(scope.addedEnv, parseCommandFile(await readFile(fileEnv.GITHUB_ENV ?? "", "utf8")));
  scope.summary.push(await readFile(fileEnv.GITHUB_STEP_SUMMARY ?? "", "utf8"));
  return {
    ok: result.code === 0,
    output: result.output,
    outputs: parseCommandFile(await readFile(fileEnv.GITHUB_OUTPUT ?? "", "utf8")),
  };
}

/**
 * actions/upload-artifact: the files under `path` (a folder of the workspace) recorded in the
 * world by name; as the action does, a path that matches nothing fails (if-no-files-found: error
 * is not the default, warn is, so it succeeds with a warning).
 */
async function uploadArtifact(scope: JobScope, inputs: Record<string, string>) {
  const folder = join(scope.workspace, inputs.path ?? "");
  const files = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  const found = files.filter((f) => f.isFile()).map((f) => relative(folder, join(f.parentPath, f.name)));
  if (found.length === 0)
    return {
      ok: true,
      output: `Warning: No files were found with the provided path: ${inputs.path}`,
      outputs: {},
    };
  const runId = String((scope.contexts.github as Record<string, Value>).run_id);
  scope.world.artifacts.push({ name: inputs.name ?? "artifact", runId, files: found.sort() });
  return {
    ok: true,
    output: `Artifact ${inputs.name} has been successfully uploaded (${found.length} files)`,
    outputs: {},
  };
}

/**
 * actions/checkout with its defaults: fetch the one commit (depth 1, no tags), check out `main`,
 * and leave the job's token in .git/config unless `persist-credentials: false`.
 */
async function checkout(scope: JobScope, inputs: Record<string, string>) {
  const github = scope.contexts.github as Record<string, Value>;
  const sha = inputs.ref || String(github.sha);
  const depth = inputs["fetch-depth"] ?? "1";
  const branch = String(github.ref).replace(/^refs\/heads\//, "");
  const env = gitEnv(String(scope.processEnv.HOME));
  const dir = scope.workspace;
  let log = "";
  const run = async (args: string[]) => {
    log += `git ${args.join(" ")}\n${await git(args, dir, env)}`;
  };
  await mkdir(dir, { recursive: true });
  await run(["init", "-q"]);
  await run(["remote", "add", "origin", scope.world.remote.url]);
  // A pull request's merge commit goes where actions/checkout puts it: refs/remotes/pull/N/merge.
  const ref = String(github.ref);
  const into = ref.startsWith("refs/heads/")
    ? `refs/remotes/origin/${branch}`
    : ref.replace(/^refs\//, "refs/remotes/");
  await run([
    "fetch",
    "-q",
    "--no-tags",
    "--prune",
    ...(depth === "0" ? [] : [`--depth=${depth}`]),
    "origin",
    `+${sha}:${into}`,
  ]);
  if (into.startsWith("refs/remotes/origin/")) await run(["checkout", "-q", "--force", "-B", branch, into]);
  else await run(["checkout", "-q", "--force", into]);
  // As actions/checkout does by default: the job's token stays in .git/config for later steps.
  if ((inputs["persist-credentials"] ?? "true") !== "false") {
    const basic = Buffer.from(`x-access-token:${String(github.token)}`).toString("base64");
    await run(["config", "--local", "http.https://github.com/.extraheader", `AUTHORIZATION: basic ${basic}`]);
  }
  return { ok: true, output: log, outputs: {} };
}

/** The notiform Action: action.yml of the release, its steps run as a composite action. */
async function composite(scope: JobScope, withInputs: Record<string, string>, env: Record<string, string>) {
  const action = parse(await readFile(join(scope.world.release, "action.yml"), "utf8")) as {
    inputs: Record<string, { default?: string }>;
    outputs?: Record<string, { value: string }>;
    runs: { using: string; steps: Step[] };
  };
  if (action.runs.using !== "composite") throw new Error("the notiform Action is not a composite action");
  for (const name of Object.keys(withInputs))
    if (!(name in action.inputs)) throw new Error(`the notiform Action has no input ${name}`);
  const inputs = Object.fromEntries(
    Object.entries(action.inputs).map(([name, input]) => [
      name,
      withInputs[name] ?? interpolate(String(input.default ?? ""), { contexts: scope.contexts }),
    ]),
  );
  const inner: JobScope = {
    ...scope,
    contexts: {
      ...scope.contexts,
      github: { ...(scope.contexts.github as Record<string, Value>), action_path: scope.world.release },
      inputs,
      steps: {},
    },
    steps: {},
  };
  let output = "";
  let status: JobStatus = "success";
  for (const step of action.runs.steps) {
    if (step.shell === undefined) throw new Error("a composite action's run step must name its shell");
    inner.contexts.steps = inner.steps;
    const record = await runStep(inner, step, { ...env, GITHUB_ACTION_PATH: scope.world.release }, status);
    output += record.output;
    if (record.outcome === "failure") status = "failure";
  }
  inner.contexts.steps = inner.steps;
  const outputs = Object.fromEntries(
    Object.entries(action.outputs ?? {}).map(([name, o]) => [
      name,
      interpolate(o.value, { contexts: inner.contexts }),
    ]),
  );
  return { ok: status === "success", output, outputs };
}

async function runUses(scope: JobScope, step: Step, env: Record<string, string>) {
  const [name, ref] = (step.uses ?? "").split("@");
  const inputs = asEnv(step.with, scope);
  if (name === "notiform/notiform") return composite(scope, inputs, env);
  if (name === undefined || PINS[name] === undefined || PINS[name] !== ref)
    throw new Error(`the harness knows no action ${step.uses} (pinned actions: ${JSON.stringify(PINS)})`);
  if (name === "actions/checkout") return checkout(scope, inputs);
  if (name === "actions/setup-node") {
    // setup-node's npm cache needs the lockfile it keys the cache on, or the step fails.
    if (inputs.cache === "npm")
      await readFile(join(scope.workspace, "package-lock.json")).catch(() => {
        throw new Error("setup-node: Dependencies lock file is not found (cache: npm)");
      });
    return { ok: true, output: "", outputs: {} };
  }
  if (name === "actions/github-script") {
    const file = join(scope.temp, `github-script-${++scope.counter.n}.js`);
    await writeFile(file, inputs.script ?? "");
    const token = inputs["github-token"] || String((scope.contexts.github as Record<string, Value>).token);
    const result = await runProcess(process.execPath, [GITHUB_SCRIPT, file], scope.workspace, {
      ...env,
      INPUT_GITHUB_TOKEN: token,
    });
    return { ok: result.code === 0, output: result.output, outputs: {} };
  }
  if (name === "actions/upload-artifact") return uploadArtifact(scope, inputs);
  throw new Error(`the harness has no stand-in for ${name}`);
}

/** Run one step (or skip it by its `if:`), recording it in the scope's `steps` context. */
export async function runStep(
  scope: JobScope,
  step: Step,
  baseEnv: Record<string, string>,
  status: JobStatus,
): Promise<StepRecord> {
  const name = step.name ?? step.uses ?? step.run?.split("\n")[0] ?? "step";
  // A step's env may name earlier steps' outputs (`${{ steps.plan.outputs.x }}`), as on GitHub.
  const stepEnv = asEnv(step.env, {
    contexts: { ...scope.contexts, steps: scope.steps as unknown as Value },
  });
  const contexts = {
    ...scope.contexts,
    steps: scope.steps as unknown as Value,
    env: { ...(scope.contexts.env as Record<string, Value>), ...stepEnv },
  };
  const local = { ...scope, contexts };
  let record: StepRecord;
  const started = performance.now();
  if (!condition(step.if, { contexts, status })) {
    record = { name, outcome: "skipped", output: "", outputs: {}, ms: 0 };
  } else {
    const env = { ...baseEnv, ...scope.addedEnv, ...stepEnv };
    const dir = step["working-directory"]
      ? interpolate(step["working-directory"], { contexts })
      : scope.workspace;
    const cwd = isAbsolute(dir) ? dir : join(scope.workspace, dir);
    const result = await (step.uses ? runUses(local, step, env) : runScript(local, step, env, cwd)).catch(
      (error: Error) => ({ ok: false, output: `harness: ${error.message}`, outputs: {} }),
    );
    record = {
      name,
      outcome: result.ok ? "success" : "failure",
      output: result.output,
      outputs: result.outputs,
      ms: Math.round(performance.now() - started),
    };
  }
  if (step.id !== undefined)
    scope.steps[step.id] = { outputs: record.outputs, outcome: record.outcome, conclusion: record.outcome };
  return record;
}
