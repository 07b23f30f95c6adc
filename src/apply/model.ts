// The outcome of an apply, as data: what the report renderers and `--output json` show.
import type { ErrorCode } from "../errors.js";
import type { ActionOp } from "../kinds/plan-action.js";
import type { Kind } from "../plan/model.js";

export const APPLY_RESULT_FORMAT_VERSION = 1;

export type ActionStatus = "applied" | "failed" | "skipped";

export interface ActionResult {
  id: string;
  kind: Kind;
  key: string;
  op: ActionOp;
  status: ActionStatus;
  durationMs: number;
  /** For a failure: the typed error's code and message (the server's message included). */
  error?: { code: ErrorCode; message: string; hint?: string };
  /** For a skip: why it was not started. */
  reason?: string;
  /** What happened on the way (a lost response read back, an unchanged status). */
  notes: string[];
  /** Verification: fields the server did not take as sent. */
  warnings: string[];
}

export interface ApplyReport {
  formatVersion: typeof APPLY_RESULT_FORMAT_VERSION;
  results: ActionResult[];
  counts: { applied: number; failed: number; skipped: number };
  interrupted: boolean;
  /**
   * A saved plan's actions found already as desired, so not sent again: an earlier run of the
   * plan, interrupted, applied them (or a change made meanwhile did). Absent when none was.
   */
  alreadyApplied?: string[];
}

export type ApplyEvent =
  | { type: "start"; id: string; kind: Kind; key: string }
  | { type: "finish"; result: ActionResult };
