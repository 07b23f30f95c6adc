// Numeric flags of every command are checked at parse time (a whole number, in range) and a
// saved plan refuses --target: each bad invocation is a usage error naming the flag, exit 1,
// before any config, plan file or network is touched.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), "notiform-flags-"));
});
afterAll(async () => {
  await rm(cwd, { recursive: true, force: true });
});

const BAD: [string[], RegExp][] = [
  [["plan", "--concurrency", "abc"], /--concurrency "abc": expected a whole number from 1 to 256/],
  [["apply", "--concurrency", "0"], /--concurrency "0": expected a whole number from 1 to 256/],
  [["apply", "--concurrency", "2.5"], /--concurrency "2.5": expected a whole number/],
  [["export", "--concurrency", "-3"], /--concurrency "-3": expected a whole number/],
  [["whoami", "--concurrency="], /--concurrency needs a value/],
  [["whoami", "--concurrency", "0x10"], /--concurrency "0x10": expected a whole number/],
  [["plan", "--max-wait", "soon"], /--max-wait "soon": expected a whole number from 0 to 3600/],
  [["apply", "--max-wait", "99999"], /--max-wait "99999": expected a whole number from 0 to 3600/],
  [["emulator", "--port", "70000"], /--port "70000": expected a whole number from 0 to 65535/],
  [["emulator", "--latency", "-1"], /--latency "-1": expected a whole number/],
  [["emulator", "--jitter", "x"], /--jitter "x": expected a whole number/],
  [["emulator", "--error-rate", "2"], /--error-rate "2": expected a number from 0 to 1/],
  [["emulator", "--drop-rate", "NaN"], /--drop-rate "NaN": expected a number from 0 to 1/],
  [["emulator", "--lost-response-rate", "-0.5"], /--lost-response-rate "-0.5": expected a number/],
  [["emulator", "--rate-limit", "0"], /--rate-limit "0": expected a whole number from 1/],
  [["emulator", "--fault-seed", "1.5"], /--fault-seed "1.5": expected a whole number/],
];

describe("numeric flags", () => {
  it.each(BAD)("refuses %j with a usage error and exit 1", async (args, message) => {
    const result = await runCli(args, { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain("Run with --help for usage.");
    expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(result.stdout).toBe("");
  });

  it("documents --max-wait and the accepted ranges in --help", async () => {
    const result = await runCli(["plan", "--help"], { cwd });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/--max-wait/);
    expect(result.stdout).toMatch(/1-256/);
  });
});

const CHOICES: [string[], RegExp][] = [
  [["plan", "--output"], /--output needs a value/],
  [["validate", "-o"], /-o needs a value/],
  [["show", "plan.json", "--output="], /--output needs a value/],
  [["plan", "-o", "markdown", "-o", "markdown"], /--output is given more than once/],
  [["plan", "--output", "json", "--output", "markdown"], /--output is given more than once/],
  [["emulator", "--flavor"], /--flavor needs a value/],
  // yargs would read -5s as the flags -5 and -s ("Unknown arguments: 5, s").
  [
    ["apply", "--lock-timeout", "-5s"],
    /--lock-timeout -5s: a value that starts with "-" is written --lock-timeout=-5s/,
  ],
  [["emulator", "--flavor", "real", "--flavor", "spec"], /--flavor is given more than once/],
];

describe("flags of a few choices", () => {
  // An empty CI variable (`plan -o $FORMAT`) must not quietly switch the output to text.
  it.each(CHOICES)("refuses %j with a usage error and exit 1", async (args, message) => {
    const result = await runCli(args, { cwd });
    expect(result.code).toBe(1);
    // Where an earlier --output json was read, the error is that JSON on stdout.
    const said = `${result.stdout}${result.stderr}`;
    expect(said).toMatch(message);
    expect(said).not.toMatch(/internal error|\n\s+at /);
    expect(result.stdout).not.toMatch(/Target|Plan:/);
  });
});

describe("apply with a saved plan", () => {
  it("refuses --target: a saved plan is applied whole, as reviewed", async () => {
    const result = await runCli(["apply", "plan.json", "--target", "topic/x"], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/--target cannot be used with a saved plan/);
    expect(result.stdout).toBe("");
  });
});
