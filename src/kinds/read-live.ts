// Reading live state for a plan: the I/O edge of src/kinds/. Every kind reads what the
// desired state needs (its own read strategy, list or identity by identity, lives in its module),
// all kinds at once. A kind the config does not manage is not read: a plan of topics costs only
// topic reads; with --target, only the targets and their dependencies are read.

import type { DesiredState } from "../config/model.js";
import { desiredItemsOf } from "./desired-items.js";
import type {
  KindModule,
  LiveRead,
  LiveShare,
  LiveSnapshot,
  ReadAheadContext,
  ReadScope,
  ServerEnvironment,
} from "./kind.js";
import type { NotificationApi } from "./notification-api.js";
import { KINDS, type Kind, registry } from "./registry.js";

export interface ReadLiveOptions {
  signal?: AbortSignal;
  /** Read everything the server lets us read, whatever the config names (export). */
  everything?: boolean;
  /** The server environment the key reaches, where known: Development-only kinds are not read elsewhere. */
  environment?: ServerEnvironment;
  /** Action ids (`kind/key`) the plan covers: --target and dependencies; undefined: all. */
  selected?: ReadonlySet<string>;
  /** List every managed kind in full, so the plan can list unmanaged resources. */
  listUnmanaged?: boolean;
  /** Reads started while the config loaded (startReadAhead). */
  readAhead?: ReadScope["readAhead"];
  /** Told of each kind's share of the snapshot as soon as its read is in (the planner's take). */
  onRead?: <K extends Kind>(kind: K, share: LiveShare<K>) => void;
}

export async function readLive(
  client: NotificationApi,
  desired: DesiredState,
  organization: LiveSnapshot["organization"],
  options: ReadLiveOptions = {},
): Promise<LiveSnapshot> {
  const narrowed = options.listUnmanaged === true ? desired : narrow(desired, options.selected);
  const scope: ReadScope = {
    desired: narrowed,
    everything: options.everything === true,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.environment ? { environment: options.environment } : {}),
    ...(options.selected ? { selected: options.selected } : {}),
    ...(options.listUnmanaged === true ? { listUnmanaged: true } : {}),
    ...(options.readAhead ? { readAhead: options.readAhead } : {}),
  };
  const shareOf = <K extends Kind>(kind: K, read: LiveRead<K>): LiveShare<K> => {
    // Read by identity, or not read at all because --target left out every entry of the kind.
    const skipped = narrowed.resources[kind].length === 0 && desired.resources[kind].length > 0;
    return { live: read.live, duplicates: read.duplicates ?? [], unlisted: read.listed === false || skipped };
  };
  const shares = await Promise.all(
    KINDS.map(async (kind) => {
      const share = shareOf(kind, await registry[kind].readLive(client, scope));
      options.onRead?.(kind, share);
      return share;
    }),
  );
  const kinds = {} as Record<Kind, unknown>;
  const duplicates: LiveSnapshot["duplicates"] = {};
  const unlisted: Kind[] = [];
  KINDS.forEach((kind, index) => {
    const share = shares[index];
    kinds[kind] = share?.live;
    if (share !== undefined && share.duplicates.length > 0) duplicates[kind] = [...share.duplicates];
    if (share?.unlisted === true) unlisted.push(kind);
  });
  return {
    organization,
    ...(options.environment ? { environment: options.environment } : {}),
    kinds: kinds as LiveSnapshot["kinds"],
    duplicates,
    ...(unlisted.length > 0 ? { unlisted } : {}),
  };
}

/**
 * Reads that start while the config loads: each kind that can read ahead starts when a parsed
 * file holds entries of it, told how many entries the files parsed so far hold. A file may be
 * told twice, a lower bound from its text first (scanSectionCounts), then the parse's count,
 * which replaces it. Only reads (GET) are sent; nothing read is used before the organization
 * guard has passed.
 */
export function startReadAhead(
  client: NotificationApi,
  early: ReadAheadContext,
): {
  onParsed: (counts: ReadonlyMap<string, number>, file: string) => void;
  started: NonNullable<ReadScope["readAhead"]>;
} {
  const byFile = new Map<string, ReadonlyMap<string, number>>();
  const total = (section: string) => {
    let sum = 0;
    for (const counts of byFile.values()) sum += counts.get(section) ?? 0;
    return sum;
  };
  const started: NonNullable<ReadScope["readAhead"]> = {};
  const onParsed = (counts: ReadonlyMap<string, number>, file: string) => {
    byFile.set(file, counts);
    for (const kind of KINDS) {
      const module = registry[kind] as KindModule<Kind>;
      const section = module.section.name;
      if (module.readAhead === undefined || started[kind] !== undefined || total(section) === 0) continue;
      const read = module.readAhead(client, () => total(section), { ...early, countOf: total });
      // Awaited by readLive; until then (or if the config fails to load) never unhandled.
      read.catch(() => undefined);
      started[kind] = read;
    }
  };
  return { onParsed, started };
}

/** The desired state cut down to the selected entries (their indexes match desiredItems'). */
function narrow(desired: DesiredState, selected: ReadonlySet<string> | undefined): DesiredState {
  if (selected === undefined) return desired;
  const resources = { ...desired.resources };
  for (const kind of KINDS) {
    const items = desiredItemsOf(registry[kind] as KindModule<Kind>, desired);
    const entries = desired.resources[kind] as unknown[];
    (resources as Record<Kind, unknown[]>)[kind] = entries.filter((_, i) =>
      selected.has(`${kind}/${items[i]?.key}`),
    );
  }
  return { ...desired, resources };
}

export { unlessUnsupported } from "./unsupported.js";
