// The read progress line as drawn: lists named in the user's words, never the client's method
// names, and counts that only grow, even when one list is read twice at once (tenants, for the
// tenant section and for the overrides that name them) or again later in the run.
import { describe, expect, it } from "vitest";
import type { PageProgress } from "../../src/api/log-events.js";
import { describeList, readProgress } from "../../src/cli/read-progress.js";
import type { Terminal } from "../../src/cli/terminal.js";

function capture(): { terminal: Terminal; lines: string[] } {
  const lines: string[] = [];
  const terminal = {
    status: (line: string) => lines.push(line),
  } as unknown as Terminal;
  return { terminal, lines };
}

const page = (endpoint: string, list: number, read: number, total?: number, done = false): PageProgress => ({
  endpoint,
  list,
  read,
  total,
  done,
});

describe("read progress line", () => {
  it("names each list as the user knows it", () => {
    expect(describeList("listLayouts")).toBe("layouts");
    expect(describeList("listWorkflowOverrides")).toBe("workflow overrides");
    expect(describeList("listTenants")).toBe("tenants");
    expect(describeList("listChanges")).toBe("changes");
    const { terminal, lines } = capture();
    readProgress(terminal)(page("listLayouts", 1, 1, 1));
    expect(lines).toEqual(["Reading layouts 1/1 pages"]);
  });

  it("never counts down when a list is read twice at once, nor when it is read again later", () => {
    const { terminal, lines } = capture();
    const draw = readProgress(terminal);
    draw(page("listTenants", 1, 1));
    draw(page("listTenants", 1, 2));
    draw(page("listTenants", 1, 3));
    draw(page("listTenants", 2, 1));
    draw(page("listTenants", 1, 4));
    draw(page("listTenants", 2, 2));
    draw(page("listTenants", 1, 4, undefined, true));
    draw(page("listTenants", 2, 3));
    draw(page("listTenants", 2, 3, undefined, true));
    draw(page("listTenants", 3, 1));
    draw(page("listTenants", 3, 1, undefined, true));
    const counts = lines.filter((l) => l !== "").map((l) => Number(/tenants (\d+) page/.exec(l)?.[1]));
    expect(counts).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(counts.every((n, i) => i === 0 || n >= (counts[i - 1] ?? 0))).toBe(true);
    expect(lines[lines.length - 1]).toBe("");
  });
});
