// Keeps the state file true during an apply: every successful write's state change is merged
// into the in-memory state and written atomically before the action counts as applied, so an
// apply killed at any point leaves a file a re-run can trust. Writes are serialized and
// coalesced: one in flight, at most one queued.
import { existsSync } from "node:fs";
import type { StateChange } from "../resources/kind.js";
import { ownRecord, type StateFile, withNullPrototypes } from "../state/model.js";
import { serializeState, writeFileAtomic } from "../state/state-store.js";

export class StateRecorder {
  readonly state: StateFile;
  private readonly path: string | undefined;
  private writing: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  private lastWritten: string | undefined;

  /** `path` undefined: keep state in memory only (dry runs, tests of the engine). */
  constructor(state: StateFile, path: string | undefined) {
    this.state = withNullPrototypes(structuredClone(state));
    this.path = path;
    // A state file that does not exist yet is written at the end of the first apply, so the
    // target it records (and any group ids) can be committed from day one.
    this.lastWritten = path !== undefined && existsSync(path) ? serializeState(state) : undefined;
  }

  /** Merge one change and persist it; resolves once the file on disk holds it. */
  async record(change: StateChange): Promise<void> {
    if (change.section === "notificationGroups") {
      this.state.notificationGroups[change.key] = { id: change.id, name: change.name };
    } else {
      const previous = ownRecord(this.state.workflows, change.id)?.values ?? {};
      this.state.workflows[change.id] = { key: change.key, values: { ...previous, ...change.values } };
    }
    await this.persist();
  }

  /** Record group ids the plan matched by name, so later plans do not depend on names. */
  async recordBindings(bindings: Record<string, string>, names: ReadonlyMap<string, string>): Promise<void> {
    let changed = false;
    for (const [key, id] of Object.entries(bindings)) {
      if (ownRecord(this.state.notificationGroups, key)?.id === id) continue;
      this.state.notificationGroups[key] = { id, name: names.get(key) ?? "" };
      changed = true;
    }
    if (changed) await this.persist();
  }

  /** Write now (or join the queued write) unless the file already holds this state. */
  persist(): Promise<void> {
    if (this.path === undefined) return Promise.resolve();
    if (this.queued !== undefined) return this.queued;
    if (this.writing === undefined) {
      this.writing = this.writeOnce().finally(() => {
        this.writing = undefined;
      });
      return this.writing;
    }
    const after = this.writing;
    this.queued = after
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.persist();
      });
    return this.queued;
  }

  private async writeOnce(): Promise<void> {
    const text = serializeState(this.state);
    if (text === this.lastWritten || this.path === undefined) return;
    await writeFileAtomic(this.path, text);
    this.lastWritten = text;
  }
}
