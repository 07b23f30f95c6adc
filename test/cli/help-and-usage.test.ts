// --help of every command shows examples and, for those that talk to the API, the environment
// variables that matter (the key is never a flag, so help must say where it comes from); numeric
// flags say [number]; a mistyped flag is named as typed, with the nearest one, never as yargs'
// camelCase twin.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commands } from "../../src/cli/commands/index.js";
import { runCli } from "../support/cli.js";

const cwd = await mkdtemp(join(tmpdir(), "notiform-help-"));
const API_COMMANDS = ["plan", "apply", "promote", "export", "whoami", "resolve"];

describe("--help", () => {
  it.each(commands.map((c) => c.command.split(" ")[0] ?? ""))("%s shows examples", async (name) => {
    const result = await runCli([name, "--help"], { cwd });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Examples:");
    expect(result.stdout).toMatch(new RegExp(`\\n  notiform ${name}`));
    if (API_COMMANDS.includes(name)) {
      expect(result.stdout).toMatch(/Environment:\n {2}NOTIFORM_API_KEY {2,}the API key/);
      // resolve is offline: it reads the key (for keyed digests), never a URL.
      // A proxy and a private CA are part of reaching the API: a CI runner behind either finds
      // them here, not only in docs/networking.md.
      for (const name_ of ["NOTIFORM_API_URL", "HTTPS_PROXY", "NO_PROXY", "NODE_EXTRA_CA_CERTS"]) {
        if (name !== "resolve") expect(result.stdout).toContain(`\n  ${name_} `);
        else expect(result.stdout).not.toContain(name_);
      }
    }
  });

  it("names both schemas promote --output json follows: the preview's and the promotion's report", async () => {
    const help = (await runCli(["promote", "--help"], { cwd })).stdout.replace(/\s+/g, " ");
    expect(help).toContain("schemas/promotion.schema.json) with --detailed-exitcode or --out");
    expect(help).toContain("schemas/promotion-result.schema.json");
  });

  it("shows numeric flags as [number], still checked as typed", async () => {
    const help = await runCli(["plan", "--help"], { cwd });
    expect(help.stdout).toMatch(/--concurrency[^\n]*\n?[^\n]*\[number\] \[default: 8\]/);
    expect(help.stdout).not.toMatch(/--concurrency[^[]*\[string\]/);
    const bad = await runCli(["plan", "--concurrency", "0x10"], { cwd });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--concurrency "0x10": expected a whole number from 1 to 256');
  });
});

describe("--no-color", () => {
  it.each([["validate"], ["whoami"], ["export"]])("is accepted by %s, as by every command", async (name) => {
    const result = await runCli([name, "--no-color"], { cwd });
    expect(result.stderr).not.toContain("unknown option");
    expect(result.code).toBe(1); // no config / no key: the command ran
  });
});

describe("a mistyped flag", () => {
  it("is named as typed, with a did-you-mean", async () => {
    const result = await runCli(["plan", "--detaild-exitcode"], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("error: unknown option --detaild-exitcode\n");
    expect(result.stderr).toContain("hint: did you mean --detailed-exitcode?");
    expect(result.stderr).not.toContain("detaildExitcode");
  });

  it("names each of several, and the negated form as typed", async () => {
    const result = await runCli(["plan", "--tagret=topic/a", "--no-colr", "--frobnicate"], { cwd });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("error: unknown options --tagret, --no-colr, --frobnicate\n");
    expect(result.stderr).toContain(
      "hint: did you mean --target (for --tagret), --no-color (for --no-colr)?",
    );
    expect(result.stderr).not.toMatch(/noColr|frobnicate,/);
  });
});
