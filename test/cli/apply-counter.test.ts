// A long apply says how far it is: each finished action is numbered N/M in CI (piped), and on a
// terminal the task list opens with the whole run's N/M above the per-kind counts.
import { describe, expect, it } from "vitest";
import { cliTests } from "../support/cli.js";

const topics = (n: number) =>
  `version: 1\norganization: Acme Inc\ntopics:\n${Array.from({ length: n }, (_, i) => `  - key: c${i}\n    name: C ${i}\n`).join("")}`;

const startCliTest = cliTests();

describe("apply progress counter", () => {
  it("numbers each finished action N/M in CI", async () => {
    const session = await startCliTest({ config: topics(3) });
    const result = await session.cli("apply", "--auto-approve");
    expect(result.code, result.stderr).toBe(0);
    const numbered = result.stderr.split("\n").filter((line) => /^\[\d\/3\] applied {2}topic c\d/.test(line));
    expect(numbered.map((line) => line.slice(0, 5))).toEqual(["[1/3]", "[2/3]", "[3/3]"]);
  });

  it("shows the whole run's N/M on a terminal", async () => {
    const session = await startCliTest({ config: topics(40) });
    const run = session.onTerminal(["apply", "--auto-approve"]);
    expect(await run.exited).toBe(0);
    expect(run.output()).toContain("All changes: 40/40");
  });
});
