// An apply killed with SIGKILL at arbitrary points (after the Nth request reached the server)
// leaves a state file that the next run trusts: the re-run converges, creates nothing twice,
// and the plan after it is empty.
import { describe, expect, it } from "vitest";
import { cliTests, killWhen } from "../support/cli.js";
import { buildScaleConfig, scaleSeed } from "./scale-config.js";

const cliTest = cliTests();

const scale = { topics: 30, groups: 6, workflows: 4, tenants: 10 };

describe("apply killed part-way", () => {
  it.each([2, 5, 9, 17, 28, 41])("converges on a re-run after a kill -9 at request %i", async (killAt) => {
    const { emulator: handle, run } = await cliTest({
      seed: scaleSeed(scale),
      latencyMs: 15,
      config: buildScaleConfig(scale),
    });
    const args = (...rest: string[]) => [...rest, "--concurrency", "2"];

    const killed = await run(args("apply", "--auto-approve"), {
      onSpawn: killWhen(() => handle.requests.length >= killAt),
    });
    expect(killed.signal).toBe("SIGKILL");

    const rerun = await run(args("apply", "--auto-approve"));
    expect(rerun.code, rerun.stderr).toBe(0);
    const plan = await run(args("plan", "--detailed-exitcode"));
    expect(plan.code, plan.stdout).toBe(0);

    const store = handle.store("development");
    const groupNames = store.notificationGroups.map((g) => g.name);
    expect(new Set(groupNames).size).toBe(groupNames.length);
    const topicKeys = store.topics.map((t) => t.key);
    expect(new Set(topicKeys).size).toBe(topicKeys.length);
  });
});
