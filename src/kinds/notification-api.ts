// The typed client's shape: every kind's endpoints (declared in its folder, read here through
// KindTypes) and the shared groups that are no kind of their own (organizations, environments,
// changes, the reference reads), joined into one NotificationApi with one typed method
// per spec endpoint (1-17), the observed extensions, and the whole-list helpers. Every method
// resolves with the unwrapped `data`, or rejects with an ApiError / NetworkError
// (src/api/errors.ts). Extension methods reject with code API_UNSUPPORTED when the server lacks
// them, and the client remembers it. Types only: client.ts builds it.
import type { Capability, RequestOptions } from "../api/types.js";
import type { ChangeEndpoints, ChangeExtension } from "./endpoints/changes.js";
import type { EnvironmentEndpoints } from "./endpoints/environments.js";
import type { OrganizationEndpoints } from "./endpoints/organizations.js";
import type { ReferenceEndpoints } from "./endpoints/reference-reads.js";
import type { EndpointsOf, ExtensionOf, Kind } from "./kinds.js";

type Intersection<U> = (U extends unknown ? (part: U) => void : never) extends (part: infer I) => void
  ? I
  : never;

/** Every kind's endpoints, one object. */
type KindEndpoints = Intersection<{ [K in Kind]: EndpointsOf<K> }[Kind]>;

/** The endpoints that belong to no kind. */
export type SharedEndpoints = OrganizationEndpoints &
  ReferenceEndpoints &
  EnvironmentEndpoints &
  ChangeEndpoints;

/** An endpoint a real server serves that the spec does not list; each may be missing. */
export type Extension = { [K in Kind]: ExtensionOf<K> }[Kind] | ChangeExtension | "getCurrentEnvironment";

export type NotificationApi = KindEndpoints &
  SharedEndpoints & {
    /** What is known of an extension so far. */
    capability(extension: Extension): Capability;
    /**
     * Find out with reads only whether the server serves an extension (a GET of an id that cannot
     * exist: "Cannot GET" 404 means missing, a record 404 means present). Write extensions are
     * never probed: true unless an earlier answer showed the route missing.
     */
    probe(extension: Extension, options?: RequestOptions): Promise<boolean>;
    /** Reads of many ids asked for at once at most (src/lanes.ts): twice the concurrency limit. */
    readonly lanes: number;
  };
