// Applying a promotion: POST /v1/changes/{id}/apply for each entry and nothing else, in
// dependency order (the registry's phase order of the promotable kinds, then other changes: every
// group before any workflow, so a workflow's group exists in Production when the workflow is
// copied), a few at a time within a phase under the client's shared limiter
// and retry rules. A workflow whose group failed here is skipped. A change that 404s is looked up
// among the promoted ones: promoted meanwhile (e.g. in the dashboard) is not a failure.

import { isNotiformError } from "../errors.js";
import type { NotificationApi } from "../kinds/notification-api.js";
import { mapInLanes } from "../lanes.js";
import {
  labelOf,
  PROMOTION_FORMAT_VERSION,
  type Promotion,
  type PromotionEntry,
  type PromotionReport,
  type PromotionResult,
} from "./model.js";
import { PROMOTION_PHASES } from "./promotable.js";

export type PromotionEvent =
  | { type: "start"; entry: PromotionEntry }
  | { type: "finish"; result: PromotionResult };

export interface ExecutePromotionInput {
  client: Pick<NotificationApi, "applyChange" | "listAllChanges">;
  promotion: Promotion;
  concurrency: number;
  /** First Ctrl-C: start nothing new. */
  stopSignal?: AbortSignal;
  /** Second Ctrl-C: abort running requests. */
  abortSignal?: AbortSignal;
  onEvent?: (event: PromotionEvent) => void;
}

export async function executePromotion(input: ExecutePromotionInput): Promise<PromotionReport> {
  const results = new Map<string, PromotionResult>();
  /** Development ids whose change failed: an entry that moves to one (its group) is skipped. */
  const failedEntities = new Set<string>();
  let promoted: Promise<Set<string>> | undefined;
  const promotedIds = () => {
    promoted ??= input.client
      .listAllChanges({ promoted: true }, signalOption(input.abortSignal))
      .then((changes) => new Set(changes.map((c) => c._id)));
    return promoted;
  };

  const runOne = async (entry: PromotionEntry): Promise<PromotionResult> => {
    const base = { changeId: entry.changeId, kind: entry.kind, label: labelOf(entry) };
    if (input.stopSignal?.aborted || input.abortSignal?.aborted)
      return { ...base, status: "skipped", reason: "interrupted before it started" };
    if (entry.groupEntityId !== undefined && failedEntities.has(entry.groupEntityId))
      return { ...base, status: "skipped", reason: "its notification group failed to promote" };
    input.onEvent?.({ type: "start", entry });
    try {
      await input.client.applyChange(entry.changeId, signalOption(input.abortSignal));
      return { ...base, status: "applied" };
    } catch (error) {
      if (input.abortSignal?.aborted)
        return {
          ...base,
          status: "failed",
          error: { code: "INTERRUPTED", message: "aborted in flight: it may or may not have been promoted" },
        };
      if (!isNotiformError(error)) throw error;
      if (error.code === "API_NOT_FOUND" && (await promotedIds().catch(() => new Set())).has(entry.changeId))
        return { ...base, status: "already-promoted", reason: "promoted since the preview" };
      const message =
        error.code === "API_NOT_FOUND"
          ? `change ${entry.changeId} of ${base.label} (Development id ${entry.entityId}) was not found: ${error.message}`
          : error.message;
      return { ...base, status: "failed", error: { code: error.code, message } };
    }
  };

  for (const phase of PROMOTION_PHASES) {
    const entries = input.promotion.entries.filter((e) => e.kind === phase);
    await mapInLanes(entries, Math.max(1, input.concurrency), async (entry) => {
      const result = await runOne(entry);
      if (result.status === "failed") failedEntities.add(entry.entityId);
      results.set(entry.changeId, result);
      input.onEvent?.({ type: "finish", result });
    });
  }
  const ordered = input.promotion.entries.flatMap((e) => {
    const result = results.get(e.changeId);
    return result === undefined ? [] : [result];
  });
  const count = (status: PromotionResult["status"]) => ordered.filter((r) => r.status === status).length;
  return {
    formatVersion: PROMOTION_FORMAT_VERSION,
    results: ordered,
    counts: {
      applied: count("applied"),
      alreadyPromoted: count("already-promoted"),
      failed: count("failed"),
      skipped: count("skipped"),
    },
    interrupted: input.stopSignal?.aborted === true || input.abortSignal?.aborted === true,
  };
}

function signalOption(signal: AbortSignal | undefined): { signal?: AbortSignal } {
  return signal === undefined ? {} : { signal };
}
