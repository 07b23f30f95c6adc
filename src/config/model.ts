// The desired state: what the config files say, after loading, merging, interpolation and
// validation. This is the only shape the rest of notiform sees of the config. Every resource
// keeps where it came from (file, line, column, per field) so later errors can point at it.
import type { Position } from "../errors.js";
import type { Kind, SpecOf } from "../kinds/kinds.js";

export const CHANNELS = ["email", "sms", "in_app", "chat", "push"] as const;
export type Channel = (typeof CHANNELS)[number];
export type PreferenceSettings = Record<Channel, boolean>;

/** Each kind's entries: a list per kind (a singleton kind such as branding has at most one). */
export type Resources = { [K in Kind]: Desired<SpecOf<K>>[] };

export interface Source {
  /** Where the resource's mapping starts. */
  pos: Position;
  /** Where each field's value starts, by field name (nested: "preferenceSettings.email"). */
  fields: Record<string, Position>;
  /**
   * Fields of this entry (paths inside it, "steps[1].template.content"; "" for the entry itself)
   * where the loader already reported a problem (schema, a file reference). Set only when there
   * is one, i.e. only on a config that will not load: the later checks skip or stay quiet about
   * what is under them (src/config/flagged.ts), so one mistake is told once.
   */
  flagged?: readonly string[];
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
