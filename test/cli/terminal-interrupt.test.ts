// Ctrl-C and Ctrl-D on a real terminal (a pseudo-terminal): at the confirmation prompt they abort
// cleanly, saying nothing was applied; mid-apply, Ctrl-C reaches notiform rather than listr2, so
// the run stops, prints its report, exits 130, and the state file holds every completed create.
import { afterEach, describe, expect, it } from "vitest";
import { serializeLockInfo } from "../../src/state/lock.js";
import { cliTests, createWorkspace } from "../support/cli.js";
import { type PtyRun, runOnPty } from "../support/pty.js";

const cliTest = cliTests();
let run: PtyRun | undefined;
afterEach(async () => {
  run?.child.stdin?.end();
  run = undefined;
});

function manyGroups(count: number): string {
  const groups = Array.from({ length: count }, (_, i) => `  - key: g${i}\n    name: Group ${i}\n`).join("");
  return `version: 1\norganization: Acme Inc\nnotificationGroups:\n${groups}`;
}

/** Calls `act` once, the first time `ready` holds; checked every few ms until the run ends. */
function when(pty: PtyRun, ready: () => boolean, act: () => void): void {
  const timer = setInterval(() => {
    if (!ready()) return;
    clearInterval(timer);
    act();
  }, 5);
  void pty.exited.then(() => clearInterval(timer));
}

const PROMPT = "Only 'yes' is accepted";

describe("the confirmation prompt on a terminal", () => {
  it.each([
    ["Ctrl-C", 130, "\x03"],
    ["Ctrl-D", 1, "\x04"],
  ])(
    "%s aborts: 'Aborted; nothing was applied', exit %i, no bug report, no lock left",
    async (_name, code, key) => {
      const { emulator, workspace, onTerminal } = await cliTest({ config: manyGroups(3) });
      const pty = onTerminal(["apply"]);
      when(
        pty,
        () => pty.output().includes(PROMPT),
        () => pty.type(key),
      );
      expect(await pty.exited).toBe(code);
      expect(pty.output()).toContain("Aborted; nothing was applied");
      expect(pty.output()).not.toContain("internal error");
      expect(pty.output()).not.toContain("This is a bug");
      expect(emulator.requests.filter((r) => r.method !== "GET")).toEqual([]);
      await expect(workspace.read("notiform.state.json.lock")).rejects.toThrow(/ENOENT/);
    },
  );
});

describe("Ctrl-C mid-apply on a terminal", () => {
  it("exits 130 with the report, and the state file holds every group created", async () => {
    const {
      emulator: handle,
      workspace,
      onTerminal,
    } = await cliTest({ config: manyGroups(40), latencyMs: 60 });
    const pty = onTerminal(["apply", "--concurrency", "2"]);
    when(
      pty,
      () => pty.output().includes(PROMPT),
      () => pty.type("yes\r"),
    );
    when(
      pty,
      () => handle.requests.filter((r) => r.method === "POST").length >= 6,
      () => pty.type("\x03"),
    );
    expect(await pty.exited).toBe(130);
    const output = pty.output();
    expect(output).toContain("Stopping: starting nothing new");
    expect(output).toMatch(/Apply interrupted: \d+ applied, 0 failed, \d+ skipped/);
    const created = handle.store().notificationGroups.filter((g) => g.name.startsWith("Group "));
    expect(created.length).toBeGreaterThanOrEqual(6);
    expect(created.length).toBeLessThan(40);
    const state = JSON.parse(await workspace.read("notiform.state.json"));
    const recorded = Object.values(state.notificationGroups as Record<string, { id: string }>).map(
      (g) => g.id,
    );
    expect(recorded.sort()).toEqual(created.map((g) => g._id).sort());
    await expect(workspace.read("notiform.state.json.lock")).rejects.toThrow(/ENOENT/);
  });
});

describe("force-unlock on a terminal", () => {
  const foreign = serializeLockInfo({
    holder: "ana",
    host: "build-runner-7",
    pid: 12,
    startedAt: "2026-11-23T09:00:00.000Z",
    command: "notiform apply",
  });

  it.each([
    ["yes", true],
    ["no", false],
  ])("names the holder and asks; answering %j, the lock is removed: %s", async (answer, removed) => {
    const workspace = await createWorkspace({ "notiform.state.json.lock": foreign });
    const pty = runOnPty(["force-unlock"], { cwd: workspace.dir, env: {} });
    run = pty;
    when(
      pty,
      () => pty.output().includes("Remove this lock?"),
      () => pty.type(`${answer}\r`),
    );
    expect(await pty.exited).toBe(removed ? 0 : 1);
    expect(pty.output()).toContain('held by ana@build-runner-7 (pid 12, "notiform apply"');
    const left = await workspace.read("notiform.state.json.lock").then(
      () => true,
      () => false,
    );
    expect(left).toBe(!removed);
  });
});
