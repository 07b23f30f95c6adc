// The apply lock: one writer per state file. `<state>.lock` is created with O_EXCL, so two runs
// can never both believe they hold it, and it holds who took it (user, host, pid, start, command:
// never a secret). It is released on every way out: normal return, a thrown error, and a signal
// that would otherwise end the process. A lock whose process is gone on this same host is stale
// and taken over with a warning; a lock from another host is never assumed stale, because its
// pid says nothing here: only `notiform force-unlock` removes it.
import { readFileSync, unlinkSync } from "node:fs";
import { link, open, readFile, rename, unlink } from "node:fs/promises";
import { hostname, userInfo } from "node:os";
import { NotiformError } from "../errors.js";
import { count } from "../plural.js";
import { visibleText } from "../sanitize.js";
import { realTarget, removeLeftTemps } from "./state-store.js";

export interface LockInfo {
  holder: string;
  host: string;
  pid: number;
  startedAt: string;
  command: string;
}

export function lockPathOf(statePath: string): string {
  return `${statePath}.lock`;
}

/** The lock file's content, or undefined when it is not a lock notiform wrote. */
export function parseLockInfo(text: string): LockInfo | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (
    typeof v.holder !== "string" ||
    typeof v.host !== "string" ||
    typeof v.pid !== "number" ||
    !Number.isInteger(v.pid) ||
    typeof v.startedAt !== "string" ||
    typeof v.command !== "string"
  )
    return undefined;
  return { holder: v.holder, host: v.host, pid: v.pid, startedAt: v.startedAt, command: v.command };
}

export function serializeLockInfo(info: LockInfo): string {
  const { holder, host, pid, startedAt, command } = info;
  return `${JSON.stringify({ holder, host, pid, startedAt, command }, null, 2)}\n`;
}

/**
 * Whether a lock found on disk may be taken over. Only a lock of this host whose process is
 * gone is stale; an unreadable lock or one of another host is held until someone removes it.
 */
export function judgeLock(
  info: LockInfo | undefined,
  here: { host: string; isAlive: (pid: number) => boolean },
): "held" | "stale" {
  if (info === undefined || info.host !== here.host) return "held";
  return here.isAlive(info.pid) ? "held" : "stale";
}

export function describeHolder(info: LockInfo | undefined): string {
  if (info === undefined) return "an unknown holder (the lock file is not readable as a notiform lock)";
  // The lock file is anyone's to write: its fields are shown with line breaks made visible.
  return visibleText(
    `${info.holder}@${info.host} (pid ${info.pid}, "${info.command}", since ${info.startedAt})`,
  );
}

/** Signal 0 checks existence; EPERM means the process exists but belongs to someone else. */
export function isProcessAlive(pid: number): boolean {
  if (pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function currentLockInfo(command: string, now: Date = new Date()): LockInfo {
  let holder: string;
  try {
    holder = userInfo().username;
  } catch {
    holder = process.env.USER ?? "unknown";
  }
  return { holder, host: hostname(), pid: process.pid, startedAt: now.toISOString(), command };
}

export interface LockOptions {
  /** What holds it, e.g. "notiform apply"; shown to whoever finds the lock. */
  command: string;
  /** How long to wait for a held lock; 0 (default): refuse at once. */
  timeoutMs?: number;
  /** Cancels a wait (so do SIGINT and SIGTERM while waiting). */
  signal?: AbortSignal;
  /** A stale lock was taken over. */
  onWarning?: (text: string) => void;
  /** Called once when a held lock makes this run wait. */
  onWait?: (text: string) => void;
  pollMs?: number;
}

export interface StateLock {
  path: string;
  info: LockInfo;
  release(): Promise<void>;
}

/** Run `fn` holding the state file's lock; the lock is released however `fn` ends. */
export async function withStateLock<T>(
  statePath: string,
  options: LockOptions,
  fn: (lock: StateLock) => Promise<T>,
): Promise<T> {
  const lock = await acquireStateLock(statePath, options);
  try {
    return await fn(lock);
  } finally {
    await lock.release();
  }
}

export async function acquireStateLock(statePath: string, options: LockOptions): Promise<StateLock> {
  // The lock sits beside the file the state path finally names: two runs reaching one state file
  // through different links must meet at one lock.
  const path = lockPathOf(await realTarget(statePath));
  const info = currentLockInfo(options.command);
  const text = serializeLockInfo(info);
  const deadline = Date.now() + Math.max(0, options.timeoutMs ?? 0);
  // Ctrl-C while waiting ends the wait with a clear "nothing was applied", not a bare kill.
  const interrupt = new AbortController();
  const onSignal = () => interrupt.abort();
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  process.on("SIGHUP", onSignal);
  const signal =
    options.signal === undefined ? interrupt.signal : AbortSignal.any([options.signal, interrupt.signal]);
  try {
    return await acquireLoop(path, info, text, deadline, { ...options, signal });
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    process.off("SIGHUP", onSignal);
  }
}

async function acquireLoop(
  path: string,
  info: LockInfo,
  text: string,
  deadline: number,
  options: LockOptions,
): Promise<StateLock> {
  let told = false;
  for (;;) {
    if (options.signal?.aborted) throw abortedError();
    if (await tryCreate(path, text)) return holdLock(path, info, text);
    const found = await readLockText(path);
    if (found === undefined) continue; // removed between our attempt and the read: try again
    const holder = parseLockInfo(found);
    if (judgeLock(holder, { host: info.host, isAlive: isProcessAlive }) === "stale") {
      if (await takeOverStale(path, found)) {
        // Whatever that run was writing when it died is ours to clear now: nobody else writes here.
        const temps = await removeLeftTemps(path.slice(0, -".lock".length));
        const cleared = temps === 0 ? "" : `; removed ${count(temps, "temporary file")} its write left`;
        options.onWarning?.(
          `taking over a stale lock at ${path}: its process is gone (${describeHolder(holder)})${cleared}`,
        );
      }
      continue;
    }
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw lockedError(path, holder, options.timeoutMs ?? 0, options.command);
    if (!told) {
      options.onWait?.(`waiting for the lock at ${path}, held by ${describeHolder(holder)}`);
      told = true;
    }
    await sleep(Math.min(options.pollMs ?? 200, remaining), options.signal);
  }
}

function lockedError(
  path: string,
  holder: LockInfo | undefined,
  timeoutMs: number,
  command: string,
): NotiformError {
  const waited = timeoutMs > 0 ? ` (waited ${Math.round(timeoutMs / 1000)} s)` : "";
  // Only apply waits for a lock (--lock-timeout); export and resolve say what they did not do.
  const applies = command === "notiform apply";
  return new NotiformError(
    "STATE_LOCKED",
    `the state file is locked by ${describeHolder(holder)}${waited}; ${applies ? "nothing was applied" : "nothing was written"}`,
    {
      hint: `Wait for that run to finish${applies ? " (or pass --lock-timeout 5m)" : ", then run this again"}. If it crashed, remove the lock with: notiform force-unlock --state ${path.slice(0, -".lock".length)}`,
    },
  );
}

/** O_EXCL create: true when this run now holds the lock, false when one exists. */
async function tryCreate(path: string, text: string): Promise<boolean> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, "wx", 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw new NotiformError(
      "STATE_WRITE_FAILED",
      `cannot create the lock file ${path} beside the state file: ${(error as Error).message}; nothing was applied`,
      { hint: "The state file's directory must exist and be writable (choose another with --state FILE)." },
    );
  }
  try {
    await handle.writeFile(text, "utf8");
  } catch (error) {
    // An empty lock would read as held by an unknown holder until force-unlock: remove it.
    await handle.close();
    await unlink(path).catch(() => undefined);
    throw new NotiformError(
      "STATE_WRITE_FAILED",
      `cannot write the lock file ${path}: ${(error as Error).message}; nothing was applied`,
    );
  }
  await handle.close();
  return true;
}

async function readLockText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * Move the stale lock aside, then check that what moved is the stale lock we judged: another run
 * may have taken over first and created its own. If so, put that one back (link fails rather
 * than overwrite, should a third run have created one meanwhile) and try again.
 */
async function takeOverStale(path: string, staleText: string): Promise<boolean> {
  const aside = `${path}.${process.pid}.stale`;
  try {
    await rename(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
  const moved = await readFile(aside, "utf8");
  if (moved !== staleText) await link(aside, path).catch(() => undefined);
  await unlink(aside).catch(() => undefined);
  return moved === staleText;
}

function holdLock(path: string, info: LockInfo, text: string): StateLock {
  let held = true;
  // Remove the lock only while it is still ours (force-unlock may have handed it on).
  const releaseSync = () => {
    if (!held) return;
    held = false;
    detach();
    try {
      if (readFileSync(path, "utf8") === text) unlinkSync(path);
    } catch {
      // Already gone: nothing to release.
    }
  };
  // A signal only ends the process when nobody else listens for it; in that case clean up and
  // let it end the process as it would have. While apply handles signals itself, it returns
  // through its finally blocks, which release the lock.
  const onSignal = (signal: NodeJS.Signals) => {
    if (process.listenerCount(signal) > 1) return;
    releaseSync();
    process.kill(process.pid, signal);
  };
  const onExit = () => releaseSync();
  const detach = () => {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    process.off("SIGHUP", onSignal);
    process.off("exit", onExit);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  process.on("SIGHUP", onSignal);
  process.on("exit", onExit);
  return {
    path,
    info,
    release: async () => releaseSync(),
  };
}

async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) throw abortedError();
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError());
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function abortedError(): NotiformError {
  return new NotiformError(
    "INTERRUPTED",
    "interrupted while waiting for the state lock; nothing was applied",
  );
}

/** Remove a lock whatever its holder (force-unlock); returns what it held, or null when none. */
export async function removeLock(statePath: string): Promise<{ info: LockInfo | undefined } | null> {
  const path = lockPathOf(await realTarget(statePath));
  const text = await readLockText(path);
  if (text === undefined) return null;
  await unlink(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "ENOENT") throw error;
  });
  return { info: parseLockInfo(text) };
}

export async function readLock(statePath: string): Promise<{ info: LockInfo | undefined } | null> {
  const text = await readLockText(lockPathOf(await realTarget(statePath)));
  return text === undefined ? null : { info: parseLockInfo(text) };
}
