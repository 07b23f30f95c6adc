// The apply engine: runs a plan's actions in dependency order, independent ones concurrently,
// and stops (or skips dependents, with continueOnError) on failure. Each action performs exactly
// the operations the plan recorded, through its kind's module. It never prints: progress goes
// out as events, the outcome as an ApplyReport.
import { ApiError, NetworkError } from "../api/errors.js";
import { type JsonObject, sameValue } from "../canonical.js";
import { isNotiformError } from "../errors.js";
import type { KindModule } from "../kinds/kind.js";
import type { Kind } from "../kinds/kinds.js";
import type { NotificationApi } from "../kinds/notification-api.js";
import type { PlanAction } from "../kinds/plan-action.js";
import { registry } from "../kinds/registry.js";
import { isCreate } from "../kinds/requests.js";
import type { Plan } from "../plan/model.js";
import type { ActionResult, ApplyEvent, ApplyReport } from "./model.js";
import { APPLY_RESULT_FORMAT_VERSION } from "./model.js";
import type { StateRecorder } from "./state-recorder.js";

export interface ExecutePlanOptions {
  client: NotificationApi;
  plan: Plan;
  recorder: StateRecorder;
  concurrency: number;
  continueOnError: boolean;
  /** Soft stop (first Ctrl-C): start nothing new, let running actions finish. */
  stopSignal?: AbortSignal;
  /** Hard stop (second Ctrl-C): abort requests in flight. */
  abortSignal?: AbortSignal;
  onEvent?: (event: ApplyEvent) => void;
  now?: () => number;
  /** Wall clock for the intents' start times. */
  clock?: () => Date;
}

export async function executePlan(options: ExecutePlanOptions): Promise<ApplyReport> {
  const now = options.now ?? (() => performance.now());
  const { plan } = options;
  const results = new Map<string, ActionResult>();
  const groupKeys = new Map<string, string>();
  for (const key of Object.keys(plan.bindings.notificationGroups)) {
    const id = plan.bindings.notificationGroups[key];
    if (id !== undefined) groupKeys.set(id, key);
  }
  const createdIds = new Map<string, string>();
  let stopReason: string | undefined;

  const skip = (action: PlanAction, reason: string) =>
    finish({
      id: action.id,
      kind: action.kind,
      key: action.key,
      op: action.op,
      status: "skipped",
      durationMs: 0,
      reason,
      notes: [],
      warnings: [],
    });
  const finish = (result: ActionResult) => {
    results.set(result.id, result);
    options.onEvent?.({ type: "finish", result });
  };

  for (const action of plan.actions) {
    if (action.op === "not-applicable") skip(action, action.reason ?? "not applicable on this server");
    // Never sent: an interrupted create is resolved by the user, not guessed at (dependents skip).
    if (action.op === "uncertain") {
      finish({
        id: action.id,
        kind: action.kind,
        key: action.key,
        op: action.op,
        status: "failed",
        durationMs: 0,
        error: {
          code: "CREATE_UNCERTAIN",
          message: `${action.id}: ${action.reason ?? "an earlier create was interrupted"}`,
          hint: `notiform resolve ${action.id} --id ID (it exists) or --not-created (it does not)`,
        },
        notes: [],
        warnings: [],
      });
      if (!options.continueOnError) stopReason ??= `${action.id} is uncertain; resolve it first`;
    }
  }
  const waiting = plan.actions.filter(
    (action) => action.op !== "not-applicable" && action.op !== "uncertain",
  );
  const context: RunContext = { ...options, groupKeys, createdIds, now };
  const limit = Math.max(1, options.concurrency);
  let running = 0;

  // Event-driven: an action's end starts the next one in the same turn, so a slot never waits
  // for a loop to wake (the loop this replaced raced every running action per end: with
  // thousands of one-request actions that was the engine's main cost between two requests).
  await new Promise<void>((resolve, reject) => {
    const onStop = () => pump();
    const done = () => {
      options.stopSignal?.removeEventListener("abort", onStop);
      resolve();
    };
    const pump = () => {
      if (options.stopSignal?.aborted === true && stopReason === undefined) stopReason = "interrupted";
      if (stopReason === undefined) {
        for (let i = 0; i < waiting.length && running < limit; ) {
          const action = waiting[i] as PlanAction;
          const blocked = action.dependsOn.find((id) => {
            const status = results.get(id)?.status;
            return status === "failed" || status === "skipped";
          });
          if (blocked !== undefined) {
            waiting.splice(i, 1);
            skip(action, `depends on ${blocked}, which was ${results.get(blocked)?.status}`);
            continue;
          }
          if (!action.dependsOn.every((id) => results.get(id)?.status === "applied")) {
            i += 1;
            continue;
          }
          waiting.splice(i, 1);
          running += 1;
          options.onEvent?.({ type: "start", id: action.id, kind: action.kind, key: action.key });
          runAction(action, context).then(settle).catch(reject);
        }
      }
      if (running === 0) done();
    };
    const settle = (result: ActionResult) => {
      running -= 1;
      finish(result);
      if (result.status === "failed" && !options.continueOnError)
        stopReason ??= `stopped after ${result.id} failed`;
      pump();
    };
    // First Ctrl-C: wake to start nothing new (running actions finish and settle as usual).
    options.stopSignal?.addEventListener("abort", onStop, { once: true });
    try {
      pump();
    } catch (error) {
      reject(error);
    }
  });
  for (const action of waiting) skip(action, stopReason ?? "not started");

  const ordered = plan.actions.map((action) => results.get(action.id) as ActionResult);
  return {
    formatVersion: APPLY_RESULT_FORMAT_VERSION,
    results: ordered,
    counts: {
      applied: ordered.filter((r) => r.status === "applied").length,
      failed: ordered.filter((r) => r.status === "failed").length,
      skipped: ordered.filter((r) => r.status === "skipped").length,
    },
    interrupted: stopReason === "interrupted",
  };
}

interface RunContext extends ExecutePlanOptions {
  groupKeys: Map<string, string>;
  createdIds: Map<string, string>;
  now: () => number;
}

async function runAction(action: PlanAction, context: RunContext): Promise<ActionResult> {
  const started = context.now();
  // Methods are bivariant: the module of action.kind takes that kind's operations.
  const module = registry[action.kind] as KindModule<Kind>;
  const notes: string[] = [];
  const reported: JsonObject = {};
  const base = { id: action.id, kind: action.kind, key: action.key, op: action.op, notes };
  // An intent is recorded only where the kind could not otherwise tell an interrupted create
  // from one never sent (it has intentDoubt): a topic or an override is found by its identity,
  // so its intent would cost a state write and fsync per create and settle nothing.
  const creates = module.intentDoubt !== undefined && action.operations.some(isCreate);
  try {
    if (creates) {
      const startedAt = (context.clock ?? (() => new Date()))().toISOString();
      await context.recorder.recordIntent(action.id, { kind: action.kind, key: action.key, startedAt });
    }
    for (const operation of action.operations) {
      const result = await module.execute(action, operation, {
        client: context.client,
        groupKeys: context.groupKeys,
        createdIds: context.createdIds,
        ...(context.abortSignal ? { signal: context.abortSignal } : {}),
      });
      if (result.serverId !== undefined && action.op === "create")
        context.createdIds.set(action.id, result.serverId);
      if (result.stateChange?.section === "notificationGroups") {
        context.groupKeys.set(result.stateChange.id, result.stateChange.key);
      }
      if (result.stateChange !== undefined) await context.recorder.record(result.stateChange);
      if (result.note !== undefined) notes.push(result.note);
      Object.assign(reported, result.fields ?? {});
    }
    if (creates) await context.recorder.clearIntent(action.id);
    return {
      ...base,
      status: "applied",
      durationMs: elapsed(context, started),
      warnings: verify(action, reported),
    };
  } catch (error) {
    // The intent stays unless the failure proves the create never happened.
    if (creates && certainlyNotApplied(error))
      await context.recorder.clearIntent(action.id).catch(() => undefined);
    const detail = isNotiformError(error)
      ? { code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) }
      : { code: "INTERNAL" as const, message: error instanceof Error ? error.message : String(error) };
    // A create whose request may have reached the server (its answer lost): it may exist now.
    if (creates && mayHaveCreated(error))
      Object.assign(detail, { code: "CREATE_UNCERTAIN", hint: uncertainCreateHint(action.id) });
    return { ...base, status: "failed", durationMs: elapsed(context, started), error: detail, warnings: [] };
  }
}

/** A request that may have been applied though its answer never came (a write, cut off). */
function mayHaveCreated(error: unknown): boolean {
  return (error instanceof ApiError || error instanceof NetworkError) && error.mayHaveBeenApplied;
}

/** What to do about a create that may have happened: the intent stays for the next plan to settle. */
export function uncertainCreateHint(id: string): string {
  return `Run \`notiform plan\`: it settles the create where it can see whether it happened, else shows ${id} as uncertain, for \`notiform resolve ${id} --id ID\` (it exists) or \`--not-created\` (it does not).`;
}

/** A refusal the server answered (4xx), or a request that never left: nothing was created. */
function certainlyNotApplied(error: unknown): boolean {
  return (error instanceof ApiError || error instanceof NetworkError) && !error.mayHaveBeenApplied;
}

function elapsed(context: RunContext, started: number): number {
  return Math.round(context.now() - started);
}

/** Fields the server reports differently from what was sent: it silently ignored them. */
function verify(action: PlanAction, reported: JsonObject): string[] {
  const warnings: string[] = [];
  for (const change of action.changes) {
    if (!(change.field in reported)) continue;
    if (!sameValue(reported[change.field], change.new)) {
      warnings.push(
        `${action.id}: the server kept ${change.field} = ${JSON.stringify(reported[change.field])} instead of ${JSON.stringify(change.new)}`,
      );
    }
  }
  return warnings;
}
