// Generative convergence over real HTTP, both environments: the Production and promotion
// counterpart of every-kind-converges. For a random *valid* config (the same generators:
// test/support/generated-config.ts) on a fresh organization with a Development and a Production
// key (real flavor), each round:
//   1. `apply --env development` succeeds and `plan --env development --detailed-exitcode` exits 0;
//   2. `promote` succeeds, and a second one's preview says nothing is left (`--detailed-exitcode`
//      exits 0, no entry, no carried layout differing from Production);
//   3. `apply --env production` (what promotion never carries: topics, tenants; overrides are
//      Development-only) succeeds and `plan --env production --detailed-exitcode` exits 0, and
//      nothing in that plan still "arrives by promotion" unless Development itself shows it as not
//      applicable (a value the server cannot take, e.g. an emptied layout description): a
//      not-applicable action does not count for --detailed-exitcode, so without this a workflow
//      that promotion failed to carry would pass;
//   4. a second random config over the first (a transition) runs the same round.
// Both ways a change reaches the server run in every run: one round directly (`apply
// --auto-approve`, `promote --auto-approve`), the other through saved files (`plan --out` + `apply
// FILE`, `promote --out` + `promote FILE`), which goes first being generated.
// Seeded and bounded (a few runs, each on its own emulator). Value spaces left out on purpose are
// marked "AVOID:" (here and in the generators).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type CliResult, type CliTest, startCliTest, twoEnvironments } from "../support/cli.js";
import {
  configArb,
  explain,
  type Generated,
  over,
  VAR,
  VAR_VALUE,
  yamlOf,
} from "../support/generated-config.js";

const FRESH = twoEnvironments("Promote Converge Inc");
const DEV = ["--env", "development"];
const PROD = ["--env", "production"];

type Way = "direct" | "saved";

interface PlanAction {
  id: string;
  kind: string;
  op: string;
  reason?: string;
  changes: { field: string }[];
}

/** The failure of one step, or undefined: the step's output, the config and its files. */
type Outcome = string | undefined;

/** One environment's config applied the given way: exit 0. */
async function applyWay(run: CliTest["run"], way: Way, env: string[], saved: string): Promise<CliResult> {
  if (way === "direct") return run(["apply", ...env, "--auto-approve"]);
  const plan = await run(["plan", ...env, "--out", saved]);
  if (plan.code !== 0) return plan;
  return run(["apply", saved, ...env]);
}

/** Development's pending changes promoted the given way. */
async function promoteWay(run: CliTest["run"], way: Way, saved: string): Promise<CliResult> {
  if (way === "direct") return run(["promote", ...DEV, "--auto-approve"]);
  const preview = await run(["promote", ...DEV, "--out", saved]);
  if (preview.code !== 0) return preview;
  return run(["promote", saved, ...DEV]);
}

/** `plan --detailed-exitcode --output json`: exit 0 and its actions, or the failure. */
async function plansToZero(
  run: CliTest["run"],
  env: string[],
  step: string,
  context: (result: CliResult, step: string) => string,
): Promise<{ failure: string } | { actions: PlanAction[] }> {
  const plan = await run(["plan", ...env, "--detailed-exitcode", "--output", "json"]);
  if (plan.code !== 0) return { failure: context(plan, step) };
  return { actions: (JSON.parse(plan.stdout) as { actions: PlanAction[] }).actions };
}

/** Fields Development's plan shows as not applicable (it cannot send them), by action id. */
function notApplicableFields(actions: readonly PlanAction[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const action of actions)
    if (action.op === "not-applicable")
      out.set(action.id, new Set(action.changes.map((change) => change.field)));
  return out;
}

/**
 * What Production's plan still expects from a promotion that Development's plan does not explain
 * (a field Development cannot take either stays different in Production too): promotion failed
 * to carry it.
 */
function notCarried(production: readonly PlanAction[], development: readonly PlanAction[]): PlanAction[] {
  const unfixable = notApplicableFields(development);
  return production.filter(
    (action) =>
      action.op === "not-applicable" &&
      (action.reason ?? "").includes("arrives by promotion") &&
      action.changes.some((change) => !unfixable.get(action.id)?.has(change.field)),
  );
}

/** One round: Development, the promotion, Production; the first failure, or undefined. */
async function round(test: CliTest, generated: Generated, way: Way, name: string): Promise<Outcome> {
  const { workspace, run } = test;
  const config = yamlOf(FRESH.header, generated);
  await workspace.write("notiform.yaml", config);
  for (const [path, text] of Object.entries(generated.files)) await workspace.write(path, text);
  const context = (result: CliResult, step: string) =>
    explain(`${name} (${way}): ${step}`, result, config, generated.files);
  const saved = (what: string) => `${what}-${name.replace(/\W/g, "")}.json`;

  // 1. Development.
  const applied = await applyWay(run, way, DEV, saved("plan-development"));
  if (applied.code !== 0) return context(applied, "apply --env development");
  const development = await plansToZero(run, DEV, "plan --env development after apply", context);
  if ("failure" in development) return `${development.failure}\n--- the apply's output\n${applied.stdout}`;

  // 2. The promotion, then nothing left to promote.
  const promoted = await promoteWay(run, way, saved("promotion"));
  if (promoted.code !== 0) return context(promoted, "promote");
  const again = await run(["promote", ...DEV, "--detailed-exitcode", "--output", "json"]);
  if (again.code !== 0)
    return `${context(again, "promote --detailed-exitcode after promote")}\n--- the promotion's output\n${promoted.stdout}${promoted.stderr}`;
  const left = JSON.parse(again.stdout) as { entries: unknown[]; carried?: { diff?: unknown[] }[] };
  const carriedDiffering = (left.carried ?? []).filter((layout) => (layout.diff?.length ?? 0) > 0);
  if (left.entries.length > 0 || carriedDiffering.length > 0)
    return `${context(again, "promote preview after promote: entries or carried layouts left")}\n--- the promotion's output\n${promoted.stdout}${promoted.stderr}`;

  // 3. Production: what promotion never carries, then nothing left, nothing left to promote.
  const production = await applyWay(run, way, PROD, saved("plan-production"));
  if (production.code !== 0) return context(production, "apply --env production");
  const planned = await plansToZero(run, PROD, "plan --env production after apply", context);
  if ("failure" in planned) return `${planned.failure}\n--- the apply's output\n${production.stdout}`;
  const missing = notCarried(planned.actions, development.actions);
  if (missing.length > 0)
    return `${name} (${way}): plan --env production still expects from promotion:\n${JSON.stringify(
      missing.map(({ id, reason, changes }) => ({ id, reason, changes })),
      null,
      1,
    )}\n--- notiform.yaml\n${config}`;
  return undefined;
}

/** One run: a fresh organization, two configs in turn, one round each (one way each). */
async function converges(first: Generated, second: Generated, firstWay: Way): Promise<Outcome> {
  const test = await startCliTest({
    ...FRESH.options,
    env: (keys) => ({
      NOTIFORM_API_KEY_DEVELOPMENT: keys.development,
      NOTIFORM_API_KEY_PRODUCTION: keys.production,
      [VAR]: VAR_VALUE,
    }),
  });
  try {
    const secondWay: Way = firstWay === "direct" ? "saved" : "direct";
    return (
      (await round(test, first, firstWay, "round 1")) ??
      (await round(test, over(first, second), secondWay, "round 2"))
    );
  } finally {
    await test.close();
  }
}

describe("both environments converge over HTTP through promotion (generative, seeded)", () => {
  it("apply and plan to zero in Development, promote until nothing is left, apply and plan to zero in Production, twice", async () => {
    await fc.assert(
      fc.asyncProperty(
        configArb,
        configArb,
        fc.constantFrom<Way>("direct", "saved"),
        async (first, second, firstWay) => {
          const failure = await converges(first, second, firstWay);
          expect(failure).toBeUndefined();
        },
      ),
      { seed: 20260512, numRuns: 6, endOnFailure: true },
    );
  }, 120_000);
});
