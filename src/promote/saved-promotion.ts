// A promotion saved with `promote --out FILE`, and whether it may still be applied. It is
// refused (nothing promoted) when it is not a promotion of a known format, targets another API
// URL, organization or environment, or when any change it carries moved since: rewritten (its
// digest differs) or gone. A change promoted meanwhile (found among the promoted ones) is not a
// reason to refuse: it is reported as already promoted and not sent again.

import { readBoundedFile } from "../bounded-file.js";
import { NotiformError } from "../errors.js";
import type { Change } from "../kinds/endpoints/wire.js";
import type { Layout } from "../kinds/layout/wire.js";
import { MAX_DOCUMENT_NESTING, nestsDeeperThan } from "../nesting.js";
import { validatorOf } from "../schemas.js";
import { normalizeUrl } from "../state/state-store.js";
import { digestOfChange } from "./build-promotion.js";
import type { ManagedEntities } from "./managed.js";
import {
  type CarriedLayout,
  carriedLabel,
  labelOf,
  PROMOTION_FORMAT_VERSION,
  type Promotion,
  type PromotionEntry,
  type PromotionTarget,
} from "./model.js";
import { carriedLayoutDigest } from "./production-diff.js";

export async function readSavedPromotion(path: string): Promise<Promotion> {
  const read = await readBoundedFile(path);
  if (!read.ok)
    throw new NotiformError("PROMOTION_INVALID", `cannot read the promotion ${path}: it ${read.reason}`, {
      pos: { file: path, line: 1, col: 1 },
    });
  let parsed: unknown;
  try {
    parsed = JSON.parse(read.bytes.toString("utf8"));
  } catch (error) {
    throw new NotiformError(
      "PROMOTION_INVALID",
      `the promotion ${path} is not valid JSON (${(error as Error).message}); is it truncated?`,
      { hint: "Run `notiform promote --out FILE` again." },
    );
  }
  if (nestsDeeperThan(parsed))
    throw new NotiformError(
      "PROMOTION_INVALID",
      `the promotion ${path} nests values more than ${MAX_DOCUMENT_NESTING} levels deep: no promotion notiform writes does`,
      { hint: "Run `notiform promote --out FILE` again.", pos: { file: path, line: 1, col: 1 } },
    );
  const other = otherFile(parsed);
  if (other !== undefined)
    throw new NotiformError("PROMOTION_INVALID", `${path} is not a notiform promotion: ${other}`, {
      hint: "Save a promotion with `notiform promote --out FILE`.",
    });
  const version = (parsed as { formatVersion?: unknown } | null)?.formatVersion;
  if (version !== PROMOTION_FORMAT_VERSION)
    throw new NotiformError(
      "PROMOTION_INVALID",
      `the promotion ${path} has format version ${JSON.stringify(version ?? null)}; this notiform applies version ${PROMOTION_FORMAT_VERSION}`,
      { hint: "Make the promotion with the same notiform version that applies it." },
    );
  const validate = validatorOf("promotion");
  if (!validate(parsed)) {
    const problems = (validate.errors ?? [])
      .slice(0, 3)
      .map((e) => `${e.instancePath || "/"} ${e.message ?? ""}`);
    throw new NotiformError(
      "PROMOTION_INVALID",
      `the promotion ${path} is not a notiform promotion: ${problems.join("; ")}`,
    );
  }
  return parsed as Promotion;
}

/** What a file notiform writes that is not a promotion is, by its shape; undefined when it may be one. */
function otherFile(value: unknown): string | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return "it is not a JSON object";
  const record = value as Record<string, unknown>;
  if (Array.isArray(record.entries)) return undefined;
  if (Array.isArray(record.actions)) return "it looks like a saved plan (`notiform apply FILE` takes it)";
  if ("notificationGroups" in record && "workflows" in record) return "it looks like a state file";
  if (Array.isArray(record.results)) return "it looks like an apply or promote result";
  return undefined;
}

/** Refuse a promotion made for another server, organization or environment. */
export function checkPromotionTarget(saved: Promotion, target: PromotionTarget): void {
  const moved: string[] = [];
  const s = saved.target;
  if (normalizeUrl(s.apiUrl) !== normalizeUrl(target.apiUrl))
    moved.push(`API URL ${s.apiUrl}, not ${target.apiUrl}`);
  if (s.organization !== target.organization)
    moved.push(`organization "${s.organization}", not "${target.organization}"`);
  if (s.environment !== target.environment)
    moved.push(`environment ${JSON.stringify(s.environment)}, not ${JSON.stringify(target.environment)}`);
  if (s.environmentId !== target.environmentId)
    moved.push(`Development environment ${s.environmentId}, not ${target.environmentId}`);
  if (moved.length > 0)
    throw new NotiformError("PLAN_TARGET_MISMATCH", `the promotion was made for ${moved.join("; ")}`, {
      hint: "Promote with the same --env and key the promotion was made with, or make it again.",
    });
}

/**
 * A promotion saved without --all promotes only what the config manages now: every entry is
 * checked against the managed entities (never against the file's own `managed` flags), so an
 * edited file cannot slip an unmanaged change in. Refused whole, nothing promoted.
 */
export function checkPromotionManaged(saved: Promotion, managed: ManagedEntities): void {
  const foreign = saved.entries.filter(
    (entry) => entry.kind === "other" || managed.kinds[entry.kind]?.has(entry.entityId) !== true,
  );
  if (foreign.length > 0)
    throw new NotiformError(
      "PROMOTION_INVALID",
      `the saved promotion carries ${foreign.length === 1 ? "a change" : `${foreign.length} changes`} the config does not manage, and was not made with --all: ${foreign
        .slice(0, 5)
        .map((entry) => `${labelOf(entry)} (change ${entry.changeId})`)
        .join("; ")}; nothing was promoted`,
      {
        hint: "Make the promotion again with `notiform promote --out FILE` (with --all to include unmanaged changes).",
      },
    );
}

export interface Freshness {
  /** Entries still pending exactly as saved: what applying sends. */
  current: PromotionEntry[];
  /** Entries whose change was promoted since (e.g. in the dashboard). */
  alreadyPromoted: PromotionEntry[];
}

/** Pure: compare the saved entries with the changes pending (and promoted) now. */
export function checkPromotionFresh(
  saved: Promotion,
  pending: readonly Change[],
  promotedIds: ReadonlySet<string>,
  mask: <T>(value: T) => T,
): Freshness {
  const byId = new Map(pending.map((c) => [c._id, c]));
  const moved: string[] = [];
  const out: Freshness = { current: [], alreadyPromoted: [] };
  for (const entry of saved.entries) {
    const change = byId.get(entry.changeId);
    if (change !== undefined) {
      // The entry's entity and type must be the change's own: the managed check reads them.
      const same = change._entityId === entry.entityId && change.type === entry.changeType;
      if (same && digestOfChange(change, mask) === entry.digest) out.current.push(entry);
      else moved.push(`${labelOf(entry)} (change ${entry.changeId}) changed in Development since`);
    } else if (promotedIds.has(entry.changeId)) out.alreadyPromoted.push(entry);
    else moved.push(`${labelOf(entry)} (change ${entry.changeId}) is no longer pending`);
  }
  refuseStale(moved);
  return out;
}

/** Refuse the whole saved promotion when anything it carries moved, saying what (the first five). */
function refuseStale(moved: readonly string[]): void {
  if (moved.length > 0)
    throw new NotiformError(
      "PROMOTION_STALE",
      `the saved promotion is stale, nothing was promoted: ${moved.slice(0, 5).join("; ")}${moved.length > 5 ? `; and ${moved.length - 5} more` : ""}`,
      { hint: "Run `notiform promote --out FILE` again, review it, and promote that file." },
    );
}

/**
 * Pure: a saved promotion's carried layouts against Development's layouts now. Such a layout's
 * change is not listed, so no digest of a change can show it moved: its content is compared
 * instead. Refused whole (PROMOTION_STALE) when one moved or is gone, so a layout edited after
 * the review never reaches Production unseen with the workflow that carries it.
 */
export function checkCarriedFresh(
  carried: readonly CarriedLayout[],
  current: readonly Layout[],
  mask: <T>(value: T) => T,
): void {
  const moved: string[] = [];
  for (const layout of carried) {
    const record = current.find((l) => l._id === layout.entityId);
    const label = `${carriedLabel(layout)} (no change of its own listed)`;
    if (record === undefined) moved.push(`${label} is gone from Development`);
    else if (carriedLayoutDigest(record, mask) !== layout.digest)
      moved.push(`${label} changed in Development since`);
  }
  refuseStale(moved);
}
