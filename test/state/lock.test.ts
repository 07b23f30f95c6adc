// The lock's pure rules (who may take over a lock, what a lock file holds, durations) and the
// lock itself on a real directory: exclusive, waits, takes over a stale lock, releases on throw.
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { parseDuration } from "../../src/cli/duration.js";
import {
  acquireStateLock,
  describeHolder,
  judgeLock,
  type LockInfo,
  parseLockInfo,
  serializeLockInfo,
  withStateLock,
} from "../../src/state/lock.js";

const info: LockInfo = {
  holder: "ana",
  host: "build-7",
  pid: 4242,
  startedAt: "2026-11-23T10:00:00.000Z",
  command: "notiform apply",
};

describe("lock rules", () => {
  it.each([
    ["a live process on this host", { host: "build-7", alive: true }, "held"],
    ["a dead process on this host", { host: "build-7", alive: false }, "stale"],
    ["a dead-looking pid on another host", { host: "laptop", alive: false }, "held"],
  ] as const)("a lock of %s is %s", (_what, here, verdict) => {
    expect(judgeLock(info, { host: here.host, isAlive: () => here.alive })).toBe(verdict);
  });

  it("never judges an unreadable lock stale", () => {
    expect(judgeLock(parseLockInfo("{not json"), { host: "build-7", isAlive: () => false })).toBe("held");
    expect(parseLockInfo('{"holder":"ana"}')).toBeUndefined();
  });

  it("reads back what it writes, and names the holder", () => {
    expect(parseLockInfo(serializeLockInfo(info))).toEqual(info);
    expect(describeHolder(info)).toBe(
      'ana@build-7 (pid 4242, "notiform apply", since 2026-11-23T10:00:00.000Z)',
    );
  });

  it.each([
    ["30s", 30_000],
    ["500ms", 500],
    ["2m", 120_000],
    ["1h", 3_600_000],
    ["15", 15_000],
    ["0", 0],
    ["soon", undefined],
    ["-1s", undefined],
    ["", undefined],
  ])("reads the duration %j as %s ms", (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });
});

describe("the state lock on disk", () => {
  let state: string;
  beforeEach(async () => {
    state = join(await mkdtemp(join(tmpdir(), "notiform-lock-")), "notiform.state.json");
  });

  it("holds who, where, which process and command, and no more", async () => {
    await withStateLock(state, { command: "notiform apply" }, async () => {
      const held = JSON.parse(await readFile(`${state}.lock`, "utf8"));
      expect(Object.keys(held).sort()).toEqual(["command", "holder", "host", "pid", "startedAt"]);
      expect(held).toMatchObject({ host: hostname(), pid: process.pid, command: "notiform apply" });
    });
    await expect(readFile(`${state}.lock`)).rejects.toThrow(/ENOENT/);
  });

  it("refuses a second holder at once, naming the first", async () => {
    // A live process on this host (this one) holds it.
    await writeFile(`${state}.lock`, serializeLockInfo({ ...info, host: hostname(), pid: process.pid }));
    await expect(acquireStateLock(state, { command: "notiform apply" })).rejects.toMatchObject({
      code: "STATE_LOCKED",
      message: expect.stringContaining(`ana@${hostname()} (pid ${process.pid}`),
    });
  });

  it("waits for the holder to let go when given a timeout", async () => {
    const first = await acquireStateLock(state, { command: "notiform apply" });
    const waits: string[] = [];
    const second = acquireStateLock(state, {
      command: "notiform apply",
      timeoutMs: 60_000,
      pollMs: 10,
      onWait: (text) => {
        waits.push(text);
        void first.release();
      },
    });
    const lock = await second;
    expect(waits).toHaveLength(1);
    expect(JSON.parse(await readFile(`${state}.lock`, "utf8")).pid).toBe(process.pid);
    await lock.release();
  });

  it("takes over a lock whose process is gone, with a warning", async () => {
    const gone = spawnSync(process.execPath, ["-e", ""]).pid as number;
    await writeFile(`${state}.lock`, serializeLockInfo({ ...info, host: hostname(), pid: gone }));
    const warnings: string[] = [];
    const lock = await acquireStateLock(state, {
      command: "notiform apply",
      onWarning: (text) => warnings.push(text),
    });
    expect(warnings).toEqual([expect.stringContaining(`stale lock`)]);
    expect(warnings[0]).toContain(`pid ${gone}`);
    await lock.release();
  });

  it.each([
    ["notiform apply", "nothing was applied", "(or pass --lock-timeout 5m)"],
    // Only apply takes --lock-timeout; resolve and export write, not apply.
    ["notiform resolve", "nothing was written", "then run this again"],
  ])("says what %s did not do, and a way out it takes", async (command, what, hint) => {
    await writeFile(`${state}.lock`, serializeLockInfo({ ...info, host: "elsewhere", pid: 999_999 }));
    const refused = await acquireStateLock(state, { command }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: "STATE_LOCKED", message: expect.stringContaining(what) });
    expect((refused as { hint?: string }).hint).toContain(hint);
    if (command !== "notiform apply")
      expect((refused as { hint?: string }).hint).not.toContain("--lock-timeout");
  });

  it("never takes over a lock from another host", async () => {
    await writeFile(`${state}.lock`, serializeLockInfo({ ...info, host: "elsewhere", pid: 999_999 }));
    await expect(acquireStateLock(state, { command: "notiform apply" })).rejects.toMatchObject({
      code: "STATE_LOCKED",
      message: expect.stringContaining("ana@elsewhere"),
    });
  });

  it("is released when the work throws", async () => {
    await expect(
      withStateLock(state, { command: "notiform apply" }, async () => {
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    await expect(readFile(`${state}.lock`)).rejects.toThrow(/ENOENT/);
  });

  it("says it cannot create the lock when the directory does not exist", async () => {
    await expect(
      acquireStateLock(join(state, "missing", "s.json"), { command: "notiform apply" }),
    ).rejects.toMatchObject({ code: "STATE_WRITE_FAILED" });
  });
});
