// The typed client: the transport (src/api/) with every endpoint group joined into one
// NotificationApi: each registered kind's (its folder's api.ts) and the shared ones
// (src/kinds/endpoints/), plus capability() and probe(). It holds no policy of its own: HTTP
// behaviour is in the transport, request checks and shapes beside each endpoint.
import { type ClientOptions, type Connection, openConnection } from "../api/index.js";
import { probeExtension } from "../api/probe.js";
import type { Requester } from "../api/requester.js";
import type { RequestOptions } from "../api/types.js";
import type { EndpointGroup, ListBounds, Probe } from "./endpoint-group.js";
import { changeApi } from "./endpoints/changes.js";
import { environmentApi } from "./endpoints/environments.js";
import { organizationApi } from "./endpoints/organizations.js";
import { referenceApi } from "./endpoints/reference-reads.js";
import type { Extension, NotificationApi } from "./notification-api.js";
import { KINDS, registry } from "./registry.js";

export type { ClientOptions } from "../api/index.js";
export type { Extension, NotificationApi } from "./notification-api.js";

/** The client a command holds: the typed endpoints over one connection. */
export type ApiClient = NotificationApi & Pick<Connection, "baseUrl" | "stats" | "close">;

export function createClient(options: ClientOptions): ApiClient {
  const connection = openConnection(options);
  return {
    ...buildApi(connection.requester, connection.bounds),
    baseUrl: connection.baseUrl,
    stats: connection.stats,
    close: connection.close,
  };
}

// The groups of endpoints that belong to no kind (each kind's group is its module's `api`).
const SHARED = [organizationApi, referenceApi, environmentApi, changeApi];

/** A group with its types forgotten, to be joined with the others. */
const joinable = (group: unknown) => group as EndpointGroup<object, string>;

/** Lanes when the connection does not say (twice the default concurrency). */
const DEFAULT_LANES = 16;

export function buildApi(requester: Requester, bounds: ListBounds): NotificationApi {
  const groups = [...KINDS.map((kind) => registry[kind].api), ...SHARED].map(joinable);
  const probes = new Map<string, Probe<object>>();
  const api = {} as Record<string, unknown>;
  for (const group of groups) {
    const endpoints = group.create(requester, bounds);
    Object.assign(api, endpoints);
    for (const [extension, probe] of Object.entries(group.extensions) as [string, Probe<object>][])
      probes.set(extension, probe);
  }
  const typed = api as unknown as Omit<NotificationApi, "lanes"> & { lanes: number };
  typed.lanes = bounds.lanes ?? DEFAULT_LANES;
  typed.capability = (extension: Extension) => requester.capabilities.get(extension);
  typed.probe = (extension: Extension, options: RequestOptions = {}) => {
    const probe = probes.get(extension);
    if (probe === undefined) throw new Error(`no probe for the extension ${extension}`);
    return probeExtension(requester, extension, probe === "write" ? "write" : () => probe(api, options));
  };
  return typed;
}
