// The drift recipe run for real, five times in a row, on its schedule and on demand: with no
// drift it opens nothing; when someone edits Production behind git's back it opens ONE issue
// (labelled, its body the markdown plan); when the drift changes (Development edited too) the same
// issue is updated; a run whose plan fails (a revoked key) fails the job and leaves the issue as
// it is; once both environments are applied again it closes the issue, and the next run opens
// nothing. The server is the emulator; the issues are the gh stand-in's.
import { afterEach, describe, expect, it } from "vitest";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";
import { runCli, SEED } from "../support/cli.js";
import { git, gitEnv } from "./harness/remote.js";
import { userRepository } from "./harness/repository.js";
import { runDispatch, runSchedule, type WorkflowRun } from "./harness/runner.js";
import { createWorld, type World } from "./harness/world.js";

const WORKFLOW = ".github/workflows/notiform-drift.yml";
const MARKER = "<!-- notiform-drift -->";

const config = (url: string) => `version: 1
organization: Acme Inc
environments:
  development:
    apiUrl: ${url}
    apiKeyEnv: NOTIFORM_API_KEY_DEVELOPMENT
    serverEnvironment: Development
  production:
    apiUrl: ${url}
    apiKeyEnv: NOTIFORM_API_KEY_PRODUCTION
    serverEnvironment: Production
topics:
  - key: order-updates
    name: Order updates
tenants:
  - identifier: acme-eu
    name: Acme Europe
`;

let emulator: EmulatorHandle | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const jobOf = (run: WorkflowRun) => run.jobs.drift;

/** What a person does in the dashboard: a write with that environment's key, outside git. */
async function editLive(handle: EmulatorHandle, key: string, path: string, body: unknown) {
  const response = await fetch(`${handle.url}${path}`, {
    method: "PATCH",
    headers: { Authorization: `ApiKey ${key}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status, path).toBe(200);
}

/** Both environments made to match main's config again (what an apply run would do). */
async function applyBoth(world: World, env: Record<string, string>) {
  const dir = `${world.root}/apply-${world.nextRunId()}`;
  await git(["clone", "-q", world.remote.url, dir], world.root, gitEnv(world.root));
  for (const name of ["development", "production"]) {
    const args = ["apply", "--config", "notiform/notiform.yaml", "--env", name, "--auto-approve"];
    const result = await runCli(args, { cwd: dir, env });
    expect(result.code, result.stdout + result.stderr).toBe(0);
  }
}

describe("notiform-drift.yml on a schedule and on demand", () => {
  it("keeps one issue while anything drifted, updated each run, and closes it at zero", async () => {
    emulator = await startEmulator({ seedFile: SEED, port: 0 });
    const handle = emulator;
    const keys = {
      NOTIFORM_API_KEY_DEVELOPMENT: handle.apiKey,
      NOTIFORM_API_KEY_PRODUCTION: handle.productionApiKey ?? "",
    };
    const world = await createWorld(
      { ...(await userRepository(["notiform-drift.yml"])), "notiform/notiform.yaml": config(handle.url) },
      { ...keys },
    );
    const open = async () => (await world.issues()).filter((i) => i.state === "OPEN");
    await applyBoth(world, keys);

    // 1. No drift: nothing to open, the summary says so.
    const quiet = await runSchedule(world, WORKFLOW);
    expect(quiet.triggered).toBe(true);
    expect(jobOf(quiet)?.result, quiet.log()).toBe("success");
    expect(jobOf(quiet)?.summary).toContain("differs from `main` in: nothing");
    expect(await world.issues()).toEqual([]);

    // 2. Someone renames a topic in Production's dashboard: one issue, its body the plan.
    await editLive(handle, keys.NOTIFORM_API_KEY_PRODUCTION, "/v1/topics/order-updates", {
      name: "Order news",
    });
    const appeared = await runDispatch(world, WORKFLOW);
    expect(jobOf(appeared)?.result, appeared.log()).toBe("success");
    expect(appeared.log()).toContain("::warning::notiform: drift in production");
    const [issue] = await open();
    expect(await open()).toHaveLength(1);
    expect(issue?.title).toBe("notiform: drift in production");
    expect(issue?.labels).toEqual([{ name: "notiform-drift" }]);
    expect(issue?.author.login).toBe("app/github-actions");
    expect(issue?.body.startsWith(MARKER)).toBe(true);
    expect(issue?.body).toContain('name: "Order news" -> "Order updates"');
    expect(issue?.body).toContain("- `development`: no drift");
    expect(issue?.body).not.toContain(handle.productionApiKey ?? "<no key>");

    // 3. The drift changes (Development's tenant renamed too): the same issue, its body replaced.
    await editLive(handle, keys.NOTIFORM_API_KEY_DEVELOPMENT, "/v1/tenants/acme-eu", { name: "Acme EU" });
    const changed = await runSchedule(world, WORKFLOW);
    expect(jobOf(changed)?.result, changed.log()).toBe("success");
    expect(await open()).toHaveLength(1);
    const [updated] = await open();
    expect(updated?.number).toBe(issue?.number);
    expect(updated?.title).toBe("notiform: drift in development production");
    expect(updated?.body).toContain('name: "Acme EU" -> "Acme Europe"');
    expect(updated?.body).toContain('name: "Order news" -> "Order updates"');
    expect(updated?.body).not.toContain("no drift");

    // 4. Production's plan fails (a revoked key) and Development is fixed meanwhile: the run
    // cannot tell whether Production still drifts, so it fails and leaves the issue as it was.
    await editLive(handle, keys.NOTIFORM_API_KEY_DEVELOPMENT, "/v1/tenants/acme-eu", {
      name: "Acme Europe",
    });
    world.secrets.NOTIFORM_API_KEY_PRODUCTION = "nf_revoked_key";
    const failing = await runDispatch(world, WORKFLOW);
    world.secrets.NOTIFORM_API_KEY_PRODUCTION = keys.NOTIFORM_API_KEY_PRODUCTION;
    expect(jobOf(failing)?.result, failing.log()).toBe("failure");
    expect(failing.log()).toContain("::error::notiform plan failed for: production");
    expect(failing.log()).not.toContain("nf_revoked_key");
    expect(await open()).toEqual([updated]);

    // 5. Applied again: every environment plans to zero and the issue is closed, with a comment.
    await applyBoth(world, keys);
    const resolved = await runSchedule(world, WORKFLOW);
    expect(jobOf(resolved)?.result, resolved.log()).toBe("success");
    expect(await open()).toEqual([]);
    const closed = (await world.issues()).find((i) => i.number === issue?.number);
    expect(closed?.state).toBe("CLOSED");
    expect(closed?.comments.at(-1)?.body).toContain("plans to zero changes");

    // 6. Still nothing drifted: no new issue, and the closed one is left alone.
    const after = await runDispatch(world, WORKFLOW);
    expect(jobOf(after)?.result, after.log()).toBe("success");
    expect(await world.issues()).toHaveLength(1);
  }, 180_000); // six workflow runs, each planning two environments
});
