// The one interface every resource kind implements, end to end: its config section, its live
// reads, planning into typed operations, executing them, re-reading for a saved plan and export.
// The planner, applier, exporter and validator iterate the registry (registry.ts) and never name
// a kind. Planning methods are pure; readLive and execute are the kind's I/O edge.

import type { JsonObject } from "../canonical.js";
import type { Desired, DesiredState, Resources, Source } from "../config/model.js";
import type { TextFieldPath } from "../config/text-file-ref.js";
import type { Problem } from "../errors.js";
import { isKeyedDigest, type Protect } from "../secrets/keyed-digest.js";
import type { IdentifierSection, StateFile } from "../state/model.js";
import type { EndpointGroup } from "./endpoint-group.js";
import type {
  EndpointsOf,
  ExtensionOf,
  Kind,
  LiveByKind,
  OperationByKind,
  PromotableKind,
  SpecByKind,
} from "./kinds.js";
import type { NotificationApi } from "./notification-api.js";
import type { PlannedRequest } from "./operations.js";
import type { FieldChange, PlanAction, PlanWarning, UnmanagedResource } from "./plan-action.js";
import type { KindPromotion } from "./promotion.js";

/** A template field of an entry (KindModule.templateFields). */
export interface TemplateFieldSpec {
  /** Its path inside an entry, "*" for any list index; a value that is not a string there is skipped. */
  path: TextFieldPath;
  /**
   * Names the server puts in this template's context besides the payload (`branding`, `subject`,
   * ...), or the trigger supplies (`tenant`, `actor`): no preview example has to supply them.
   */
  supplied: readonly string[];
}

/** The server environment the key reaches, where the server says (GET /v1/environments/me). */
export interface ServerEnvironment {
  id: string;
  name: string;
}

/** Overrides with a key of another environment: the server refuses them there, and promotion does not carry them. */
export const DEVELOPMENT_ONLY =
  "Development-only: overrides are written with a Development key and never promoted";

/** Whether the key reaches an environment where Development-only writes are refused. */
export function isDevelopmentOnlyBlocked(environment: ServerEnvironment | undefined): boolean {
  return environment !== undefined && environment.name !== "Development";
}

export interface ResolveContext {
  state: StateFile;
  environment?: ServerEnvironment;
  signal?: AbortSignal;
}

export interface ResolveResult<K extends Kind> {
  entries: Desired<SpecByKind[K]>[];
  /** identifier -> id, recorded in the state file's `identifiers` section under this name. */
  record?: { section: IdentifierSection; ids: Record<string, string> };
  problems: Problem[];
}

/** Everything read from the server for one plan. */
export interface LiveSnapshot {
  organization: { id?: string; name: string };
  /** undefined: the server does not say which environment the key reaches. */
  environment?: ServerEnvironment;
  kinds: { [K in Kind]: LiveByKind[K] };
  /**
   * Identities found more than once on the server, by kind (no unique index: racing creates,
   * an older database). The plan warns about each: only one of them can be managed.
   */
  duplicates: { [K in Kind]?: string[] };
  /**
   * Kinds read by identity rather than listed (the config names fewer of them than the list has
   * pages): what else the server holds of them is unknown, so their unmanaged list is not computed.
   */
  unlisted?: Kind[];
}

/** A kind's live read: the value, and identities the server holds more than once. */
export interface LiveRead<K extends Kind> {
  live: LiveByKind[K];
  duplicates?: string[];
  /** False when read by identity: the live value holds what was asked for, not the whole list. */
  listed?: boolean;
}

/**
 * One kind's share of a LiveSnapshot, handed to the planner as soon as that kind's read is in
 * (readLive's onRead), so a kind is planned while the slower kinds are still being read.
 */
export interface LiveShare<K extends Kind> {
  live: LiveByKind[K];
  /** As LiveSnapshot.duplicates, for this kind. */
  duplicates: readonly string[];
  /** As LiveSnapshot.unlisted: this kind was read by identity, or not read at all. */
  unlisted: boolean;
}

/** One resource the config asks for, in canonical form. */
export interface DesiredItem {
  key: string;
  /** Managed fields only, flat ("preferenceSettings.email"), defaults filled. */
  fields: JsonObject;
  source: Source;
  /** Action ids this resource needs first, when they are part of the plan. */
  dependsOn: string[];
  /** Kind-specific server identity (a workflow's id; an override's workflowId and tenantId). */
  ids: Record<string, string>;
}

/**
 * Values recorded in the state file, as the planner may compare them: a keyed digest (a value
 * that held a secret) stands for the desired value when they match, and is unknown otherwise.
 */
export function recordedFields(
  recorded: JsonObject,
  desired: JsonObject,
  protect: Protect,
): { fields: JsonObject; knownFields: string[] } {
  const fields: JsonObject = {};
  for (const [field, value] of Object.entries(recorded)) {
    if (!isKeyedDigest(value)) fields[field] = value;
    else {
      const wanted = desired[field];
      if (wanted !== undefined && protect(wanted) === value) fields[field] = wanted;
    }
  }
  return { fields, knownFields: Object.keys(fields) };
}

/** What notiform knows of the live resource. */
export interface LiveItem {
  origin: "api" | "state";
  serverId?: string;
  fields: JsonObject;
  /** Fields whose live value is known; undefined = all of `fields`' kind. */
  knownFields?: string[];
  /** Digest of the live object the plan was computed from. */
  digest: string;
}

/** Facts shared by every kind while planning. */
export interface PlanContext {
  desired: DesiredState;
  live: LiveSnapshot;
  state: StateFile;
  /** Notification group key -> server id (state record or unique-name match). */
  groupIds: ReadonlyMap<string, string>;
  /** Server group id -> config key, for showing a workflow's group by key. */
  groupKeys: ReadonlyMap<string, string>;
  warnings: PlanWarning[];
  /** What the state file keeps of a value (its keyed digest when it holds a secret). */
  protect: Protect;
}

export type LiveLookup =
  | { status: "found"; item: LiveItem }
  | { status: "absent" }
  | { status: "unknown"; reason: string };

export type OperationsResult<K extends Kind> =
  | { operations: OperationByKind[K][] }
  | { notApplicable: string };

/** What executing one operation needs besides the operation itself. */
export interface ExecuteContext {
  client: NotificationApi;
  /** Server group id -> config key, including groups created earlier in this apply. */
  groupKeys: ReadonlyMap<string, string>;
  /** Action id -> the server id its create produced earlier in this apply. */
  createdIds: ReadonlyMap<string, string>;
  signal?: AbortSignal;
}

/** A change to the state file that a successful write implies. */
export type StateChange =
  | { section: "notificationGroups"; key: string; id: string; name: string }
  | { section: "workflows"; id: string; key: string; values: JsonObject };

export interface ExecuteResult {
  /** The server id of the resource (the created id for a create). */
  serverId?: string;
  /** Canonical fields the server reports after the write (for verification). */
  fields?: JsonObject;
  stateChange?: StateChange;
  /** Set when the write turned out to be already done (a lost response read back, an unchanged status). */
  note?: string;
}

/** What to read: what the desired state needs, or everything the server lets us read (export). */
export interface ReadScope {
  desired: DesiredState;
  everything: boolean;
  environment?: ServerEnvironment;
  signal?: AbortSignal;
  /** Action ids (`kind/key`) the plan covers (--target and dependencies); undefined: all. */
  selected?: ReadonlySet<string>;
  /** List every kind the config manages in full (for the unmanaged list), whatever it costs. */
  listUnmanaged?: boolean;
  /** Reads a kind started while the config was loading (its readAhead), by kind. */
  readAhead?: { [K in Kind]?: Promise<unknown> };
}

/** What is known, or being asked, while the config loads. */
export interface ReadAheadContext {
  /** The environment the key reaches (undefined: the server does not say); rejects with its error. */
  environment: Promise<ServerEnvironment | undefined>;
  /**
   * Another count the files parsed so far give (a section's, or a kind's own such as
   * "workflows/steps": the workflows whose content the config manages).
   */
  countOf?: (name: string) => number;
}

/** Export: config keys handed out so far, by kind and server id (a workflow names its group's key). */
export type ExportKeys = { [K in Kind]: Map<string, string> };

/**
 * A kind's part of an export: the file it is written to (beside notiform.yaml) and the section's
 * value (a list of entries, or one mapping); or why the server would not let it be read;
 * undefined when there is nothing to export.
 */
export type ExportSection =
  | {
      file: string;
      value: unknown[] | Record<string, unknown>;
      /** What the state file must hold for the exported config to plan back to nothing. */
      state?: StateChange[];
      /** Live values the config cannot hold, left out of the files (never written), for the user. */
      leftOut?: string[];
      /** Text files the section's `{ file: PATH }` values name: path (relative to the section's file) -> text. */
      textFiles?: Map<string, string>;
    }
  | { notExported: string }
  | undefined;

export interface KindModule<K extends Kind> {
  kind: K;
  /**
   * The config section: its YAML name, whether it is a list of entries or one mapping, and the
   * text fields an entry's identity is made of (an entry without them cannot be identified); a
   * list of fields there means any one of them will do (a workflow's key or identifier).
   */
  section: {
    name: string;
    shape: "list" | "single";
    identityFields: readonly (string | readonly string[])[];
  };
  /** "topic" / "topics", for people. */
  label: { one: string; many: string };
  /** Its share of the typed client (src/kinds/client.ts joins them). */
  api: EndpointGroup<EndpointsOf<K>, ExtensionOf<K>>;
  /** The one rendering of each of its operations as the HTTP request apply sends. */
  requestOf(op: OperationByKind[K]): PlannedRequest;
  /** The requests that follow an operation's own only when its answer calls for them (`when`). */
  followUpsOf?(op: OperationByKind[K]): PlannedRequest[];
  /** Its operations that may make a second resource if sent twice (their intent is recorded first). */
  creates: readonly OperationByKind[K]["type"][];
  /**
   * Text fields of an entry that may be `{ file: PATH }` instead (paths inside the entry, "*"
   * for any list index): the loader puts the file's text there (config/text-file-ref.ts).
   */
  textFileFields?: readonly TextFieldPath[];
  /**
   * Fields of an entry that may be `{ file: PATH }` of JSON or YAML data (a preview example):
   * the loader puts the file's parsed mapping there (config/data-file-ref.ts).
   */
  dataFileFields?: readonly TextFieldPath[];
  /**
   * Fields of an entry that stay on this machine (preview examples): never sent, planned or part
   * of the config's digest, so editing them changes no plan.
   */
  localFields?: readonly string[];
  /**
   * Fields of an entry that hold a template the server renders (Handlebars): `validate` checks
   * each offline, in YAML or in its `{ file: PATH }` text (loader/template-checks.ts).
   */
  templateFields?: readonly TemplateFieldSpec[];
  /**
   * The payloads an entry's preview examples render with (each example's payload, with its
   * subscriber under `subscriber`); [] when it has none. With at least one, a template variable
   * that no example supplies is a warning.
   */
  previewPayloads?(spec: SpecByKind[K]): Record<string, unknown>[];
  /** An entry's identity: duplicates, overlays, digests and targets use it. */
  identity(spec: SpecByKind[K]): string;
  /** The entry with what the config may leave out filled in (a workflow's key), after layering. */
  complete?(spec: SpecByKind[K]): SpecByKind[K];
  /**
   * Before planning (I/O edge): turn portable names (identifiers) into this environment's server
   * ids, from the server where it can look them up, else from the state file's record. Returns
   * the entries with ids filled in, what to record in the state file, and an error for every
   * entry that cannot be resolved, at its position.
   */
  resolve?(
    client: NotificationApi,
    desired: DesiredState,
    context: ResolveContext,
  ): Promise<ResolveResult<K>>;
  /** Checks that need the other kinds (references, duplicates by server id), after the schema passed. */
  checkReferences?(resources: Resources, problems: Problem[]): void;

  /**
   * One item per entry of the kind, in order, each built from its own entry (other kinds' entries
   * may be read): desiredItemsInTurns builds them a slice of entries at a time.
   */
  desiredItems(desired: DesiredState): DesiredItem[];
  /**
   * The other kinds whose live state this kind's planning reads (lookupLive, operationsFor,
   * unmanaged, intentDoubt): it is planned once their reads are in too, and sees only its own
   * and these in PlanContext.live.kinds (the notification groups' ids only with
   * "notificationGroup" here), so a read left out of this list fails every plan, not a race.
   */
  planReads?: readonly Kind[];
  lookupLive(item: DesiredItem, context: PlanContext): LiveLookup;
  /** Exactly the operations apply performs for this change. */
  operationsFor(
    op: "create" | "update" | "unverified",
    item: DesiredItem,
    live: LiveItem | undefined,
    changes: FieldChange[],
    context: PlanContext,
  ): OperationsResult<K>;
  unmanaged(context: PlanContext, managedKeys: ReadonlySet<string>): UnmanagedResource[];
  /**
   * An earlier create of this item was interrupted and the lookup found nothing: why that
   * absence cannot be trusted (the server cannot list the kind; several candidates), or
   * undefined when it can (the create did not happen and may be sent again). Kinds whose
   * live read finds every resource by identity leave this out.
   */
  intentDoubt?(item: DesiredItem, context: PlanContext): string | undefined;

  /**
   * For `notiform resolve KIND/KEY --id ID`: the state change that binds a config entry to a
   * server id. Kinds found on the server by their identity have none.
   */
  stateBinding?(key: string, id: string, desired: DesiredState): StateChange;

  readLive(client: NotificationApi, scope: ReadScope): Promise<LiveRead<K>>;
  /**
   * Start reading while the config loads, knowing only how many entries of this kind the files
   * parsed so far hold (`count`); readLive picks the result up from `scope.readAhead`.
   */
  readAhead?(client: NotificationApi, count: () => number, early: ReadAheadContext): Promise<unknown>;
  execute(action: PlanAction, op: OperationByKind[K], context: ExecuteContext): Promise<ExecuteResult>;
  exportSection(live: LiveByKind[K], keys: ExportKeys): ExportSection;
  /**
   * How `notiform promote` carries this kind to Production: the server's change types that bring
   * it there, which Development entities the config manages, what a change gives Production.
   * Only a kind whose types declare `promoted: true` has one; promotion applies kinds in the
   * registry's order.
   */
  promotion?: K extends PromotableKind ? KindPromotion : never;
}

export type ResourceRegistry = { [K in Kind]: KindModule<K> };
