// Reading live state for a plan: the I/O edge of src/resources/. Every kind reads what the
// desired state needs (its own read strategy lives in its module), all kinds at once. A kind the
// config does not manage is not read: a plan of topics costs only topic pages.
import type { NotificationApi } from "../api/types.js";
import type { DesiredState } from "../config/model.js";
import type { LiveSnapshot, ServerEnvironment } from "./kind.js";
import { KINDS, type Kind, registry } from "./registry.js";

export interface ReadLiveOptions {
  signal?: AbortSignal;
  /** Read everything the server lets us read, whatever the config names (export). */
  everything?: boolean;
  /** The server environment the key reaches, where known: Development-only kinds are not read elsewhere. */
  environment?: ServerEnvironment;
}

export async function readLive(
  client: NotificationApi,
  desired: DesiredState,
  organization: LiveSnapshot["organization"],
  options: ReadLiveOptions = {},
): Promise<LiveSnapshot> {
  const scope = {
    desired,
    everything: options.everything === true,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.environment ? { environment: options.environment } : {}),
  };
  const reads = await Promise.all(KINDS.map((kind) => registry[kind].readLive(client, scope)));
  const kinds = {} as Record<Kind, unknown>;
  const duplicates: LiveSnapshot["duplicates"] = {};
  KINDS.forEach((kind, index) => {
    const read = reads[index];
    kinds[kind] = read?.live;
    if (read?.duplicates !== undefined && read.duplicates.length > 0) duplicates[kind] = read.duplicates;
  });
  return {
    organization,
    ...(options.environment ? { environment: options.environment } : {}),
    kinds: kinds as LiveSnapshot["kinds"],
    duplicates,
  };
}

export { unlessUnsupported } from "./unsupported.js";
