// Progress views for apply. On a TTY: a listr2 task list, one task per phase (kind) with live
// counts, subtasks per resource when a phase is small enough to read, and the whole run's N/M
// first. In CI: one plain line per finished action, numbered N/M. For --output json and tests:
// nothing. The engine emits events; views only draw them.
import { createRequire } from "node:module";
import type { ListrTask } from "listr2";
import { KINDS } from "../kinds/registry.js";
import type { Kind, Plan } from "../plan/model.js";
import { describeKind } from "../plan/render-common.js";
import type { ApplyEvent } from "./model.js";
import { describeResult } from "./render-report.js";

export interface ProgressView {
  onEvent(event: ApplyEvent): void;
  /** Resolves when the view has drawn its last frame. */
  done(): Promise<void>;
}

export function silentProgress(): ProgressView {
  return { onEvent: () => undefined, done: async () => undefined };
}

/** `total`: the plan's actions; each finished one is numbered "[N/M]" (a long apply shows how far it is). */
export function lineProgress(write: (text: string) => void, total: number): ProgressView {
  let done = 0;
  const width = String(total).length;
  return {
    onEvent: (event) => {
      if (event.type !== "finish") return;
      done += 1;
      write(`[${String(done).padStart(width)}/${total}] ${describeResult(event.result)}\n`);
    },
    done: async () => undefined,
  };
}

const SUBTASK_LIMIT = 30;

// Loaded only when a terminal draws it: most runs (CI, --output json) never need listr2, and
// every run would pay for loading it at start-up.
const require = createRequire(import.meta.url);

/**
 * listr2's default renderer on stderr; each phase task resolves when its actions have finished.
 * listr2 writes to the terminal itself, past the CLI's terminal port: `show` masks and escapes
 * every key and message it is given (they may hold interpolated values or server text).
 */
export function listrProgress(plan: Plan, show: (text: string) => string = (text) => text): ProgressView {
  const waiters = new Map<string, (failed: string | undefined) => void>();
  // Events may arrive before listr2 has started a task: remember outcomes until it asks.
  const finished = new Map<string, string | undefined>();
  const counts = new Map<Kind, { done: number; failed: number; total: number }>();
  const phaseDone = new Map<Kind, () => void>();
  const titles = new Map<Kind, (title: string) => void>();
  const tasks: ListrTask[] = [];
  // The whole run's N/M, first: a phase's own count says little of a 2,000-action apply.
  const overall = { done: 0, failed: 0, total: plan.actions.length };
  const overallTitle = () =>
    `All changes: ${overall.done}/${overall.total}${overall.failed > 0 ? `, ${overall.failed} failed` : ""}`;
  let setOverall: ((title: string) => void) | undefined;
  let overallDone: (() => void) | undefined;
  if (overall.total > 0) {
    tasks.push({
      title: overallTitle(),
      task: (_ctx, task) => {
        setOverall = (t) => {
          task.title = t;
        };
        task.title = overallTitle();
        return new Promise<void>((resolve) => {
          if (overall.done === overall.total) resolve();
          else overallDone = resolve;
        });
      },
    });
  }
  for (const kind of KINDS) {
    const actions = plan.actions.filter((a) => a.kind === kind);
    if (actions.length === 0) continue;
    counts.set(kind, { done: 0, failed: 0, total: actions.length });
    const title = () => {
      const c = counts.get(kind) ?? { done: 0, failed: 0, total: 0 };
      return `${describeKind(kind, 2)}: ${c.done}/${c.total}${c.failed > 0 ? `, ${c.failed} failed` : ""}`;
    };
    tasks.push({
      title: title(),
      task: (_ctx, task) => {
        titles.set(kind, (t) => {
          task.title = t;
        });
        task.title = title();
        if (actions.length > SUBTASK_LIMIT) {
          return new Promise<void>((resolve) => {
            const c = counts.get(kind);
            if (c !== undefined && c.done === c.total) resolve();
            else phaseDone.set(kind, resolve);
          });
        }
        return task.newListr(
          actions.map((action) => ({
            title: show(`${action.op} ${action.key}`),
            task: () =>
              new Promise<void>((resolve, reject) => {
                const settle = (failed: string | undefined) =>
                  failed === undefined ? resolve() : reject(new Error(failed));
                if (finished.has(action.id)) settle(finished.get(action.id));
                else waiters.set(action.id, settle);
              }),
          })),
          { concurrent: true, exitOnError: false },
        );
      },
    });
  }
  const { Listr } = require("listr2") as typeof import("listr2");
  const list = new Listr(tasks, {
    concurrent: true,
    exitOnError: false,
    rendererOptions: { collapseSubtasks: true },
    fallbackRenderer: "simple",
    // listr2's own SIGINT listener calls process.exit(127): no report, and state writes of
    // actions that finished would be lost. The apply command handles Ctrl-C itself.
    registerSignalListeners: false,
  });
  const running = list.run().catch(() => undefined);
  return {
    onEvent: (event) => {
      if (event.type !== "finish") return;
      const { result } = event;
      overall.done += 1;
      if (result.status === "failed") overall.failed += 1;
      setOverall?.(overallTitle());
      if (overall.done === overall.total) overallDone?.();
      const c = counts.get(result.kind);
      if (c === undefined) return;
      c.done += 1;
      if (result.status === "failed") c.failed += 1;
      const kind = result.kind;
      titles.get(kind)?.(
        `${describeKind(kind, 2)}: ${c.done}/${c.total}${c.failed > 0 ? `, ${c.failed} failed` : ""}`,
      );
      const failure =
        result.status === "applied" ? undefined : (result.error?.message ?? result.reason ?? result.status);
      finished.set(result.id, failure === undefined ? undefined : show(failure));
      waiters.get(result.id)?.(failure);
      if (c.done === c.total) phaseDone.get(kind)?.();
    },
    done: async () => {
      await running;
    },
  };
}
