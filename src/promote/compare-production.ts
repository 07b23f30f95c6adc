// The reads behind a promotion preview's diff against Production: each workflow the promotion
// carries, read in Development by id and in Production by trigger identifier, with each
// environment's group names and layout identifiers; each layout it carries, from each
// environment's layout list (by id in Development, by identifier in Production). Reads only; the
// diff itself is pure (production-diff.ts). Values are masked as they are read, like the rest of
// the promotion. The layouts the promoted workflows use without a change of their own listed are
// compared too: a real server nests such a layout's pending change in a workflow's and promotes
// it with that workflow, unlisted (UpdateMessageTemplate re-parents it on every step write
// naming the layout), so this diff is the only place a reviewer sees it.
import type { JsonObject } from "../canonical.js";
import { isNotiformError } from "../errors.js";
import type { Layout } from "../kinds/layout/wire.js";
import type { NotificationApi } from "../kinds/notification-api.js";
import { unlessUnsupported } from "../kinds/unsupported.js";
import { layoutIdsOf } from "../kinds/workflow/promotion.js";
import type { Workflow } from "../kinds/workflow/wire.js";
import type { CarriedLayout, Promotion, PromotionEntry } from "./model.js";
import {
  carriedLayoutDigest,
  diffAgainstProduction,
  type EnvironmentNames,
  promotedLayoutFields,
  promotedWorkflowFields,
} from "./production-diff.js";

type Reader = Pick<NotificationApi, "getWorkflow" | "listNotificationGroups" | "listAllLayouts">;

/** Kinds whose entries get a diff against Production. */
export const COMPARED_KINDS: readonly string[] = ["workflow", "layout"];

/**
 * The promotion with a `diff` on every workflow and layout entry: Development's record against
 * Production's; and, where a workflow is promoted, every layout with no change of its own listed
 * with its diff (`carried`: unlistedLayouts).
 */
export async function compareWithProduction(
  promotion: Promotion,
  development: Reader,
  production: Reader,
  mask: <T>(value: T) => T,
): Promise<Promotion> {
  const workflows = promotion.entries.filter((entry) => entry.kind === "workflow");
  const layouts = promotion.entries.filter((entry) => entry.kind === "layout");
  if (workflows.length === 0 && layouts.length === 0) return promotion;
  const [developmentNames, productionNames] = await Promise.all([namesOf(development), namesOf(production)]);
  const layoutDiff = (record: Layout) => {
    const current = productionLayoutOf(record, productionNames.layoutRecords);
    const next = mask(promotedLayoutFields(record));
    const now = current === undefined ? undefined : mask(promotedLayoutFields(current));
    return diffAgainstProduction(next, now);
  };
  const layoutDiffs = layouts.flatMap((entry) => {
    const record = developmentNames.layoutRecords.find((layout) => layout._id === entry.entityId);
    // Deleted in Development since the change was listed: nothing to compare.
    if (record === undefined) return [];
    return [[entry.changeId, layoutDiff(record)] as const];
  });
  const read = await Promise.all(
    workflows.map(async (entry) => {
      const record = await development.getWorkflow(entry.entityId);
      const identifier = entry.identifier ?? record.triggers[0]?.identifier;
      const current =
        identifier === undefined ? undefined : await unlessNotFound(production.getWorkflow(identifier));
      const next = mask(promotedWorkflowFields(record, developmentNames)) as JsonObject;
      const now =
        current === undefined
          ? undefined
          : (mask(promotedWorkflowFields(current, productionNames)) as JsonObject);
      return { entry, record, diff: diffAgainstProduction(next, now) };
    }),
  );
  const diffs = new Map([...layoutDiffs, ...read.map(({ entry, diff }) => [entry.changeId, diff] as const)]);
  const withDiff = (entry: PromotionEntry): PromotionEntry => {
    const diff = diffs.get(entry.changeId);
    return diff === undefined ? entry : { ...entry, diff };
  };
  const users = new Map<string, string[]>();
  // Named as an entry's label names it: its config key, else its server name quoted.
  for (const { entry, record } of read)
    for (const id of layoutIdsOf(record))
      users.set(id, [...(users.get(id) ?? []), entry.key ?? JSON.stringify(entry.name)]);
  // Only a workflow's change can hold a layout's.
  const unlisted =
    workflows.length === 0 ? [] : unlistedLayouts(promotion, developmentNames.layoutRecords, mask);
  const carried = unlisted.map((layout) => {
    const record = developmentNames.layoutRecords.find((l) => l._id === layout.entityId) as Layout;
    return { ...layout, workflows: (users.get(layout.entityId) ?? []).sort(), diff: layoutDiff(record) };
  });
  return {
    ...promotion,
    entries: promotion.entries.map(withDiff),
    ...(carried.length > 0 ? { carried } : {}),
  };
}

/**
 * Every Development layout with no change of its own listed (in the entries or the unmanaged
 * list), with its digest: which of them a promoted workflow's change holds, the server does not
 * say. It nests a layout's pending change in the change of the last workflow written with a step
 * naming the layout, and it stays there when the workflow stops naming it. So a saved promotion
 * keeps the digest of each, and is refused when one moved; the preview shows those that differ
 * from Production (compareWithProduction). Reads nothing: the caller has the layouts.
 */
export function unlistedLayouts(
  promotion: Promotion,
  development: readonly Layout[],
  mask: <T>(value: T) => T,
): CarriedLayout[] {
  const listed = new Set(
    [...promotion.entries, ...promotion.unmanaged].filter((e) => e.kind === "layout").map((e) => e.entityId),
  );
  return development
    .filter((layout) => layout.deleted !== true && !listed.has(layout._id))
    .map((layout) => ({
      entityId: layout._id,
      key: mask(layout.identifier),
      workflows: [],
      digest: carriedLayoutDigest(layout, mask),
    }))
    .sort((a, b) => a.key.localeCompare(b.key) || a.entityId.localeCompare(b.entityId));
}

/** Production's copy of a Development layout: the one promoted from it, else the one of its identifier. */
function productionLayoutOf(layout: Layout, production: readonly Layout[]): Layout | undefined {
  const live = production.filter((l) => l.deleted !== true);
  return live.find((l) => l._parentId === layout._id) ?? live.find((l) => l.identifier === layout.identifier);
}

async function namesOf(client: Reader): Promise<EnvironmentNames & { layoutRecords: Layout[] }> {
  const [groups, layouts] = await Promise.all([
    unlessUnsupported(client.listNotificationGroups()),
    unlessUnsupported(client.listAllLayouts()),
  ]);
  return {
    groups: new Map((groups ?? []).map((g) => [g._id, g.name])),
    layouts: new Map((layouts ?? []).map((l) => [l._id, l.identifier])),
    layoutRecords: layouts ?? [],
  };
}

/** A workflow Production does not have yet (never promoted): every field is new there. */
async function unlessNotFound(read: Promise<Workflow>): Promise<Workflow | undefined> {
  try {
    return await read;
  } catch (error) {
    if (isNotiformError(error) && error.code === "API_NOT_FOUND") return undefined;
    throw error;
  }
}
