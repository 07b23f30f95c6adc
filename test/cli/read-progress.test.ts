// Read progress: on a terminal, plan shows pages read of each list while it reads (an emulator
// with latency, so reading takes many pages' time) and clears the line before the plan; piped
// (CI) or with --output json it prints nothing of it.
import { describe, expect, it } from "vitest";
import { cliTests } from "../support/cli.js";

const cliTest = cliTests();

const COUNT = 60;
const CONFIG = `version: 1\norganization: Acme Inc\ntopics:\n${Array.from(
  { length: COUNT },
  (_, i) => `  - key: t${i}\n    name: Topic ${i}\n`,
).join("")}`;

async function slowServerWithTopics() {
  const test = await cliTest({ config: CONFIG, latencyMs: 20 });
  await Promise.all(
    Array.from({ length: COUNT }, (_, i) =>
      test.call("POST", "/v1/topics", { key: `t${i}`, name: `Topic ${i}` }),
    ),
  );
  return test;
}

describe("read progress", () => {
  it("on a terminal: pages read / total while reading, cleared before the plan", async () => {
    const { onTerminal } = await slowServerWithTopics();
    const pty = onTerminal(["plan"]);
    expect(await pty.exited).toBe(0);
    const output = pty.output();
    const pages = [...output.matchAll(/Reading [^\r\n]*?topics (\d+)\/(\d+) pages/g)];
    expect(pages.length).toBeGreaterThan(1);
    const last = pages[pages.length - 1];
    expect(last?.[1]).toBe(last?.[2]);
    expect(Number(last?.[2])).toBeGreaterThanOrEqual(COUNT / 10);
    // The line is cleared before the plan is printed.
    const plan = output.indexOf("Plan:");
    expect(output.lastIndexOf("\r\u001b[2K", plan)).toBeGreaterThan(output.lastIndexOf("Reading", plan));
  });

  it("nothing with --output json on a terminal, nothing when piped (CI)", async () => {
    const { onTerminal, cli } = await slowServerWithTopics();
    const pty = onTerminal(["plan", "--output", "json"]);
    expect(await pty.exited).toBe(0);
    expect(pty.output()).toContain('"formatVersion"');
    expect(pty.output()).not.toContain("Reading");
    const piped = await cli("plan");
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout + piped.stderr).not.toContain("Reading");
  });
});
