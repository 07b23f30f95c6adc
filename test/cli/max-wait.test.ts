// --max-wait reaches the client: a plan whose server asks (429 Retry-After) for longer than the
// allowed wait fails at once, exit 1, naming the request, the wait and the flag; no time passes
// waiting (the emulator's scripted fault answers 429 with the Retry-After).
import { describe, expect, it } from "vitest";
import { ACME_BASE, cliTests } from "../support/cli.js";

const cliTest = cliTests();

describe("--max-wait", () => {
  it.each([
    [[], 999_999, "60 s allowed"],
    [["--max-wait", "30"], 45, "30 s allowed"],
  ] as [string[], number, string][])(
    "plan %j with Retry-After %d fails clearly instead of waiting",
    async (flags, retryAfter, allowed) => {
      const session = await cliTest({ config: ACME_BASE });
      const { emulator } = session;
      emulator.injectFault({ method: "GET", path: "/v1/topics*", kind: { status: 429, retryAfter } });
      const result = await session.cli("plan", ...flags);
      expect(result.code).toBe(1);
      // The topic list's 429 is reported by whichever request meets the hold first: the list itself,
      // or a read started beside it (reads begin while the config loads).
      const said =
        /GET (\S+?)(?: \([^)]*\))?:? ?(?:429 )?the server asked to wait ([\d.]+) s \((Retry-After|429 from the server)\), longer than the (\d+ s allowed)/.exec(
          result.stderr,
        );
      expect(said, result.stderr).not.toBeNull();
      expect(Math.abs(Number(said?.[2]) - retryAfter)).toBeLessThan(2);
      expect(said?.[4]).toBe(allowed);
      expect(result.stderr).toContain("--max-wait SECONDS");
      expect(result.stderr).not.toMatch(/\n\s+at /);
      // One request to the topic list: no retry was attempted.
      expect(emulator.requests.filter((r) => r.path.startsWith("/v1/topics"))).toHaveLength(1);
    },
  );
});

describe("Ctrl-C during a server-requested wait", () => {
  it("apply ends at the second Ctrl-C instead of sitting out a 50 s Retry-After", async () => {
    const session = await cliTest({ config: ACME_BASE });
    const handle = session.emulator;
    handle.injectFault({
      method: "POST",
      path: "/v1/topics",
      times: 1,
      kind: { status: 429, retryAfter: 50 },
    });
    let signals = 0;
    const result = await session.run(["apply", "--auto-approve", "--concurrency", "1"], {
      onSpawn: (child) => {
        // First Ctrl-C once the 429 was answered (the client is then waiting); the second once
        // the first was acknowledged. Without an abortable wait the run would last 50 s more and
        // the test would time out.
        const timer = setInterval(() => {
          if (signals === 0 && handle.requests.some((r) => r.status === 429)) {
            signals = 1;
            child.kill("SIGINT");
          }
        }, 5);
        child.stderr?.on("data", (chunk: Buffer) => {
          if (signals === 1 && chunk.toString().includes("Stopping")) {
            signals = 2;
            child.kill("SIGINT");
          }
        });
        child.on("close", () => clearInterval(timer));
      },
    });
    expect(signals, result.stdout + result.stderr).toBe(2);
    expect(result.code).toBe(130);
    expect(handle.requests.filter((r) => r.method === "POST" && r.path === "/v1/topics")).toHaveLength(1);
  });
});
