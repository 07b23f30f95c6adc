// The apply lock as users meet it, through the built CLI: a second apply is refused naming the
// holder or waits with --lock-timeout; a stale lock is taken over, another host's never is;
// force-unlock removes a crashed run's lock; the lock goes away after errors and signals; and
// two applies started together end as one apply would.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { describe, expect, it } from "vitest";
import type { EmulatorHandle } from "../../src/emulator/index.js";
import { serializeLockInfo } from "../../src/state/lock.js";
import { type CliResult, cliTests, type RunOptions, runCli, type Workspace } from "../support/cli.js";

const cliTest = cliTests();

function manyGroups(count: number): string {
  const groups = Array.from({ length: count }, (_, i) => `  - key: g${i}\n    name: Group ${i}\n`).join("");
  return `version: 1\norganization: Acme Inc\nnotificationGroups:\n${groups}`;
}

const LOCK = "notiform.state.json.lock";

async function setup(groups: number, options: { latencyMs?: number; strictSpec?: boolean } = {}) {
  const { emulator: handle, workspace, run } = await cliTest({ config: manyGroups(groups), ...options });
  const cli = (args: string[], onSpawn?: RunOptions["onSpawn"]) => run(args, onSpawn ? { onSpawn } : {});
  const posts = () => handle.requests.filter((r) => r.method === "POST").length;
  return { handle, workspace, cli, posts };
}

/** Runs `act` once, the first time `ready` holds, polling every few ms while the child lives. */
function when(child: import("node:child_process").ChildProcess, ready: () => boolean, act: () => void) {
  const timer = setInterval(() => {
    if (!ready()) return;
    clearInterval(timer);
    act();
  }, 2);
  child.on("close", () => clearInterval(timer));
}

async function lockExists(workspace: Workspace): Promise<boolean> {
  return workspace.read(LOCK).then(
    () => true,
    () => false,
  );
}

function groupsIn(handle: EmulatorHandle): string[] {
  return handle
    .store()
    .notificationGroups.filter((g) => g.name.startsWith("Group "))
    .map((g) => g.name);
}

async function recordedIds(workspace: Workspace): Promise<string[]> {
  const state = JSON.parse(await workspace.read("notiform.state.json"));
  return Object.values(state.notificationGroups as Record<string, { id: string }>)
    .map((g) => g.id)
    .sort();
}

describe("a second apply on the same state file", () => {
  it("is refused at once, naming the holder, and writes nothing", async () => {
    // Slow answers until the second apply has ended, so the first surely holds the lock meanwhile.
    const { handle, workspace, cli, posts } = await setup(10, { latencyMs: 300 });
    let second: CliResult | undefined;
    let secondDone: Promise<void> | undefined;
    const first = await cli(["apply", "--auto-approve", "--concurrency", "1"], (child) =>
      when(
        child,
        () => posts() >= 1,
        () => {
          secondDone = cli(["apply", "--auto-approve"]).then((result) => {
            second = result;
            handle.setFaults({ latencyMs: 0 });
          });
        },
      ),
    );
    await secondDone;
    expect(first.code, first.stderr).toBe(0);
    expect(second?.code).toBe(1);
    expect(second?.stdout).toBe("");
    expect(second?.stderr).toMatch(
      new RegExp(
        `error: the state file is locked by \\S+@${hostname()} \\(pid \\d+, "notiform apply", since `,
      ),
    );
    expect(second?.stderr).toContain("notiform force-unlock");
    // Each group was created once: by the first apply.
    expect(groupsIn(handle).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `Group ${i}`).sort());
    expect(await lockExists(workspace)).toBe(false);
  });
});

describe("an apply waiting for the lock", () => {
  it("stops waiting on Ctrl-C: exit 130, nothing applied, the holder's lock left alone", async () => {
    const { handle, workspace, cli, posts } = await setup(10, { latencyMs: 300 });
    let waiter: CliResult | undefined;
    let waiterDone: Promise<void> | undefined;
    let lockWhileWaiting = false;
    const first = await cli(["apply", "--auto-approve", "--concurrency", "1"], (child) =>
      when(
        child,
        () => posts() >= 1,
        () => {
          waiterDone = cli(["apply", "--auto-approve", "--lock-timeout", "5m"], (second) => {
            second.stderr?.on("data", (chunk: Buffer) => {
              if (!chunk.toString().includes("waiting for the lock")) return;
              void lockExists(workspace).then((held) => {
                lockWhileWaiting = held;
                second.kill("SIGINT");
              });
            });
          }).then((result) => {
            waiter = result;
            handle.setFaults({ latencyMs: 0 });
          });
        },
      ),
    );
    await waiterDone;
    expect(waiter?.code, waiter?.stderr).toBe(130);
    expect(waiter?.stderr).toContain("interrupted while waiting for the state lock; nothing was applied");
    expect(lockWhileWaiting).toBe(true);
    expect(first.code, first.stderr).toBe(0);
    expect(groupsIn(handle)).toHaveLength(10);
  });
});

describe("two applies started together", () => {
  it("end as one apply: every group once, all in the state file, the later one waited", async () => {
    // Slow answers until the loser reports that it waits, so the runs overlap for certain.
    const { handle, workspace, cli } = await setup(100, { latencyMs: 1000, strictSpec: true });
    const waited: boolean[] = [false, false];
    const start = (index: number) =>
      cli(["apply", "--auto-approve", "--lock-timeout", "2m"], (child) => {
        child.stderr?.on("data", (chunk: Buffer) => {
          if (!chunk.toString().includes("waiting for the lock")) return;
          waited[index] = true;
          handle.setFaults({ latencyMs: 0 });
        });
      });
    const [a, b] = await Promise.all([start(0), start(1)]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect(waited.filter(Boolean)).toHaveLength(1);
    const names = groupsIn(handle);
    expect(names).toHaveLength(100);
    expect(new Set(names).size).toBe(100);
    const ids = handle
      .store()
      .notificationGroups.filter((g) => g.name.startsWith("Group "))
      .map((g) => g._id)
      .sort();
    expect(await recordedIds(workspace)).toEqual(ids);
    const loser = waited[0] ? a : b;
    expect(loser.stdout).toContain("No changes. Nothing to apply.");
    const plan = await cli(["plan", "--detailed-exitcode"]);
    expect(plan.code, plan.stdout).toBe(0);
    expect(await lockExists(workspace)).toBe(false);
  });
});

describe("a lock held by a live run", () => {
  const held = () =>
    serializeLockInfo({
      holder: "ci",
      host: hostname(),
      pid: process.pid,
      startedAt: "2026-11-23T09:00:00.000Z",
      command: "notiform apply",
    });

  it("refuses the apply before a single request: the reads run only under the lock", async () => {
    const { workspace, cli, handle } = await setup(2);
    await workspace.write(LOCK, held());
    const result = await cli(["apply", "--auto-approve"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("the state file is locked by ci@");
    expect(handle.requests).toEqual([]);
    expect(await workspace.read(LOCK)).toBe(held());
  });

  it("lets a config error show first: the config loads before any wait for the lock", async () => {
    const { workspace, cli, handle } = await setup(2);
    await workspace.write(LOCK, held());
    await workspace.write("notiform.yaml", `${manyGroups(2)}  - key: bad key\n    name: Bad\n`);
    const result = await cli(["apply", "--auto-approve", "--lock-timeout", "30s"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/notiform\.yaml:\d+/);
    expect(result.stderr).not.toContain("waiting for the lock");
    expect(handle.requests).toEqual([]);
  });
});

/** A lock of this host whose process is gone (a crashed apply's); returns that pid. */
async function leaveStaleLock(workspace: Workspace): Promise<number> {
  const gone = spawnSync(process.execPath, ["-e", ""]).pid as number;
  await workspace.write(
    LOCK,
    serializeLockInfo({
      holder: "ci",
      host: hostname(),
      pid: gone,
      startedAt: "2026-11-23T09:00:00.000Z",
      command: "notiform apply",
    }),
  );
  return gone;
}

describe("a lock left behind", () => {
  it("is taken over with a warning when its process is gone on this host", async () => {
    const { workspace, cli, handle } = await setup(2);
    const gone = await leaveStaleLock(workspace);
    const result = await cli(["apply", "--auto-approve"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`warning: taking over a stale lock`);
    expect(result.stderr).toContain(`ci@${hostname()} (pid ${gone}`);
    expect(groupsIn(handle)).toHaveLength(2);
    expect(await lockExists(workspace)).toBe(false);
  });

  it("is taken over with the temporary state file its killed write left, and nothing else", async () => {
    // A kill -9 during the atomic state write leaves `.notiform.state.json.<hex>.tmp` (docs/state.md).
    const { workspace, cli, handle } = await setup(2);
    await leaveStaleLock(workspace);
    const left = ".notiform.state.json.0a1b2c3d4e5f.tmp";
    const others = [
      ".notiform.prod.state.json.0a1b2c3d4e5f.tmp",
      ".notiform.state.json.mine.tmp",
      "notes.tmp",
    ];
    for (const name of [left, ...others]) await workspace.write(name, "{");
    const result = await cli(["apply", "--auto-approve"]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("removed 1 temporary file its write left");
    expect(groupsIn(handle)).toHaveLength(2);
    const names = readdirSync(workspace.dir);
    expect(names).not.toContain(left);
    for (const name of others) expect(names).toContain(name);
  });

  it("from another host is never assumed stale: refused until force-unlock removes it", async () => {
    const { workspace, cli, posts } = await setup(2);
    const foreign = {
      holder: "ana",
      host: "build-runner-7",
      pid: 12,
      startedAt: "2026-11-23T09:00:00.000Z",
      command: "notiform apply",
    };
    await workspace.write(LOCK, serializeLockInfo(foreign));
    const refused = await cli(["apply", "--auto-approve"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('locked by ana@build-runner-7 (pid 12, "notiform apply"');
    expect(posts()).toBe(0);

    // Without a terminal to ask, force-unlock needs --force, and leaves the lock alone.
    const unasked = await runCli(["force-unlock"], { cwd: workspace.dir });
    expect(unasked.code).toBe(1);
    expect(unasked.stderr).toContain("held by ana@build-runner-7");
    expect(unasked.stderr).toContain("--force");
    expect(await lockExists(workspace)).toBe(true);

    const unlocked = await runCli(["force-unlock", "--force", "--state", "notiform.state.json"], {
      cwd: workspace.dir,
    });
    expect(unlocked.code, unlocked.stderr).toBe(0);
    expect(unlocked.stderr).toContain("Removed the lock held by ana@build-runner-7 (pid 12");
    expect(await lockExists(workspace)).toBe(false);
    const again = await runCli(["force-unlock", "--force"], { cwd: workspace.dir });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain("No lock at");

    expect((await cli(["apply", "--auto-approve"])).code).toBe(0);
  });
});

describe("the lock is released", () => {
  it("after an apply that fails", async () => {
    const { handle, workspace, cli } = await setup(2);
    handle.injectFault({
      method: "POST",
      path: "/v1/notification-groups",
      kind: { status: 400, body: { statusCode: 400, message: "rejected by test" } },
    });
    const result = await cli(["apply", "--auto-approve", "--concurrency", "1"]);
    expect(result.code).not.toBe(0);
    expect(result.stdout).toContain("rejected by test");
    expect(await lockExists(workspace)).toBe(false);
  });

  it("after an error before anything is planned", async () => {
    const { workspace, cli } = await setup(2);
    await workspace.write("notiform.state.json", "{ not json");
    const result = await cli(["apply", "--auto-approve"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("is not valid JSON");
    expect(await lockExists(workspace)).toBe(false);
  });

  it.each(["SIGINT", "SIGTERM"] as const)("after %s mid-apply (exit 130)", async (signal) => {
    const { workspace, cli, posts } = await setup(30, { latencyMs: 60 });
    const result = await cli(["apply", "--auto-approve", "--concurrency", "2"], (child) =>
      when(
        child,
        () => posts() >= 4,
        () => child.kill(signal),
      ),
    );
    expect(result.code, result.stderr).toBe(130);
    expect(result.stdout).toMatch(/Apply interrupted: \d+ applied/);
    expect(await lockExists(workspace)).toBe(false);
  });

  it.each(["SIGINT", "SIGTERM"] as const)(
    "after %s while planning, before apply handles signals",
    async (signal) => {
      const { handle, workspace, cli } = await setup(3, { latencyMs: 200 });
      let sawLock = false;
      const result = await cli(["apply", "--auto-approve"], (child) =>
        when(
          child,
          () => handle.requests.length >= 1,
          () => {
            void lockExists(workspace).then((held) => {
              sawLock = held;
              child.kill(signal);
            });
          },
        ),
      );
      expect(sawLock).toBe(true);
      expect(result.signal).toBe(signal);
      expect(await lockExists(workspace)).toBe(false);
    },
  );
});

describe("a state file that cannot be written", () => {
  it("is refused before anything is sent when the lock cannot be created beside it", async () => {
    const { cli, posts } = await setup(2);
    const result = await cli(["apply", "--auto-approve", "--state", "/proc/notiform/state.json"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("cannot create the lock file /proc/notiform/state.json.lock");
    expect(result.stderr).toContain("nothing was applied");
    expect(result.stderr).not.toContain("internal error");
    expect(posts()).toBe(0);
  });

  it("after real writes: reports what the server holds but the file does not, and exits 3", async () => {
    const { handle, workspace, cli, posts } = await setup(4, { latencyMs: 300 });
    await mkdir(workspace.path("state"));
    await writeFile(workspace.path("state/.keep"), "");
    const args = ["apply", "--auto-approve", "--concurrency", "1", "--state", "state/notiform.state.json"];
    // The directory vanishes while the first create is in flight.
    const result = await cli(args, (child) =>
      when(
        child,
        () => posts() >= 1,
        () => {
          spawnSync("rm", ["-rf", workspace.path("state")]);
        },
      ),
    );
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).not.toContain("internal error");
    expect(result.stdout).toMatch(
      /notification group g\d: applied on the server, but the state file .* could not be written/,
    );
    expect(result.stderr).toMatch(
      /error: the state file .*state\/notiform\.state\.json could not be written/,
    );
    const created = handle.store().notificationGroups.filter((g) => g.name.startsWith("Group "));
    expect(created).toHaveLength(1);
    expect(result.stderr).toContain("Applied on the server but missing from the state file:");
    expect(result.stderr).toContain(`(id ${created[0]?._id})`);

    // Once the directory is back, a re-run adopts the group by name: nothing created twice.
    await mkdir(workspace.path("state"));
    const rerun = await cli(args);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(groupsIn(handle).sort()).toEqual(["Group 0", "Group 1", "Group 2", "Group 3"]);
  });
});
