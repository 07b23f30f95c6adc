// The desired state: what the config files say, after loading, merging, interpolation and
// validation. This is the only shape the rest of notiform sees of the config. Every resource
// keeps where it came from (file, line, column, per field) so later errors can point at it.
import type { Position } from "../errors.js";
import type { Kind } from "../resources/kinds.js";
import type { StepSpec } from "./step-spec.js";

export const CHANNELS = ["email", "sms", "in_app", "chat", "push"] as const;
export type Channel = (typeof CHANNELS)[number];
export type PreferenceSettings = Record<Channel, boolean>;

export interface TopicSpec {
  /** Identity; immutable on the server. Letters, digits, `-`, `_`, `.`, `:`. */
  key: string;
  name: string;
}

/** A tenant of one environment (never promoted): created and updated with the key's environment. */
export interface TenantSpec {
  /** Identity, the same in every environment; overrides name the tenant by it. */
  identifier: string;
  name: string;
  /** Free-form, managed whole when present (the server replaces it whole); numbers stay numbers. */
  data?: Record<string, unknown>;
}

/** An e-mail layout, authored in Development and promoted (layouts.ts). */
export interface LayoutSpec {
  /** Identity, the same in every environment; a step's `template.layout` names it. */
  identifier: string;
  name?: string;
  description?: string;
  /** The HTML; must hold `{{{body}}}` (`{ file: PATH }` is read by the loader). */
  content?: string;
  contentType?: string;
  variables?: { name: string; type?: string; required?: boolean; defaultValue?: unknown }[];
  isDefault?: boolean;
}

export interface NotificationGroupSpec {
  /** Local handle, stable across renames; the server `_id` lives in the state file. */
  key: string;
  name: string;
}

/**
 * A workflow is created in Development when missing (with a name). Fields left out are not managed: notiform neither
 * compares nor sends them. `notificationGroup` names a notificationGroups key of this config.
 * Ids differ per environment and trigger identifiers do not, so an entry names its workflow by
 * `identifier` (resolved per environment before planning) and/or `id`.
 */
export interface WorkflowSpec {
  /** Defaults to `identifier` (the loader fills it in). */
  key: string;
  /** The trigger identifier: the same in every environment. */
  identifier?: string;
  /** The server `_id` (24 hex) in this environment: given, or resolved from `identifier`. */
  id?: string;
  name?: string;
  active?: boolean;
  description?: string;
  tags?: string[];
  critical?: boolean;
  preferenceSettings?: Partial<PreferenceSettings>;
  notificationGroup?: string;
  data?: Record<string, unknown>;
  /** The workflow's content, in order; managed as a whole when present (step-spec.ts). */
  steps?: StepSpec[];
}

/**
 * A per-tenant workflow override. It describes the override completely: an omitted `active`
 * means false and an omitted channel means true, as the server does on creation.
 */
export interface OverrideSpec {
  /** A workflow key of this config, or a raw 24-hex workflow id. */
  workflow: string;
  /** The tenant's identifier (portable across environments); or, for old configs, its 24-hex id. */
  tenant?: string;
  /** The tenant's server `_id` in this environment: given, or resolved from `tenant`. */
  tenantId?: string;
  active?: boolean;
  preferenceSettings?: Partial<PreferenceSettings>;
}

/** Organization branding: only the fields present are managed. */
export interface BrandingSpec {
  color?: string;
  fontColor?: string;
  contentBackground?: string;
  fontFamily?: string;
  /** An image URL (jpg, jpeg, png, gif, svg), as real servers require. */
  logo?: string;
  direction?: "ltr" | "rtl";
}

/** The config entry type of each kind. */
export interface SpecByKind {
  notificationGroup: NotificationGroupSpec;
  topic: TopicSpec;
  tenant: TenantSpec;
  layout: LayoutSpec;
  workflow: WorkflowSpec;
  override: OverrideSpec;
  branding: BrandingSpec;
}

/** Each kind's entries: a list per kind (a singleton kind such as branding has at most one). */
export type Resources = { [K in Kind]: Desired<SpecByKind[K]>[] };

export interface Source {
  /** Where the resource's mapping starts. */
  pos: Position;
  /** Where each field's value starts, by field name (nested: "preferenceSettings.email"). */
  fields: Record<string, Position>;
}

export interface Desired<T> {
  spec: T;
  source: Source;
}

export interface DesiredState {
  /** The organization guard in effect: the environment's, else the root's. */
  organization?: string;
  /** Server environment guard ("Development", "Production"): the environment's, else the root's. */
  serverEnvironment?: string;
  /** The --env name, when one was selected. */
  environment?: string;
  /** The environment's apiUrl, when it sets one. */
  apiUrl?: string;
  /** The variable that holds the API key: the environment's apiKeyEnv, else NOTIFORM_API_KEY. */
  apiKeyEnv: string;
  resources: Resources;
  /** The root config file, as given (absolute path). */
  rootFile: string;
  /** Every file loaded, absolute paths, in load order. */
  files: string[];
  /**
   * sha256 (hex) of the canonical desired state (resources sorted by identity, stable key order,
   * organization, environment): comments and formatting do not change it.
   */
  digest: string;
  /**
   * The same digest with every value that came from the environment blanked out: equal while
   * only environment variables changed, so a refusal can say so rather than "the config changed".
   */
  shapeDigest?: string;
  /** Values that came from the environment through ${VAR}: masked in every output. */
  sensitive: string[];
}

export interface LoadOptions {
  /** Path to the root file; default `notiform.yaml` in cwd. */
  configPath?: string;
  /** Environment to select (`--env`). */
  env?: string;
  /** Variables for ${VAR} interpolation (normally process.env). */
  vars: Readonly<Record<string, string | undefined>>;
  /** Directory relative paths are resolved and displayed against (normally process.cwd()). */
  cwd: string;
  /** Let includes reach files outside the root file's directory (--allow-include-outside). */
  allowIncludeOutside?: boolean;
  /**
   * Without `env`: also layer every environment over the base and check it (validate). Otherwise
   * a config that defines environments is refused without `env` (there is no default one).
   */
  allEnvironments?: boolean;
  /**
   * Called as each file is parsed, before it is checked, with how many entries each section of
   * it holds (section name -> count) and the file (absolute path): lets a plan start its live
   * reads while the config loads.
   */
  onParsed?: (counts: ReadonlyMap<string, number>, file: string) => void;
}
