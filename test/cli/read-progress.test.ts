// Read progress: on a terminal, plan shows pages read of each list while it reads (an emulator
// with latency, so reading takes many pages' time) and clears the line before the plan; piped
// (CI) or with --output json it prints nothing of it.
import { afterEach, describe, expect, it } from "vitest";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";
import { caller } from "../emulator/harness.js";
import { type PtyRun, runOnPty } from "../helpers/pty.js";
import { createWorkspace, runCli, SEED } from "../support/cli.js";

let emulator: EmulatorHandle | undefined;
let run: PtyRun | undefined;
afterEach(async () => {
  run?.child.stdin?.end();
  run = undefined;
  await emulator?.close();
  emulator = undefined;
});

const COUNT = 60;
const CONFIG = `version: 1\norganization: Acme Inc\ntopics:\n${Array.from(
  { length: COUNT },
  (_, i) => `  - key: t${i}\n    name: Topic ${i}\n`,
).join("")}`;

async function slowServerWithTopics(): Promise<EmulatorHandle> {
  const handle = await startEmulator({ seedFile: SEED, port: 0, latencyMs: 20 });
  const call = caller(handle.url, handle.apiKey);
  await Promise.all(
    Array.from({ length: COUNT }, (_, i) => call("POST", "/v1/topics", { key: `t${i}`, name: `Topic ${i}` })),
  );
  return handle;
}

describe("read progress", () => {
  it("on a terminal: pages read / total while reading, cleared before the plan", async () => {
    emulator = await slowServerWithTopics();
    const workspace = await createWorkspace({ "notiform.yaml": CONFIG });
    const pty = runOnPty(["plan", "--api-url", emulator.url], {
      cwd: workspace.dir,
      env: { NOTIFORM_API_KEY: emulator.apiKey },
    });
    run = pty;
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
    emulator = await slowServerWithTopics();
    const workspace = await createWorkspace({ "notiform.yaml": CONFIG });
    const env = { NOTIFORM_API_KEY: emulator.apiKey };
    const pty = runOnPty(["plan", "--output", "json", "--api-url", emulator.url], {
      cwd: workspace.dir,
      env,
    });
    run = pty;
    expect(await pty.exited).toBe(0);
    expect(pty.output()).toContain('"formatVersion"');
    expect(pty.output()).not.toContain("Reading");
    const piped = await runCli(["plan", "--api-url", emulator.url], { cwd: workspace.dir, env });
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout + piped.stderr).not.toContain("Reading");
  });
});
