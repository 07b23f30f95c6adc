// An apply killed with SIGKILL at arbitrary points (after the Nth request reached the server)
// leaves a state file that the next run trusts: the re-run converges, creates nothing twice,
// and the plan after it is empty.
import { afterEach, describe, expect, it } from "vitest";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";
import { createWorkspace, killWhen, runCli } from "../support/cli.js";
import { buildScaleConfig, scaleSeed } from "./scale-config.js";

let emulator: EmulatorHandle | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const scale = { topics: 30, groups: 6, workflows: 4, tenants: 10 };

describe("apply killed part-way", () => {
  it.each([2, 5, 9, 17, 28, 41])("converges on a re-run after a kill -9 at request %i", async (killAt) => {
    emulator = await startEmulator({
      seedFile: "examples/emulator-seed.yaml",
      seed: scaleSeed(scale),
      port: 0,
      latencyMs: 15,
    });
    const handle = emulator;
    const workspace = await createWorkspace({ "notiform.yaml": buildScaleConfig(scale) });
    const env = { NOTIFORM_API_KEY: handle.apiKey };
    const args = (...rest: string[]) => [...rest, "--api-url", handle.url, "--concurrency", "2"];

    const killed = await runCli(args("apply", "--auto-approve"), {
      cwd: workspace.dir,
      env,
      onSpawn: killWhen(() => handle.requests.length >= killAt),
    });
    expect(killed.signal).toBe("SIGKILL");

    const rerun = await runCli(args("apply", "--auto-approve"), { cwd: workspace.dir, env });
    expect(rerun.code, rerun.stderr).toBe(0);
    const plan = await runCli(args("plan", "--detailed-exitcode"), { cwd: workspace.dir, env });
    expect(plan.code, plan.stdout).toBe(0);

    const store = handle.store("development");
    const groupNames = store.notificationGroups.map((g) => g.name);
    expect(new Set(groupNames).size).toBe(groupNames.length);
    const topicKeys = store.topics.map((t) => t.key);
    expect(new Set(topicKeys).size).toBe(topicKeys.length);
  });
});
