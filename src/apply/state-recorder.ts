// Keeps the state file true during an apply: every successful write's state change is merged
// into the in-memory state and written atomically before the action counts as applied, so an
// apply killed at any point leaves a file a re-run can trust. Writes are serialized and
// coalesced: one in flight, at most one queued. A write that fails is a typed error
// (STATE_WRITE_FAILED) naming the file, and the recorder remembers which changes the server
// holds but the file does not, so the apply can report them and exit 3 instead of 1.
import { existsSync } from "node:fs";
import { canonicalJson, type JsonObject } from "../canonical.js";
import { NotiformError } from "../errors.js";
import type { StateChange } from "../kinds/kind.js";
import { holdsSecretValue } from "../plan/held-secrets.js";
import type { Plan } from "../plan/model.js";
import { type KeyedDigest, type Protect, unprotected } from "../secrets/keyed-digest.js";
import { type CreateIntent, ownRecord, type StateFile, withNullPrototypes } from "../state/model.js";
import { serializeState, writeFileAtomic } from "../state/state-store.js";

export class StateRecorder {
  readonly state: StateFile;
  private readonly path: string | undefined;
  private writing: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  private lastWritten: string | undefined;
  /** Changes applied on the server since the last successful write, described for a report. */
  private pending: string[] = [];
  /** The last write's failure, until a later write succeeds. */
  failure: NotiformError | undefined;

  private readonly protect: Protect;

  /**
   * `path` undefined: keep state in memory only (dry runs, tests of the engine). `protect`: what
   * the file keeps of a value that holds a secret (its keyed digest), never the value.
   */
  constructor(
    state: StateFile,
    path: string | undefined,
    protect: Protect = unprotected,
    /** With it, a value holding a text the state's secretValues name is kept as its digest too. */
    keyed?: KeyedDigest,
  ) {
    this.protect = keyed === undefined ? protect : this.#withSecretValues(protect, keyed);
    this.state = withNullPrototypes(structuredClone(state));
    this.path = path;
    // A state file that does not exist yet is written at the end of the first apply, so the
    // target it records (and any group ids) can be committed from day one.
    this.lastWritten = path !== undefined && existsSync(path) ? serializeState(state) : undefined;
  }

  /**
   * `protect`, and a value holding a text an apply sent with a value from the environment (the
   * state's secretValues, as recorded when the value is protected) kept as its keyed digest: the
   * server's answer may still hold a secret the config no longer names, which `protect` cannot know.
   */
  #withSecretValues(protect: Protect, keyed: KeyedDigest): Protect {
    let values: ReadonlySet<string> = new Set();
    let from: readonly string[] | undefined;
    return (value) => {
      const kept = protect(value);
      if (kept !== value) return kept;
      const recorded = this.state.secretValues;
      if (recorded === undefined || recorded.length === 0) return value;
      if (recorded !== from) [values, from] = [new Set(recorded), recorded];
      return holdsSecretValue(value, values, keyed) ? keyed(canonicalJson(value)) : value;
    };
  }

  /** Merge one change and persist it; resolves once the file on disk holds it. */
  async record(change: StateChange): Promise<void> {
    if (change.section === "notificationGroups") {
      this.state.notificationGroups[change.key] = { id: change.id, name: String(this.protect(change.name)) };
      this.pending.push(`notification group ${change.key} (id ${change.id})`);
    } else {
      const previous = ownRecord(this.state.workflows, change.id)?.values ?? {};
      const values: JsonObject = { ...previous };
      for (const [field, value] of Object.entries(change.values)) values[field] = this.protect(value);
      this.state.workflows[change.id] = { key: change.key, values };
      this.pending.push(`workflow ${change.key} (id ${change.id})`);
    }
    try {
      await this.persist();
    } catch (error) {
      // The server already holds this change: say so, so nobody reads "failed" as "not done".
      const reason = error instanceof NotiformError ? error.message : String(error);
      throw new NotiformError("STATE_WRITE_FAILED", `applied on the server, but ${reason}`, {
        hint: "Make the state file's directory writable; the next apply matches groups by name and records them.",
        cause: error,
      });
    }
  }

  /**
   * Record that a create is about to be sent; resolves once the file on disk holds it, so a
   * run killed after the POST left leaves the intent behind for the next plan to see.
   */
  async recordIntent(id: string, intent: CreateIntent): Promise<void> {
    this.state.intents ??= Object.create(null) as Record<string, CreateIntent>;
    this.state.intents[id] = intent;
    await this.persist();
  }

  /** The create's outcome is known (recorded, or certainly not made): forget its intent. */
  async clearIntent(id: string): Promise<void> {
    await this.clearIntents([id]);
  }

  /** Forget several settled intents with one write (those a plan found resolved). */
  async clearIntents(ids: readonly string[]): Promise<void> {
    const intents = this.state.intents;
    const present = ids.filter((id) => intents !== undefined && Object.hasOwn(intents, id));
    if (intents === undefined || present.length === 0) return;
    for (const id of present) delete intents[id];
    await this.persist();
  }

  /** What the server holds that the state file does not (empty once a write succeeded). */
  unrecorded(): readonly string[] {
    return this.failure === undefined ? [] : this.pending;
  }

  /**
   * What a plan found before anything is sent: group ids it matched by name (so later plans do
   * not depend on names) and interrupted creates it found settled.
   */
  async recordPlanFindings(
    plan: Pick<Plan, "bindings" | "resolvedIntents">,
    names: ReadonlyMap<string, string>,
  ): Promise<void> {
    await this.recordBindings(plan.bindings.notificationGroups, names);
    await this.clearIntents(plan.resolvedIntents);
  }

  /** Record group ids the plan matched by name, so later plans do not depend on names. */
  async recordBindings(bindings: Record<string, string>, names: ReadonlyMap<string, string>): Promise<void> {
    let changed = false;
    for (const [key, id] of Object.entries(bindings)) {
      if (ownRecord(this.state.notificationGroups, key)?.id === id) continue;
      this.state.notificationGroups[key] = { id, name: String(this.protect(names.get(key) ?? "")) };
      changed = true;
    }
    if (changed) await this.persist();
  }

  /**
   * Record the server environment the key reaches and the identifiers resolved in it, so the
   * file is refused with another environment's key and a spec-only server can plan by identifier.
   */
  async recordEnvironment(
    environment: StateFile["serverEnvironment"],
    identifiers: StateFile["identifiers"] = {},
  ): Promise<void> {
    if (environment !== undefined) this.state.serverEnvironment = { ...environment };
    for (const section of ["workflows", "tenants"] as const) {
      const ids = identifiers[section];
      if (ids === undefined) continue;
      const into = this.state.identifiers?.[section] ?? Object.create(null);
      for (const [identifier, id] of Object.entries(ids)) into[identifier] = id;
      this.state.identifiers = { ...this.state.identifiers, [section]: into };
    }
    await this.persist();
  }

  /**
   * The fields whose value on the server holds a secret, as heldSecretsBeforeApply settles them
   * before anything is sent (so a run killed after a write still names them).
   */
  async recordHeldSecrets(heldSecrets: Record<string, string[]>, secretValues: string[]): Promise<void> {
    const before = this.state.heldSecrets ?? {};
    const same =
      Object.keys(before).length === Object.keys(heldSecrets).length &&
      Object.keys(heldSecrets).every(
        (id) => JSON.stringify(ownRecord(before, id)) === JSON.stringify(heldSecrets[id]),
      ) &&
      JSON.stringify(this.state.secretValues ?? []) === JSON.stringify(secretValues);
    if (same) return;
    this.state.heldSecrets = heldSecrets;
    this.state.secretValues = secretValues;
    await this.persist();
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
    const covered = this.pending.length;
    if (this.path === undefined) return;
    if (text === this.lastWritten) {
      this.pending.splice(0, covered);
      return;
    }
    try {
      await writeFileAtomic(this.path, text);
    } catch (error) {
      this.failure = new NotiformError(
        "STATE_WRITE_FAILED",
        `the state file ${this.path} could not be written (${(error as Error).message})`,
        { cause: error },
      );
      throw this.failure;
    }
    this.lastWritten = text;
    this.failure = undefined;
    this.pending.splice(0, covered);
  }
}
