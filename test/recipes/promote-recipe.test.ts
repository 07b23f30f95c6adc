// The promote recipe run for real, twice, on a protected main: each merge applies Development,
// previews the promotion into the job summary, waits at the protected environment "production"
// for the approval (the test is the reviewer, and looks at Production while the job waits), then
// promotes, applies the kinds promotion never carries (topics, tenants) to Production with its
// key, and records each environment's state through its own branch and pull request. After each
// run both environments plan to nothing from their state branches. The second change edits a
// layout (its content in a file) with the e-mail template that uses it: the recipe's saved
// promotion (`promote --out`, then `promote FILE`) must carry it (issue 33: it was refused as a
// change the config does not manage), and show it though a real server nests its change in the
// workflow's, unlisted. A third
// change renames only a topic: nothing to promote, and the Production job still runs and applies it.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";
import { runCli, SEED, twoEnvironmentsConfig } from "../support/cli.js";
import { git, gitEnv } from "./harness/remote.js";
import { userRepository } from "./harness/repository.js";
import { runPush, type WorkflowRun } from "./harness/runner.js";
import { createWorld, type World } from "./harness/world.js";

const WORKFLOW = ".github/workflows/notiform-promote.yml";

interface Change {
  tags: string;
  topics: string;
  tenants: string;
  layout: string;
  subject: string;
}

const config = (url: string, change: Change) => `${twoEnvironmentsConfig("Acme Inc", url)}topics:
${change.topics}tenants:
${change.tenants}layouts:
  - identifier: brand
    name: Brand
    content: { file: layouts/brand.html }
workflows:
  - identifier: order-shipped
    name: Order shipped
    tags: [${change.tags}]
    steps:
      - name: email-customer
        type: email
        template:
          subject: "${change.subject}"
          content: "<p>Order {{orderId}} is on its way.</p>"
          layout: brand
`;
const FIRST: Change = {
  tags: "orders",
  topics: "  - key: order-updates\n    name: Order updates\n",
  tenants: "  - identifier: acme-eu\n    name: Acme Europe\n",
  layout: "<html>\n<body>\n<main>{{{body}}}</main>\n</body>\n</html>\n",
  subject: "Order {{orderId}} shipped",
};
const SECOND: Change = {
  tags: "orders, shipping",
  layout: "<html>\n<body>\n<header>Acme</header>\n<main>{{{body}}}</main>\n</body>\n</html>\n",
  subject: "Your order {{orderId}} shipped",
  topics: `${FIRST.topics}  - key: returns\n    name: Returns\n`,
  tenants: `${FIRST.tenants}  - identifier: acme-us\n    name: Acme US\n    data: { plan: pro }\n`,
};

/** Only a topic renamed: nothing to promote, and Production must still apply it. */
const THIRD: Change = {
  ...SECOND,
  topics: SECOND.topics.replace("name: Returns", "name: Returns and refunds"),
};

let emulator: EmulatorHandle | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

function expectSucceeded(run: WorkflowRun) {
  expect(run.triggered).toBe(true);
  expect(Object.keys(run.jobs)).toEqual(["apply-development", "promote-production"]);
  for (const job of Object.values(run.jobs)) {
    expect(job.result, run.log()).toBe("success");
    for (const step of job.steps) expect(step.outcome, `${step.name}\n${run.log()}`).not.toBe("failure");
  }
}

/**
 * Each environment's state branch holds the state its job wrote: rebuilt on the newest main with
 * one open pull request when that state is new, or left alone when main already has it. Both
 * environments then plan to nothing from a checkout of their state branch.
 */
async function expectSettled(world: World, handle: EmulatorHandle, run: WorkflowRun, n: number) {
  const env = {
    NOTIFORM_API_KEY_DEVELOPMENT: handle.apiKey,
    NOTIFORM_API_KEY_PRODUCTION: handle.productionApiKey ?? "",
  };
  const jobs = { development: "apply-development", production: "promote-production" };
  const open = (await world.pulls()).filter((p) => p.state === "OPEN").map((p) => p.headRefName);
  for (const [name, job] of Object.entries(jobs)) {
    const branch = `notiform/state-${name}`;
    const file = `notiform/notiform.${name}.state.json`;
    const written = await readFile(join(run.jobs[job]?.workspace ?? "", file), "utf8");
    expect(await world.remote.show(`refs/heads/${branch}`, file), `${n} ${name}`).toBe(written);
    const onMain = await world.remote.show("refs/heads/main", file).catch(() => "");
    if (onMain !== written) {
      const head = (await world.remote.rev(`refs/heads/${branch}`)) ?? "";
      expect(await world.remote.parents(head), `${n} ${name}`).toEqual([
        await world.remote.rev("refs/heads/main"),
      ]);
      expect(
        open.filter((b) => b === branch),
        `${n} ${name}`,
      ).toHaveLength(1);
    } else {
      expect(open, `${n} ${name}`).not.toContain(branch);
    }
    const dir = join(world.root, `check-${name}-${n}`);
    await git(["clone", "-q", "--branch", branch, world.remote.url, dir], world.root, gitEnv(world.root));
    const args = ["plan", "--config", "notiform/notiform.yaml", "--env", name, "--detailed-exitcode"];
    const plan = await runCli(args, { cwd: dir, env });
    expect(plan.code, `${name}: ${plan.stdout}${plan.stderr}`).toBe(0);
  }
  expect(open.length).toBeGreaterThan(0);
}

describe("notiform-promote.yml on a protected main", () => {
  it("applies Development, promotes after the approval, and Production then plans to nothing, twice; then applies a topic-only change to Production", async () => {
    emulator = await startEmulator({ seedFile: SEED, port: 0 });
    const handle = emulator;
    const world = await createWorld(await userRepository(["notiform-promote.yml"]), {
      NOTIFORM_API_KEY_DEVELOPMENT: handle.apiKey,
      NOTIFORM_API_KEY_PRODUCTION: handle.productionApiKey ?? "",
    });
    const shipped = (environment: "development" | "production") =>
      handle.store(environment).workflows.find((w) => w.triggers[0]?.identifier === "order-shipped");
    const approvals: { environment: string; tags: unknown }[] = [];
    const approve = (environment: string) => {
      approvals.push({ environment, tags: shipped("production")?.tags });
      return true;
    };

    for (const [n, change] of [FIRST, SECOND].entries()) {
      const push = await world.remote.mergeChange(
        `change-${n}`,
        {
          "notiform/notiform.yaml": config(handle.url, change),
          "notiform/layouts/brand.html": change.layout,
        },
        `Change ${n}`,
      );
      const run = await runPush(world, WORKFLOW, push, { approve });
      expectSucceeded(run);
      const tags = change.tags.split(", ");
      // The approver saw the preview, and Production had not received the change yet.
      expect(run.jobs["apply-development"]?.summary).toContain("<!-- notiform-promote -->");
      // After the approval, the summary shows what Production receives as a diff against it.
      expect(run.jobs["promote-production"]?.summary).toContain("<!-- notiform-promote -->");
      expect(run.jobs["promote-production"]?.summary).not.toContain("Production was not read");
      expect(approvals[n]?.environment).toBe("production");
      expect(approvals[n]?.tags).not.toEqual(tags);
      expect(shipped("development")?.tags).toEqual(tags);
      expect(shipped("production")?.tags).toEqual(tags);
      // The layout's change travels nested in the workflow's (its steps name the layout, as a
      // real server nests it): the approver saw it listed after the changes, and it reached Production.
      expect(run.jobs["apply-development"]?.summary).toContain(
        "layout brand, used by workflow order-shipped",
      );
      // The layout (created, then edited) reached Production through the saved promotion.
      const brand = (environment: "development" | "production") =>
        handle.store(environment).layouts?.find((l) => l.identifier === "brand" && !l.deleted);
      expect(brand("development")?.content).toBe(change.layout);
      expect(brand("production")?.content).toBe(change.layout);
      // Topics and tenants are never promoted: the Production apply made them there.
      for (const environment of ["development", "production"] as const) {
        const store = handle.store(environment);
        for (const key of change.topics.matchAll(/key: (\S+)/g))
          expect(store.topics.filter((t) => t.key === key[1])).toHaveLength(1);
        for (const id of change.tenants.matchAll(/identifier: (\S+)/g))
          expect(store.tenants.filter((t) => t.identifier === id[1])).toHaveLength(1);
      }
      await expectSettled(world, handle, run, n);
      // Before the second merge, Development's state pull request is merged (its branch stays) and
      // Production's is left open: the second run starts from each environment's newest state.
      if (n === 0) {
        const pulls = await world.pulls();
        const development = pulls.find((p) => p.headRefName === "notiform/state-development");
        expect(pulls.find((p) => p.headRefName === "notiform/state-production")?.state).toBe("OPEN");
        const merged = await world.mergePull(development?.number ?? 0);
        expect((await runPush(world, WORKFLOW, merged)).triggered).toBe(false);
      }
    }
    expect(approvals).toHaveLength(2);

    // A change to a kind promotion never carries (a topic renamed): Development has nothing to
    // promote, yet Production's job runs (after the approval) and applies it there.
    const push = await world.remote.mergeChange(
      "change-2",
      { "notiform/notiform.yaml": config(handle.url, THIRD), "notiform/layouts/brand.html": THIRD.layout },
      "Change 2",
    );
    const run = await runPush(world, WORKFLOW, push, { approve });
    expectSucceeded(run);
    expect(approvals).toHaveLength(3);
    const promote = run.jobs["promote-production"]?.steps.find((step) =>
      step.name?.startsWith("notiform promote"),
    );
    expect(promote?.outcome).toBe("skipped");
    for (const environment of ["development", "production"] as const)
      expect(handle.store(environment).topics.find((t) => t.key === "returns")?.name).toBe(
        "Returns and refunds",
      );
    await expectSettled(world, handle, run, 2);
    // Three full runs of the recipe (each dozens of processes): more than the default bound on a
    // loaded machine. A bound, not a speed assertion.
  }, 300_000);
});
