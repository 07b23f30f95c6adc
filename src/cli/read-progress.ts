// Read progress for a person at a terminal: "Reading topics 12/300 pages" on one stderr line,
// redrawn after each page and cleared when every list is read. Off when stdout is not a TTY (CI,
// a pipe), with --verbose (its own lines would interleave), and when stdout carries JSON or
// markdown. The client only reports pages (onPage); drawing is here, at the edge.
import type { PageProgress } from "../pipeline/context.js";
import type { Terminal } from "./terminal.js";

const LABELS: Record<string, string> = {
  listTopics: "topics",
  listWorkflows: "workflows",
  listWorkflowOverrides: "workflow overrides",
  listTenants: "tenants",
  listChanges: "changes",
};

export function wantsReadProgress(
  terminal: Terminal,
  args: { verbose?: boolean | undefined; output?: unknown },
): boolean {
  return terminal.isTTY && args.verbose !== true && (args.output === undefined || args.output === "text");
}

export function readProgress(terminal: Terminal): (progress: PageProgress) => void {
  const lists = new Map<string, PageProgress>();
  let drawn = false;
  return (progress) => {
    if (progress.done) lists.delete(progress.endpoint);
    else lists.set(progress.endpoint, progress);
    if (lists.size === 0) {
      if (drawn) terminal.status("");
      drawn = false;
      return;
    }
    const parts = [...lists.values()].map(
      (p) =>
        `${LABELS[p.endpoint] ?? p.endpoint} ${p.total === undefined ? `${p.read} page${p.read === 1 ? "" : "s"}` : `${p.read}/${p.total} pages`}`,
    );
    terminal.status(`Reading ${parts.join(", ")}`);
    drawn = true;
  };
}
