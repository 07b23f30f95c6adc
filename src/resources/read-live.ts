// Reading live state for a plan: the I/O edge of src/resources/. Every kind reads what the
// desired state needs (its own read strategy, list or identity by identity, lives in its module),
// all kinds at once. A kind the config does not manage is not read: a plan of topics costs only
// topic reads; with --target, only the targets and their dependencies are read.
import type { NotificationApi } from "../api/types.js";
import type { DesiredState } from "../config/model.js";
import type { LiveSnapshot, ReadScope } from "./kind.js";
import { KINDS, type Kind, registry } from "./registry.js";

export interface ReadLiveOptions {
  signal?: AbortSignal;
  /** Read everything the server lets us read, whatever the config names (export). */
  everything?: boolean;
  /** Action ids (`kind/key`) the plan covers: --target and dependencies; undefined: all. */
  selected?: ReadonlySet<string>;
  /** List every managed kind in full, so the plan can list unmanaged resources. */
  listUnmanaged?: boolean;
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
    ...(options.selected ? { selected: options.selected } : {}),
    ...(options.listUnmanaged === true ? { listUnmanaged: true } : {}),
  };
  const reads = await Promise.all(KINDS.map((kind) => registry[kind].readLive(client, scope)));
  const kinds = {} as Record<Kind, unknown>;
  const duplicates: LiveSnapshot["duplicates"] = {};
  const unlisted: Kind[] = [];
  KINDS.forEach((kind, index) => {
    const read = reads[index];
    kinds[kind] = read?.live;
    if (read?.duplicates !== undefined && read.duplicates.length > 0) duplicates[kind] = read.duplicates;
    // Read by identity, or not read at all because --target left out every entry of the kind.
    const skipped = narrowed.resources[kind].length === 0 && desired.resources[kind].length > 0;
    if (read?.listed === false || skipped) unlisted.push(kind);
  });
  return {
    organization,
    kinds: kinds as LiveSnapshot["kinds"],
    duplicates,
    ...(unlisted.length > 0 ? { unlisted } : {}),
  };
}

/** The desired state cut down to the selected entries (their indexes match desiredItems'). */
function narrow(desired: DesiredState, selected: ReadonlySet<string> | undefined): DesiredState {
  if (selected === undefined) return desired;
  const resources = { ...desired.resources };
  for (const kind of KINDS) {
    const items = registry[kind].desiredItems(desired);
    const entries = desired.resources[kind] as unknown[];
    (resources as Record<Kind, unknown[]>)[kind] = entries.filter((_, i) =>
      selected.has(`${kind}/${items[i]?.key}`),
    );
  }
  return { ...desired, resources };
}

export { unlessUnsupported } from "./unsupported.js";
