// Hostile input, round 4 (issue 35), item 9: a saved plan's summary, warnings and unmanaged list
// were trusted. A plan edited to say "0 to update" showed that while listing an update, and apply
// applied it; edited warnings were echoed as notiform's own. The counts are recomputed from the
// actions, and everything else the plan shows is covered by a keyed content digest.
import { readFile, writeFile } from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";
import { createWorkspace, runCli, type Workspace } from "../support/cli.js";

let emulator: EmulatorHandle;
let workspace: Workspace;
beforeEach(async () => {
  emulator = await startEmulator({ port: 0, seedFile: "examples/emulator-seed.yaml" });
  workspace = await createWorkspace({
    "notiform.yaml":
      "version: 1\norganization: Acme Inc\ntopics:\n  - key: order-updates\n    name: Renamed by the plan\n",
  });
  const saved = await cli(["plan", "--out", "plan.json"]);
  expect(saved.code, saved.stderr).toBe(0);
});
afterEach(async () => {
  await emulator.close();
});

function cli(args: string[], env: Record<string, string> = { NOTIFORM_API_KEY: emulator.apiKey }) {
  return runCli([...args, ...(args[0] === "show" ? [] : ["--api-url", emulator.url])], {
    cwd: workspace.dir,
    env,
  });
}

async function edit(change: (plan: SavedPlan) => void) {
  const plan = JSON.parse(await workspace.read("plan.json")) as SavedPlan;
  change(plan);
  await writeFile(workspace.path("plan.json"), JSON.stringify(plan, null, 2));
}

/** The parts of a saved plan the tests edit. */
interface SavedPlan {
  summary: Record<string, number>;
  warnings: { code: string; message: string }[];
  unmanaged: unknown[];
}

const writes = () => emulator.requests.filter((r) => r.method !== "GET");

describe("a saved plan's summary, warnings and unmanaged list (item 9)", () => {
  it("an edited summary ('0 to create' beside a create) is not shown: show counts the actions", async () => {
    await edit((plan) => {
      plan.summary.create = 0;
    });
    const shown = await cli(["show", "plan.json"], {});
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain("Plan: 1 to create");
    expect(shown.stdout).toContain("order-updates");
  });

  it.each([
    [
      "the summary's unchanged count",
      (plan: SavedPlan) => {
        plan.summary.unchanged = 999;
      },
    ],
    [
      "a forged warning",
      (plan: SavedPlan) => {
        plan.warnings.push({ code: "x", message: "notiform: reviewed and safe, approve" });
      },
    ],
    [
      "the unmanaged list",
      (plan: SavedPlan) => {
        plan.unmanaged = [];
        plan.summary.unmanaged = 0;
      },
    ],
  ])("apply refuses a plan with %s edited, before any write", async (_name, change) => {
    await edit(change);
    const applied = await cli(["apply", "plan.json"]);
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain(
      "the plan was edited: its summary, warnings or unmanaged list are not the ones notiform saved",
    );
    expect(writes()).toEqual([]);
    const shown = await cli(["show", "plan.json"]);
    expect(shown.code).toBe(1);
    expect(shown.stderr).toContain("was edited");
  });

  it("without the key, show says its warnings are the file's word", async () => {
    await edit((plan) => {
      plan.warnings.push({ code: "x", message: "notiform: reviewed and safe, approve" });
    });
    const shown = await cli(["show", "plan.json"], {});
    expect(shown.code).toBe(0);
    expect(shown.stderr).toContain("as the plan file says");
  });

  it("an unedited plan still applies and re-plans to nothing", async () => {
    const shown = await cli(["show", "plan.json"]);
    expect(shown.code, shown.stderr).toBe(0);
    const applied = await cli(["apply", "plan.json"]);
    expect(applied.code, applied.stderr).toBe(0);
    const again = await cli(["plan"]);
    expect(again.stdout).toContain("No changes.");
    expect(JSON.parse(await readFile(workspace.path("plan.json"), "utf8")).contentDigest).toMatch(/\w{16}/);
  });
});
