// Every example is checked: each config validates (each environment too), the basic, multi-file
// and content examples plan and apply against the emulator and then plan to nothing, the seed
// loads, `npm run demo`'s script shows content changing and applied, and the GitHub Actions
// recipes run the commands the README promises.
import { cp, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { type EmulatorHandle, loadSeedFile, startEmulator } from "../src/emulator/index.js";
import { createWorkspace, runCli, runProcess } from "./support/cli.js";

const EXAMPLES = join(import.meta.dirname, "..", "examples");

let emulator: EmulatorHandle | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function copyOf(example: string) {
  const workspace = await createWorkspace();
  await cp(join(EXAMPLES, example), workspace.dir, { recursive: true });
  return workspace;
}

describe("examples validate", () => {
  it.each([
    ["basic", []],
    ["multi-file", []],
    ["content", []],
    ["environments", []],
    ["environments", ["--env", "development"]],
    ["environments", ["--env", "production"]],
  ])("%s %s", async (example, extra) => {
    const workspace = await copyOf(example);
    const result = await runCli(["validate", ...extra], { cwd: workspace.dir, env: {} });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/valid/);
  });

  it("the emulator seed loads", async () => {
    const seed = await loadSeedFile(join(EXAMPLES, "emulator-seed.yaml"));
    expect(seed.organization?.name).toBe("Acme Inc");
    // Content to try the headline feature on: a workflow with an e-mail and an in-app step.
    const digest = seed.environments?.development?.workflows?.find((w) => w.identifier === "weekly-digest");
    expect(digest?.steps?.map((s) => s.template.type)).toEqual(["email", "in_app"]);
  });
});

describe("examples plan and apply against the emulator", () => {
  it.each([["basic"], ["multi-file"], ["content"]])(
    "%s: plan shows changes, apply makes them, the next plan is empty",
    async (example) => {
      emulator = await startEmulator({ seedFile: join(EXAMPLES, "emulator-seed.yaml"), port: 0 });
      const workspace = await copyOf(example);
      const env = { NOTIFORM_API_KEY: emulator.apiKey, NOTIFORM_API_URL: emulator.url };
      const plan = await runCli(["plan", "--detailed-exitcode"], { cwd: workspace.dir, env });
      expect(plan.code, plan.stderr).toBe(2);
      const apply = await runCli(["apply", "--auto-approve"], { cwd: workspace.dir, env });
      expect(apply.code, apply.stdout + apply.stderr).toBe(0);
      const again = await runCli(["plan", "--detailed-exitcode"], { cwd: workspace.dir, env });
      expect(again.stdout).toContain("No changes.");
      expect(again.code).toBe(0);
    },
  );

  it("environments: each environment plans and applies with its own key, state file and ids", async () => {
    emulator = await startEmulator({ seedFile: join(EXAMPLES, "emulator-seed.yaml"), port: 0 });
    const workspace = await copyOf("environments");
    const env = {
      NOTIFORM_API_KEY_DEVELOPMENT: emulator.apiKey,
      NOTIFORM_API_KEY_PRODUCTION: emulator.productionApiKey ?? "",
    };
    for (const name of ["development", "production"]) {
      const args = ["--env", name, "--api-url", emulator.url];
      const apply = await runCli(["apply", "--auto-approve", ...args], { cwd: workspace.dir, env });
      expect(apply.code, apply.stdout + apply.stderr).toBe(0);
      const state = JSON.parse(await workspace.read(`notiform.${name}.state.json`));
      expect(state.target.environment).toBe(name);
      expect(state.serverEnvironment.id).toBe(emulator.store(name as "development").environmentId);
      const again = await runCli(["plan", "--detailed-exitcode", ...args], { cwd: workspace.dir, env });
      expect(again.code, again.stdout + again.stderr).toBe(0);
    }
    // Workflows reach Production by promotion: then both environments' copies have the base's
    // tags, each under its own id, and Production plans to zero.
    const promoted = await runCli(
      ["promote", "--env", "development", "--auto-approve", "--api-url", emulator.url],
      {
        cwd: workspace.dir,
        env,
      },
    );
    expect(promoted.code, promoted.stdout + promoted.stderr).toBe(0);
    const settled = await runCli(
      ["plan", "--env", "production", "--detailed-exitcode", "--api-url", emulator.url],
      {
        cwd: workspace.dir,
        env,
      },
    );
    expect(settled.stdout, settled.stderr).toContain("No changes.");
    for (const name of ["development", "production"] as const) {
      const shipped = emulator
        .store(name)
        .workflows.find((w) => w.triggers[0]?.identifier === "order-shipped");
      expect(shipped?.tags).toEqual(["orders"]);
    }
    expect(emulator.store("development").overrides).toHaveLength(1);
    expect(emulator.store("production").overrides).toHaveLength(0);
  });
});

describe("the demo (npm run demo, after its build)", () => {
  it("plans and applies workflow content, edits it as a pull request would, and settles twice", async () => {
    const root = join(EXAMPLES, "..");
    const result = await runProcess(process.execPath, [join(root, "scripts", "demo.mjs")], {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", HOME: root, NO_COLOR: "1" },
    });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    // The content shown: a layout created, an e-mail step's subject and file-held HTML, an
    // in-app step, branding; then the edit's subject and layout change.
    expect(result.stdout).toContain("+ layout brand");
    expect(result.stdout).toContain('step digest-email  layout: "brand"');
    expect(result.stdout).toContain("+<h1>Hello {{firstName}},</h1>");
    expect(result.stdout).toContain("step digest-in-app  content:");
    expect(result.stdout).toContain("~ branding organization");
    expect(result.stdout).toContain(
      'step digest-email  subject: "{{firstName}}, your week at Acme" -> "{{firstName}}, your Acme week in review"',
    );
    expect(result.stdout).toContain("~ layout brand");
    expect(result.stdout.match(/No changes\./g)).toHaveLength(2);
    expect(result.stdout).toContain("demo: done.");
  });
});

describe("GitHub Actions recipes", () => {
  it("plans on pull requests with a sticky comment and the job summary", async () => {
    const text = await readFile(join(EXAMPLES, "github-actions", "notiform-plan.yml"), "utf8");
    const workflow = parse(text);
    expect(Object.keys(workflow.on)).toEqual(["pull_request"]);
    const runs = workflow.jobs.plan.steps.map((s: { run?: string }) => s.run ?? "").join("\n");
    expect(runs).toContain(
      "notiform plan --config notiform/notiform.yaml --output markdown --detailed-exitcode",
    );
    expect(runs).toContain("GITHUB_STEP_SUMMARY");
    expect(text).toContain("<!-- notiform-plan -->");
  });

  it("applies on merge to main, serialised, committing the state file back", async () => {
    const workflow = parse(await readFile(join(EXAMPLES, "github-actions", "notiform-apply.yml"), "utf8"));
    expect(workflow.on.push.branches).toEqual(["main"]);
    expect(workflow.concurrency).toEqual({ group: "notiform-apply", "cancel-in-progress": false });
    const runs = workflow.jobs.apply.steps.map((s: { run?: string }) => s.run ?? "").join("\n");
    expect(runs).toContain("notiform apply --config notiform/notiform.yaml --auto-approve");
    expect(runs).toContain("state=notiform/notiform.state.json");
  });

  it("applies to Development on merge, then promotes to Production behind a protected environment", async () => {
    const text = await readFile(join(EXAMPLES, "github-actions", "notiform-promote.yml"), "utf8");
    const workflow = parse(text);
    expect(workflow.on.push.branches).toEqual(["main"]);
    const stepsOf = (job: string) =>
      workflow.jobs[job].steps.map((s: { run?: string }) => s.run ?? "").join("\n");
    expect(stepsOf("apply-development")).toContain(
      "notiform apply --config notiform/notiform.yaml --env development --auto-approve",
    );
    expect(stepsOf("apply-development")).toContain(
      "notiform promote --config notiform/notiform.yaml --env development --output markdown --detailed-exitcode",
    );
    expect(stepsOf("apply-development")).toContain("GITHUB_STEP_SUMMARY");
    const promote = workflow.jobs["promote-production"];
    expect(promote.environment).toBe("production");
    expect(promote.needs).toBe("apply-development");
    expect(stepsOf("promote-production")).toContain("notiform promote promotion.json");
    expect(stepsOf("promote-production")).toContain("--out promotion.json");
    // Topics and tenants are never promoted: Production gets them from an apply with its own key.
    expect(stepsOf("promote-production")).toContain(
      "notiform apply --config notiform/notiform.yaml --env production --auto-approve",
    );
    // A protected main takes no direct push: each state file goes through its own branch (read
    // first for the newest state, then written).
    const envOf = (job: string) => [
      ...new Set<string>(
        workflow.jobs[job].steps.flatMap((s: { env?: Record<string, string> }) =>
          s.env?.BRANCH ? [s.env.BRANCH] : [],
        ),
      ),
    ];
    expect(envOf("apply-development")).toEqual(["notiform/state-development"]);
    expect(envOf("promote-production")).toEqual(["notiform/state-production"]);
    expect(text).not.toMatch(/git push(?! --force-with-lease="\$BRANCH:\$lease" origin "\$BRANCH")/);
  });
});

describe("GitHub Actions recipes: safety", () => {
  const RECIPES = [
    "notiform-plan.yml",
    "notiform-apply.yml",
    "notiform-action-plan.yml",
    "notiform-action-apply.yml",
    "notiform-promote.yml",
    "notiform-drift.yml",
  ];
  type Step = { uses?: string; run?: string; if?: string; with?: Record<string, string> };
  const stepsOf = async (name: string): Promise<Step[]> => {
    const workflow = parse(await readFile(join(EXAMPLES, "github-actions", name), "utf8"));
    return Object.values(workflow.jobs as Record<string, { steps: Step[] }>).flatMap((job) => job.steps);
  };

  it.each(RECIPES)("%s pins every action by a full commit SHA", async (name) => {
    const uses = (await stepsOf(name)).flatMap((s) => (s.uses ? [s.uses] : []));
    expect(uses.length).toBeGreaterThan(0);
    for (const ref of uses) expect(ref).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/);
  });

  it.each(["notiform-apply.yml", "notiform-action-apply.yml"])(
    "%s records state through a branch rebuilt from the newest main and a pull request, never pushing main",
    async (name) => {
      const text = await readFile(join(EXAMPLES, "github-actions", name), "utf8");
      const workflow = parse(text);
      expect(workflow.on.push.paths).toContain("!notiform/*.state.json");
      const runs = (await stepsOf(name)).map((s) => s.run ?? "").join("\n");
      expect(runs).toContain("state=notiform/notiform.state.json");
      // A shallow checkout knows nothing of the branch: the lease must name the value just fetched,
      // or every push after the first is refused as "stale info".
      const fetch = runs.indexOf(
        'git fetch --depth=1 origin "+refs/heads/notiform/state:refs/remotes/origin/notiform/state"',
      );
      const rebuild = runs.indexOf("git checkout -f -B notiform/state origin/main");
      const push = runs.indexOf('git push --force-with-lease="notiform/state:$lease" origin notiform/state');
      expect(fetch).toBeGreaterThan(0);
      expect(rebuild).toBeGreaterThan(fetch);
      expect(push).toBeGreaterThan(rebuild);
      expect(runs).toContain("gh pr create --base main --head notiform/state");
      expect(runs).not.toMatch(
        /git push(?! --force-with-lease="notiform\/state:\$lease" origin notiform\/state)/,
      );
    },
  );

  it("the plain plan recipe explains forked pull requests instead of failing for want of a key", async () => {
    const steps = await stepsOf("notiform-plan.yml");
    const fork = steps.find((s) => s.if?.includes("head.repo.full_name != github.repository"));
    expect(fork?.run).toContain("::notice::");
    expect(fork?.run).toContain("fork");
    const planStep = steps.find((s) => s.run?.includes("npx --no -- notiform plan"));
    expect(planStep?.if).toContain("steps.fork.outputs.skip != 'true'");
  });

  it.each(["notiform-action-plan.yml", "notiform-action-apply.yml"])(
    "%s uses the notiform Action with inputs it declares and the key from a secret",
    async (name) => {
      const action = parse(await readFile(join(EXAMPLES, "..", "action.yml"), "utf8"));
      const step = (await stepsOf(name)).find((s) => s.uses?.startsWith("notiform/notiform@"));
      expect(step).toBeDefined();
      for (const input of Object.keys(step?.with ?? {})) expect(Object.keys(action.inputs)).toContain(input);
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub expression, not a template.
      expect(step?.with?.["api-key"]).toBe("${{ secrets.NOTIFORM_API_KEY }}");
      expect(["plan", "apply"]).toContain(step?.with?.command);
    },
  );

  it.each(RECIPES)(
    "%s runs notiform only with `npx --no --` (the name is not on the registry)",
    async (name) => {
      const runs = (await stepsOf(name)).map((s) => s.run ?? "").join("\n");
      // Without --no, npx in CI installs a missing package by name: whoever claims "notiform";
      // without --, `--no` takes the name as its value and a first flag (--help) goes to npm.
      expect(runs).not.toMatch(/\bnpx (?!--no -- )/);
      expect(runs).not.toMatch(/npm (install|i) /);
    },
  );

  it("no recipe runs on pull_request_target (secrets with code from forks)", async () => {
    for (const name of RECIPES) {
      const text = await readFile(join(EXAMPLES, "github-actions", name), "utf8");
      expect(Object.keys(parse(text).on)).not.toContain("pull_request_target");
    }
  });
});
