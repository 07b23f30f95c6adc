// The state file's shape: what notiform remembers of resources the API cannot read back
// everywhere (notification groups, workflows), and which fields hold a value from the
// environment. Values come from the API's responses, never from the config alone, and never
// include a secret. schemas/state.schema.json mirrors it.
import type { JsonObject } from "../canonical.js";
import type { Kind } from "../kinds/kinds.js";

export const STATE_FORMAT_VERSION = 1;

export interface GroupRecord {
  id: string;
  name: string;
}

export interface WorkflowRecord {
  /** The config key the workflow had when last applied (for people reading the file). */
  key: string;
  /** Last applied values, flat canonical fields ("name", "preferenceSettings.sms", ...). */
  values: JsonObject;
}

/**
 * A create that was sent (or about to be) and whose outcome is not recorded yet: written before
 * the POST, removed when the answer is recorded. One left behind means the run was interrupted
 * with the create in flight: it is never silently sent again (see the plan's "uncertain").
 */
export interface CreateIntent {
  kind: Kind;
  key: string;
  /** When the create was started (ISO 8601). */
  startedAt: string;
}
/** The sections of `identifiers`: portable names resolved to this environment's server ids. */
export type IdentifierSection = "workflows" | "tenants";

export interface StateFile {
  formatVersion: typeof STATE_FORMAT_VERSION;
  target: {
    apiUrl: string;
    organization: string;
    environment: string | null;
    /**
     * The keyed digest of apiUrl under the API key (url-seal.ts): a run that takes its URL from
     * this file uses it only when the seal verifies. Absent in files written before it.
     */
    apiUrlSeal?: string;
  };
  /** Notification group key -> server id and last applied name. */
  notificationGroups: Record<string, GroupRecord>;
  /** Workflow server id -> last applied values. */
  workflows: Record<string, WorkflowRecord>;
  /** Plan action id (KIND/KEY) -> a create in flight; absent or empty when none is. */
  intents?: Record<string, CreateIntent>;
  /**
   * The server environment the file was applied against (GET /v1/environments/me): a file is
   * refused with a key that reaches another one. Absent in older files and on spec-only servers.
   */
  serverEnvironment?: { id: string; name: string };
  /** Identifier -> server id as last resolved in this environment (used where the server cannot look up). */
  identifiers?: Partial<Record<IdentifierSection, Record<string, string>>>;
  /**
   * Plan action id (KIND/KEY) -> the fields whose value on the server holds one that came from the
   * environment (their names only, sorted): a plan never shows their live value, which is the
   * secret itself even after the config stops taking it from the environment. Recorded by apply
   * before the writes that send such a value; released by an apply of the whole config that finds
   * the server holding the config's own value there, which holds none. Absent or empty when no
   * field holds one (and in files written before it).
   */
  heldSecrets?: Record<string, string[]>;
  /**
   * Keyed digests of the texts (names, step names, templates, strings in data) an apply sent
   * holding a value from the environment: wherever such a text is found later (a name in the
   * unmanaged list, a promotion's step, an exported value), it is withheld. Absent or empty when
   * there are none.
   */
  secretValues?: string[];
}

export function emptyState(target: StateFile["target"]): StateFile {
  return withNullPrototypes({
    formatVersion: STATE_FORMAT_VERSION,
    target,
    notificationGroups: {},
    workflows: {},
  });
}

/**
 * The state's user-keyed records as null-prototype objects: keys are user data, and a group
 * keyed "__proto__" or "constructor" must be a record like any other, not the object's
 * prototype. Returns a copy; the input is not changed.
 */
export function withNullPrototypes(state: StateFile): StateFile {
  const copy = <T>(record: Record<string, T>): Record<string, T> => {
    const out: Record<string, T> = Object.create(null);
    for (const key of Object.keys(record)) out[key] = record[key] as T;
    return out;
  };
  const out: StateFile = {
    ...state,
    notificationGroups: copy(state.notificationGroups),
    workflows: copy(state.workflows),
    intents: copy(state.intents ?? {}),
    heldSecrets: copy(state.heldSecrets ?? {}),
  };
  if (state.identifiers !== undefined) {
    const identifiers: StateFile["identifiers"] = {};
    for (const section of ["workflows", "tenants"] as const) {
      const record = state.identifiers[section];
      if (record !== undefined) identifiers[section] = copy(record);
    }
    out.identifiers = identifiers;
  }
  return out;
}

/** A record's own entry only: never something inherited from Object.prototype. */
export function ownRecord<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
