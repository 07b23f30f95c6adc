// The apply recipes (the CLI's and the Action's) run for real, three merges deep, on a protected
// main: each merge to main starts the workflow as GitHub would (the committed workflow, its path
// filter), its steps run with bash in a shallow checkout, `npx notiform` is the release `npm ci`
// installed, the emulator is the server, the state file travels through the branch notiform/state
// and its pull request (the gh stand-in's record). Merge 1, then its state pull request merged
// (the branch left behind; that merge must start no apply), merge 2, then merge 3 while the state
// pull request of merge 2 is still open.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";
import { runCli, SEED } from "../support/cli.js";
import { git, gitEnv } from "./harness/remote.js";
import { userRepository } from "./harness/repository.js";
import { runPush, type WorkflowRun } from "./harness/runner.js";
import { createWorld, type World } from "./harness/world.js";

const STATE = "notiform/notiform.state.json";
const BRANCH = "notiform/state";

const config = (topics: string, groups: string) => `version: 1
organization: Acme Inc
topics:
${topics}notificationGroups:
${groups}`;
const ORDERS = "  - key: order-updates\n    name: Order updates\n";
const BILLING = "  - key: billing\n    name: Billing\n";
const CHANGES = [
  config(ORDERS, BILLING),
  config(
    `${ORDERS}  - key: newsletter\n    name: Newsletter\n`,
    `${BILLING}  - key: marketing\n    name: Marketing\n`,
  ),
  config(
    `${ORDERS}  - key: newsletter\n    name: Monthly newsletter\n`,
    `${BILLING}  - key: marketing\n    name: Marketing\n  - key: security\n    name: Security\n`,
  ),
];

let emulator: EmulatorHandle | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

function expectSucceeded(run: WorkflowRun) {
  expect(run.triggered).toBe(true);
  for (const job of Object.values(run.jobs)) {
    expect(job.result, run.log()).toBe("success");
    for (const step of job.steps) expect(step.outcome, `${step.name}\n${run.log()}`).not.toBe("failure");
  }
}

/** The state branch after a run: based on the newest main, holding the state the run wrote. */
async function expectStateBranch(world: World, run: WorkflowRun) {
  const main = await world.remote.rev("refs/heads/main");
  const head = await world.remote.rev(`refs/heads/${BRANCH}`);
  expect(head).toBeDefined();
  expect(await world.remote.parents(head ?? "")).toEqual([main]);
  const written = await readFile(join(Object.values(run.jobs)[0]?.workspace ?? "", STATE), "utf8");
  expect(await world.remote.show(`refs/heads/${BRANCH}`, STATE)).toBe(written);
  const open = (await world.pulls()).filter((p) => p.state === "OPEN");
  expect(open.map((p) => [p.headRefName, p.baseRefName])).toEqual([[BRANCH, "main"]]);
  return open[0]?.number ?? 0;
}

describe.each(["notiform-apply.yml", "notiform-action-apply.yml"])("%s on a protected main", (recipe) => {
  it("applies three merges in a row; the state reaches main only through one pull request", async () => {
    emulator = await startEmulator({ seedFile: SEED, port: 0, strictSpec: true });
    const world = await createWorld(
      await userRepository([recipe]),
      { NOTIFORM_API_KEY: emulator.apiKey },
      {},
      // A config without environments reaches its server through the repository variable
      // NOTIFORM_API_URL, which the recipe passes on (where a real run may use the hosted default).
      { NOTIFORM_API_URL: emulator.url },
    );
    const workflow = `.github/workflows/${recipe}`;

    // Merge 1: the first config. Applied, its state on the branch, one pull request.
    const first = await runPush(
      world,
      workflow,
      await world.remote.mergeChange(
        "add-config",
        { "notiform/notiform.yaml": CHANGES[0] ?? "" },
        "Add config",
      ),
    );
    expectSucceeded(first);
    const firstPull = await expectStateBranch(world, first);
    expect(emulator.store().topics.map((t) => t.key)).toContain("order-updates");

    // The state pull request is merged (its branch stays): no apply starts for it.
    const stateMerge = await world.mergePull(firstPull);
    expect(stateMerge.changed).toEqual([STATE]);
    expect((await runPush(world, workflow, stateMerge)).triggered).toBe(false);
    expect(await world.remote.show("refs/heads/main", STATE)).toBe(
      await world.remote.show(`refs/heads/${BRANCH}`, STATE),
    );

    // Merge 2: the left-behind branch is rebuilt from the newest main; a new pull request.
    const second = await runPush(
      world,
      workflow,
      await world.remote.mergeChange(
        "newsletter",
        { "notiform/notiform.yaml": CHANGES[1] ?? "" },
        "Newsletter",
      ),
    );
    expectSucceeded(second);
    const secondPull = await expectStateBranch(world, second);
    expect(secondPull).not.toBe(firstPull);

    // Merge 3 while that pull request is open: the branch moves on, still one pull request.
    const third = await runPush(
      world,
      workflow,
      await world.remote.mergeChange("security", { "notiform/notiform.yaml": CHANGES[2] ?? "" }, "Security"),
    );
    expectSucceeded(third);
    expect(await expectStateBranch(world, third)).toBe(secondPull);
    expect((await world.pulls()).map((p) => p.state)).toEqual(["MERGED", "OPEN"]);

    // Nothing was made twice, and the state branch's checkout plans to nothing.
    const store = emulator.store();
    const managed = store.topics.filter((t) => t.key === "order-updates" || t.key === "newsletter");
    expect(managed.map((t) => [t.key, t.name])).toEqual([
      ["order-updates", "Order updates"],
      ["newsletter", "Monthly newsletter"],
    ]);
    for (const name of ["Billing", "Marketing", "Security"])
      expect(store.notificationGroups.filter((g) => g.name === name)).toHaveLength(1);
    const check = join(world.root, "check");
    await git(["clone", "-q", "--branch", BRANCH, world.remote.url, check], world.root, gitEnv(world.root));
    const plan = await runCli(["plan", "--config", "notiform/notiform.yaml", "--detailed-exitcode"], {
      cwd: check,
      env: { NOTIFORM_API_KEY: emulator.apiKey, NOTIFORM_API_URL: emulator.url },
    });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });
});
