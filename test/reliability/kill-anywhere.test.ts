// "Every command is safe to interrupt: kill it at any point, re-run, and nothing is duplicated or
// lost", as a seeded property. For a random every-kind config (test/support/generated-config.ts),
// sometimes a second one over the first (a transition), on a fresh organization with a
// Development and a Production key, one command path is picked: `apply --auto-approve`,
// `plan --out` + `apply FILE`, `promote --auto-approve`, `promote --out` + `promote FILE`, or
// `export`. That command is stopped after a random number of requests (writes, or any request)
// with SIGKILL, or with SIGINT / SIGTERM (exit 130, or for export the signal's own death), once
// or twice in a row, at an emulator latency of 0-15 ms and --concurrency 1-4, then run again as
// it was (the saved file again, as a retried CI job does) until it exits 0, at most 3 times.
// Then:
//   - where the docs make a refusal the right answer (CREATE_UNCERTAIN after a create whose
//     answer was lost, to be settled with `notiform resolve`; a saved plan refused as stale
//     because one of its multi-request actions was half done, to be planned again), that way
//     out converges; the tally of outcomes is printed at the end;
//   - Development plans to zero, nothing is left to promote and Production expects nothing more
//     from promotion, and an export plans to zero from its own folder;
//   - nothing exists twice on either server environment, and no write the stopped runs were
//     answered 2xx for is sent again (same method, path and body);
//   - the state file is valid against schemas/state.schema.json after every stop, and the
//     re-runs leave no temporary file of their own beside it (a kill -9 in the middle of an
//     atomic write may leave its hidden `.tmp` file: docs/commands.md says so, and it is
//     harmless).
// Hunt with NF_KILL_SEED=n NF_KILL_RUNS=100 (NF_KILL_PATH replays a counterexample). What it found:
// a saved plan refused as stale once only an unsendable change was left (apply-file-killed).
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { canonicalJson } from "../../src/canonical.js";
import { validatorOf } from "../../src/schemas.js";
import {
  type CliOptions,
  type CliResult,
  type CliTest,
  startCliTest,
  twoEnvironments,
} from "../support/cli.js";
import { configArb, type Generated, over, VAR, VAR_VALUE, yamlOf } from "../support/generated-config.js";

const FRESH = twoEnvironments("Kill Anywhere Inc");
const DEV = ["--env", "development"];
const PROD = ["--env", "production"];
const STATE = "notiform.development.state.json";

type Command = "apply" | "apply-file" | "promote" | "promote-file" | "export";
type Stop = "SIGKILL" | "SIGINT" | "SIGTERM";
interface Kill {
  signal: Stop;
  /** Stop once this many requests of the run (writes only, or any) have reached the server. */
  after: number;
  counting: "writes" | "requests";
}
interface Scenario {
  first: Generated;
  second: Generated | undefined;
  command: Command;
  kills: Kill[];
  latencyMs: number;
  concurrency: number;
}

const killArb: fc.Arbitrary<Kill> = fc.record({
  signal: fc.oneof(
    { weight: 6, arbitrary: fc.constant<Stop>("SIGKILL") },
    { weight: 1, arbitrary: fc.constant<Stop>("SIGINT") },
    { weight: 1, arbitrary: fc.constant<Stop>("SIGTERM") },
  ),
  after: fc.oneof(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 7, max: 24 })),
  counting: fc.constantFrom("writes", "requests"),
});

const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
  first: configArb,
  second: fc.option(configArb, { nil: undefined, freq: 2 }),
  command: fc.constantFrom<Command>("apply", "apply-file", "promote", "promote-file", "export"),
  kills: fc.array(killArb, { minLength: 1, maxLength: 2 }),
  latencyMs: fc.integer({ min: 0, max: 15 }),
  concurrency: fc.integer({ min: 1, max: 4 }),
});

/** How the runs ended, over the whole property: printed at the end. */
const tally = new Map<string, number>();
const count = (what: string) => tally.set(what, (tally.get(what) ?? 0) + 1);

const validState = validatorOf("state");
const writeKey = (r: { method: string; path: string; body?: unknown }) =>
  `${r.method} ${r.path} ${r.body === undefined ? "" : canonicalJson(r.body as never)}`;

/** An onSpawn that sends `signal` once `when()` holds (polled every millisecond); `sent` says whether it did. */
function stopWhen(
  signal: Stop,
  when: () => boolean,
  sent: { value: boolean },
): NonNullable<CliOptions["onSpawn"]> {
  return (child) => {
    const timer = setInterval(() => {
      if (!when()) return;
      sent.value = child.kill(signal);
      clearInterval(timer);
    }, 1);
    child.on("close", () => clearInterval(timer));
  };
}

/** Waits until the server has answered every request it received (a killed run's last ones land after it died). */
async function settle(test: CliTest): Promise<void> {
  for (let i = 0; i < 200 && test.emulator.requests.some((r) => r.status === null); i += 1)
    await new Promise((resolve) => setTimeout(resolve, 5));
}

/** The state file, if any: a problem when it is torn or not a state file. */
async function stateProblem(path: string): Promise<string | undefined> {
  if (!existsSync(path)) return undefined;
  const text = await readFile(path, "utf8");
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!validState(parsed))
      return `the state file does not match its schema: ${JSON.stringify(validState.errors)}`;
  } catch (error) {
    return `the state file is not JSON (${(error as Error).message}):\n${text}`;
  }
  return undefined;
}

const tmpFiles = async (dir: string) =>
  existsSync(dir) ? (await readdir(dir)).filter((name) => name.endsWith(".tmp")) : [];

/** Identities that exist twice in an environment's store. */
function duplicates(test: CliTest, environment: "development" | "production"): string[] {
  const store = test.emulator.store(environment);
  const twice = (label: string, names: string[]) =>
    names.filter((name, i) => names.indexOf(name) !== i).map((name) => `${label} ${name}`);
  return [
    ...twice(
      "topic",
      store.topics.map((t) => t.key),
    ),
    ...twice(
      "tenant",
      store.tenants.map((t) => t.identifier ?? ""),
    ),
    ...twice(
      "layout",
      (store.layouts ?? []).filter((l) => !l.deleted).map((l) => l.identifier),
    ),
    ...twice(
      "workflow",
      store.workflows.filter((w) => w.deleted !== true).map((w) => w.triggers[0]?.identifier ?? w.name),
    ),
    ...twice(
      "override",
      store.overrides.map((o) => `${o._workflowId}/${o._tenantId}`),
    ),
  ];
}

interface Run {
  test: CliTest;
  args: string[];
  cwd: string;
  env: Record<string, string | undefined>;
}

const cliRun = ({ test, cwd, env }: Run, args: string[], onSpawn?: CliOptions["onSpawn"]) =>
  test.run(args, { cwd, env, ...(onSpawn === undefined ? {} : { onSpawn }) });

const errorOf = (result: CliResult): { code?: string; message?: string } => {
  try {
    return (JSON.parse(result.stdout) as { error?: { code?: string; message?: string } }).error ?? {};
  } catch {
    return {};
  }
};

const show = (step: string, result: CliResult) =>
  `${step} exited ${result.code}${result.signal === null ? "" : ` (${result.signal})`}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;

/** The documented way out of CREATE_UNCERTAIN: look at the server, then `notiform resolve`. */
async function resolveUncertain(run: Run): Promise<string | undefined> {
  const { test } = run;
  const plan = await cliRun(run, ["plan", ...DEV, "--output", "json"]);
  const actions = (JSON.parse(plan.stdout) as { actions?: { id: string; op: string; reason?: string }[] })
    .actions;
  if (actions === undefined) return show("plan before resolve", plan);
  const store = test.emulator.store("development");
  for (const action of actions.filter((a) => a.op === "uncertain")) {
    // The candidates the plan names; the one made last is the interrupted create's.
    const named = new Set(action.reason?.match(/[0-9a-f]{24}/g) ?? []);
    const candidates = [...store.workflows.filter((w) => w.deleted !== true), ...store.notificationGroups]
      .filter((record) => named.has(record._id))
      .map((record) => record._id)
      .sort();
    const answer =
      candidates.length === 0 ? ["--not-created"] : ["--id", candidates[candidates.length - 1] as string];
    const resolved = await test.run(["resolve", action.id, ...answer, ...DEV], { url: null, env: run.env });
    if (resolved.code !== 0) return show(`resolve ${action.id}`, resolved);
    count(`way out: resolve ${action.id.split("/")[0]} ${answer[0]}`);
  }
  return undefined;
}

class Failure extends Error {}

interface PlanAction {
  id: string;
  op: string;
  reason?: string;
  changes: { field: string }[];
}

/**
 * What Production's plan still expects from promotion that Development's plan does not explain
 * (a field Development cannot take either, e.g. an emptied layout description, stays different
 * in Production too): as promotion-converges.test.ts checks it.
 */
function notCarried(production: readonly PlanAction[], development: readonly PlanAction[]): PlanAction[] {
  const unfixable = new Map<string, Set<string>>();
  for (const action of development)
    if (action.op === "not-applicable") unfixable.set(action.id, new Set(action.changes.map((c) => c.field)));
  return production.filter(
    (action) =>
      action.op === "not-applicable" &&
      (action.reason ?? "").includes("arrives by promotion") &&
      action.changes.some((change) => !unfixable.get(action.id)?.has(change.field)),
  );
}

/** The saved plan's actions named by a PLAN_STALE message, and whether each sends more than one request. */
async function staleActions(run: Run, message: string): Promise<{ id: string; requests: number }[]> {
  const plan = JSON.parse(await readFile(join(run.cwd, "p.json"), "utf8")) as {
    actions: { id: string; requests: unknown[] }[];
  };
  return plan.actions
    .filter((action) => message.includes(`${action.id} (`))
    .map((action) => ({ id: action.id, requests: action.requests.length }));
}

/**
 * After a refusal the docs call right, their way out: `notiform resolve` for an uncertain create,
 * a fresh `plan --out` + `apply` for a stale saved plan (apply again, directly). The result of
 * the last step; a refusal the docs do not explain is thrown as a Failure.
 */
async function wayOut(run: Run, command: Command, refused: CliResult): Promise<CliResult> {
  let current = refused;
  for (let step = 0; step < 3; step += 1) {
    const error = errorOf(current);
    if (current.stdout.includes('"CREATE_UNCERTAIN"')) {
      count("refusal: CREATE_UNCERTAIN");
      const failed = await resolveUncertain(run);
      if (failed !== undefined) throw new Failure(failed);
    } else if (error.code === "PLAN_STALE" && command === "apply-file") {
      const named = await staleActions(run, error.message ?? "");
      // What a fresh plan makes of those actions now: a create whose answer was lost is uncertain.
      const fresh = await cliRun(run, ["plan", ...DEV, "--output", "json"]);
      const now = (JSON.parse(fresh.stdout) as { actions?: PlanAction[] }).actions ?? [];
      const uncertain = (id: string) => now.some((a) => a.id === id && a.op === "uncertain");
      const explained =
        named.length > 0 &&
        named.every((a) => a.requests > 1 || uncertain(a.id)) &&
        !/binding of/.test(error.message ?? "");
      if (!explained)
        throw new Failure(
          `${show("the saved plan's re-run: stale, with no multi-request action half done", current)}\n${JSON.stringify(named)}\n--- a fresh plan of them\n${JSON.stringify(
            now.filter((a) => named.some((n) => n.id === a.id)),
            null,
            1,
          )}`,
        );
      count(
        named.some((a) => uncertain(a.id))
          ? "refusal: PLAN_STALE (an interrupted create, uncertain now)"
          : "refusal: PLAN_STALE (a multi-request action half done)",
      );
    } else if (error.code === "FILE_EXISTS" && command === "export") {
      count("refusal: FILE_EXISTS (export --force)");
      return cliRun(run, [...run.args, "--force"]);
    } else return current;
    if (command === "apply") current = await cliRun(run, run.args);
    else {
      const planned = await cliRun(run, ["plan", ...DEV, "--out", "p2.json"]);
      if (planned.code !== 0) return planned;
      current = await cliRun(run, ["apply", "p2.json", ...DEV, "--output", "json"]);
    }
    if (current.code === 0) return current;
  }
  return current;
}

/** One scenario; the first failure, or undefined. */
async function killAnywhere(s: Scenario): Promise<string | undefined> {
  const test = await startCliTest({
    ...FRESH.options,
    latencyMs: s.latencyMs,
    env: (keys) => ({
      NOTIFORM_API_KEY_DEVELOPMENT: keys.development,
      NOTIFORM_API_KEY_PRODUCTION: keys.production,
      [VAR]: VAR_VALUE,
    }),
  });
  const { workspace } = test;
  const concurrency = ["--concurrency", String(s.concurrency)];
  const final = s.second === undefined ? s.first : over(s.first, s.second);
  const files = Object.entries(final.files).map(([path, text]) => `--- ${path}\n${text}`);
  const context = () =>
    `--- scenario: ${s.command}, ${s.second === undefined ? "one config" : "a transition"}, latency ${s.latencyMs} ms, concurrency ${s.concurrency}, stops ${JSON.stringify(s.kills)}\n--- notiform.yaml\n${yamlOf(FRESH.header, final)}${files.join("\n")}`;
  const base: Run = { test, args: [], cwd: workspace.dir, env: {} };
  const must = async (args: string[]) => {
    const result = await cliRun(base, args);
    if (result.code !== 0) throw new Failure(show(`setting up: ${args.join(" ")}`, result));
  };
  const writeConfig = async (generated: Generated) => {
    await workspace.write("notiform.yaml", yamlOf(FRESH.header, generated));
    for (const [path, text] of Object.entries(generated.files)) await workspace.write(path, text);
  };
  try {
    const promoting = s.command === "promote" || s.command === "promote-file";
    if (s.second !== undefined) {
      await writeConfig(s.first);
      await must(["apply", ...DEV, "--auto-approve"]);
      if (promoting) await must(["promote", ...DEV, "--auto-approve"]);
    }
    await writeConfig(final);
    if (s.command !== "apply" && s.command !== "apply-file") await must(["apply", ...DEV, "--auto-approve"]);
    if (s.command === "apply-file") await must(["plan", ...DEV, "--out", "p.json"]);
    if (s.command === "promote-file") await must(["promote", ...DEV, "--out", "x.json"]);
    const exportDir = workspace.path("exported");
    if (s.command === "export") await mkdir(exportDir);
    const run: Run = {
      test,
      cwd: s.command === "export" ? exportDir : workspace.dir,
      env: s.command === "export" ? { NOTIFORM_API_KEY: test.env.NOTIFORM_API_KEY_DEVELOPMENT } : {},
      args: [
        ...{
          apply: ["apply", ...DEV, "--auto-approve"],
          "apply-file": ["apply", "p.json", ...DEV],
          promote: ["promote", ...DEV, "--auto-approve"],
          "promote-file": ["promote", "x.json", ...DEV],
          export: ["export"],
        }[s.command],
        ...concurrency,
        "--output",
        "json",
      ],
    };
    const stateFile = join(run.cwd, s.command === "export" ? "notiform.state.json" : STATE);
    // The writes the command has to send (from its saved file, or a preview saved for counting),
    // so a stop after N writes lands inside the run, not after it.
    let budget = 0;
    if (s.command === "apply" || s.command === "apply-file") {
      if (s.command === "apply") await must(["plan", ...DEV, "--out", "probe.json"]);
      const saved = JSON.parse(await workspace.read(s.command === "apply" ? "probe.json" : "p.json")) as {
        actions: { requests: unknown[] }[];
      };
      budget = saved.actions.reduce((sum, action) => sum + action.requests.length, 0);
    } else if (s.command !== "export") {
      if (s.command === "promote") await must(["promote", ...DEV, "--out", "probe.json"]);
      const saved = JSON.parse(await workspace.read(s.command === "promote" ? "probe.json" : "x.json")) as {
        entries: unknown[];
      };
      budget = saved.entries.length;
    }

    // The stops: what the stopped runs were answered 2xx for, and temporary files a kill -9 left.
    const requests = test.emulator.requests;
    const done = new Set<string>();
    const leftByKill = new Set<string>();
    let finished: CliResult | undefined;
    for (const [i, kill] of s.kills.entries()) {
      const start = requests.length;
      const counting = budget === 0 ? "requests" : kill.counting;
      const after = counting === "writes" ? 1 + ((kill.after - 1) % budget) : kill.after;
      const sent = { value: false };
      const reached = () => {
        let n = 0;
        for (let j = start; j < requests.length; j += 1)
          if (counting === "requests" || requests[j]?.method !== "GET") n += 1;
        return n >= after;
      };
      const result = await cliRun(run, run.args, stopWhen(kill.signal, reached, sent));
      await settle(test);
      for (const r of requests.slice(start))
        if (r.method !== "GET" && r.status !== null && r.status < 300) done.add(writeKey(r));
      const step = `stop ${i + 1} (${kill.signal} after ${after} ${counting})`;
      if (!sent.value || (result.signal === null && result.code === 0 && kill.signal === "SIGKILL")) {
        count("finished before the stop");
        finished = result;
        break;
      }
      const torn = await stateProblem(stateFile);
      if (torn !== undefined) throw new Failure(`after ${step}: ${torn}`);
      if (kill.signal === "SIGKILL") {
        count("stopped: SIGKILL");
        for (const name of await tmpFiles(run.cwd)) leftByKill.add(name);
        continue;
      }
      // Stopped cleanly: exit 130. Before its first write a run may end as the signal does (the
      // lock and temporary files removed first; a shell shows 130 for SIGINT), and so does
      // export, which changes nothing on the server.
      const wrote = requests.slice(start).some((r) => r.method !== "GET");
      const clean = result.code === 130 || (!wrote && result.code === null && result.signal === kill.signal);
      if (existsSync(`${stateFile}.lock`)) throw new Failure(show(`${step}: the lock was left`, result));
      if (result.code === 0) count(`${kill.signal}: finished anyway (exit 0)`);
      else if (!clean) throw new Failure(show(`${step}: not exit 130`, result));
      else count(`stopped: ${kill.signal}, ${result.code === 130 ? "exit 130" : "ended by the signal"}`);
      const temps = (await tmpFiles(run.cwd)).filter((name) => !leftByKill.has(name));
      if (temps.length > 0) throw new Failure(`after ${step}: temporary files left: ${temps.join(", ")}`);
      if (result.code === 0) {
        finished = result;
        break;
      }
    }

    // The same command again until it exits 0 (at most 3 times), or a documented refusal's way out.
    const rerunStart = requests.length;
    let last = finished;
    for (let i = 0; i < 3 && last?.code !== 0; i += 1) {
      last = await cliRun(run, run.args);
      if (last.code === 0) count(`re-run ${i + 1} exit 0`);
      else if (last.code !== null) {
        // A documented refusal taken its way out: that result is final.
        const after = await wayOut(run, s.command, last);
        if (after !== last) {
          last = after;
          break;
        }
      }
    }
    if (last?.code !== 0)
      throw new Failure(show("the re-run", last ?? { code: null, signal: null, stdout: "", stderr: "" }));
    await settle(test);

    // Nothing the stopped runs were answered for is sent again.
    const resent = requests
      .slice(rerunStart)
      .filter((r) => r.method !== "GET" && done.has(writeKey(r)))
      .map((r) => `${r.method} ${r.path}`);
    if (resent.length > 0) throw new Failure(`sent again after being answered 2xx: ${resent.join(", ")}`);
    const torn = await stateProblem(stateFile);
    if (torn !== undefined) throw new Failure(`after the re-run: ${torn}`);
    const temps = (await tmpFiles(run.cwd)).filter((name) => !leftByKill.has(name));
    if (temps.length > 0) throw new Failure(`after the re-run: temporary files left: ${temps.join(", ")}`);
    if (leftByKill.size > 0) count("a kill -9 left a .tmp file (documented)");

    // Converged: nothing left to plan or promote, nothing twice.
    let development: PlanAction[] = [];
    if (s.command === "export") {
      const plan = await cliRun(run, ["plan", "--detailed-exitcode"]);
      if (plan.code !== 0) throw new Failure(show("plan of the export", plan));
    } else {
      const plan = await cliRun(base, ["plan", ...DEV, "--detailed-exitcode", "--output", "json"]);
      if (plan.code !== 0) throw new Failure(show("plan --env development after the re-run", plan));
      development = (JSON.parse(plan.stdout) as { actions: PlanAction[] }).actions;
    }
    if (promoting) {
      const left = await cliRun(base, ["promote", ...DEV, "--detailed-exitcode", "--output", "json"]);
      if (left.code !== 0) throw new Failure(show("promote --detailed-exitcode after the re-run", left));
      const production = await cliRun(base, ["plan", ...PROD, "--output", "json"]);
      const actions = (JSON.parse(production.stdout) as { actions?: PlanAction[] }).actions;
      if (actions === undefined) throw new Failure(show("plan --env production", production));
      const missing = notCarried(actions, development);
      if (missing.length > 0)
        throw new Failure(`plan --env production still expects from promotion: ${JSON.stringify(missing)}`);
    }
    const twice = [...duplicates(test, "development"), ...duplicates(test, "production")];
    if (twice.length > 0) throw new Failure(`exists twice: ${twice.join(", ")}`);
    const groups = (env: "development" | "production") => test.emulator.store(env).notificationGroups.length;
    if (groups("production") > groups("development"))
      throw new Failure(
        `Production has ${groups("production")} groups, Development ${groups("development")}`,
      );
    return undefined;
  } catch (error) {
    if (error instanceof Failure) return `${error.message}\n${context()}`;
    throw error;
  } finally {
    await test.close();
  }
}

const SEED = Number(process.env.NF_KILL_SEED ?? 20260601);
const RUNS = Number(process.env.NF_KILL_RUNS ?? 10);

describe("every command is safe to interrupt (generative, seeded)", () => {
  afterAll(() => {
    const lines = [...tally.entries()].sort().map(([what, n]) => `  ${what}: ${n}`);
    process.stderr.write(`kill-anywhere outcomes (seed ${SEED}, ${RUNS} runs):\n${lines.join("\n")}\n`);
  });

  it("stopped anywhere, then run again: it converges, nothing twice, nothing sent twice, no torn state", async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (scenario) => {
        expect(await killAnywhere(scenario)).toBeUndefined();
      }),
      {
        seed: SEED,
        numRuns: RUNS,
        endOnFailure: true,
        ...(process.env.NF_KILL_PATH === undefined ? {} : { path: process.env.NF_KILL_PATH }),
      },
    );
  }, 600_000);
});
