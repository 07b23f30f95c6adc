// What a kind is, at the type level: each kind's folder declares its types into KindTypes by
// module augmentation (its types.ts: `declare module "../kinds.js" { interface KindTypes { ... } }`),
// and `Kind` is the set of names declared there. The registry (registry.ts) is typed over Kind,
// so a kind declared here without its module there fails to compile, and the per-kind maps
// (specs, live values, operations, endpoints) are read from here rather than listed by hand.
// Leaf module: imports nothing, so every layer may name a kind's types without a cycle.

/** The types a kind declares: one entry per kind, added by the kind's own folder. */
// biome-ignore lint/suspicious/noEmptyInterface: filled by each kind folder's module augmentation
export interface KindTypes {}

/** What each KindTypes entry holds. */
export interface KindShape {
  /** The config entry (one item of the kind's section). */
  spec: object;
  /** What the kind reads from the server for a plan. */
  live: unknown;
  /** The writes a plan can make of it: `type` is "<kind>.<verb>". */
  operation: { type: string };
  /** Its share of the typed client (src/kinds/notification-api.ts). */
  endpoints: object;
  /** The names of its endpoints a real server serves beyond the spec (never: none). */
  extension: string;
  /** true: promotion carries the kind to Production (its module then has a `promotion` part). */
  promoted?: true;
}

export type Kind = keyof KindTypes & string;

type Part<K extends Kind, P extends keyof KindShape> = KindTypes[K] extends KindShape
  ? KindTypes[K][P]
  : never;

/** The config entry type of each kind. */
export type SpecOf<K extends Kind> = Part<K, "spec">;
/** What each kind reads from the server. */
export type LiveOf<K extends Kind> = Part<K, "live">;
/** Each kind's operations. */
export type OperationOf<K extends Kind> = Part<K, "operation">;
export type EndpointsOf<K extends Kind> = Part<K, "endpoints">;
export type ExtensionOf<K extends Kind> = Part<K, "extension">;
/** The kinds promotion carries to Production: those whose types declare `promoted: true`. */
export type PromotableKind = { [K in Kind]: KindTypes[K] extends { promoted: true } ? K : never }[Kind];

/** The config entry type of each kind, by kind. */
export type SpecByKind = { [K in Kind]: SpecOf<K> };
/** What each kind reads from the server, by kind. */
export type LiveByKind = { [K in Kind]: LiveOf<K> };
/** Each kind's operations, by kind. */
export type OperationByKind = { [K in Kind]: OperationOf<K> };
