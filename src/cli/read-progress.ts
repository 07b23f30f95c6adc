// Read progress for a person at a terminal: "Reading topics 12/300 pages" on one stderr line,
// redrawn after each page and cleared when every list is read. Off when stdout is not a TTY (CI,
// a pipe), with --verbose (its own lines would interleave), and when stdout carries JSON or
// markdown. The client only reports pages (onPage); drawing is here, at the edge.
//
// Counts only grow: one list may be read more than once in a run, even at the same time (the
// tenants, for the tenant section and again for the overrides that name them), so each list's
// line sums the pages of all its readings; a reading that starts late adds to it, never resets it.
import type { PageProgress } from "../pipeline/context.js";
import type { Terminal } from "./terminal.js";

export function wantsReadProgress(
  terminal: Terminal,
  args: { verbose?: boolean | undefined; output?: unknown },
): boolean {
  return terminal.isTTY && args.verbose !== true && (args.output === undefined || args.output === "text");
}

/** "listWorkflowOverrides" -> "workflow overrides": the user's words, not the client's names. */
export function describeList(endpoint: string): string {
  const name = endpoint.replace(/^list(All)?/, "");
  const words = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
  return words === "" ? endpoint : words;
}

export function readProgress(terminal: Terminal): (progress: PageProgress) => void {
  // Per list (endpoint): its readings so far, the last report of each; those still running.
  const readings = new Map<string, Map<number, PageProgress>>();
  const running = new Map<string, Set<number>>();
  let drawn = "";
  return (progress) => {
    const { endpoint, list } = progress;
    const mine = readings.get(endpoint) ?? new Map<number, PageProgress>();
    readings.set(endpoint, mine);
    mine.set(list, progress);
    const active = running.get(endpoint) ?? new Set<number>();
    running.set(endpoint, active);
    if (progress.done) active.delete(list);
    else active.add(list);
    const shown = [...running.entries()].filter(([, ids]) => ids.size > 0);
    const parts = shown.map(([name]) => describeReadings(name, [...(readings.get(name)?.values() ?? [])]));
    const line = parts.length === 0 ? "" : `Reading ${parts.join(", ")}`;
    if (line !== drawn) terminal.status(line);
    drawn = line;
  };
}

function describeReadings(endpoint: string, all: PageProgress[]): string {
  const read = all.reduce((sum, p) => sum + p.read, 0);
  const known = all.every((p) => p.total !== undefined);
  const total = known ? all.reduce((sum, p) => sum + (p.total ?? 0), 0) : undefined;
  const pages = total === undefined ? `${read} page${read === 1 ? "" : "s"}` : `${read}/${total} pages`;
  return `${describeList(endpoint)} ${pages}`;
}
