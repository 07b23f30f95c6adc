// The README is part of the product: every command and flag it shows must exist in the CLI
// (checked against each command's --help), its two set-up commands must be the scripts that
// exist, and the test command must be exactly what CI runs.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./support/cli.js";

const ROOT = join(import.meta.dirname, "..");

async function readme(): Promise<string> {
  return readFile(join(ROOT, "README.md"), "utf8");
}

/** `notiform <command> ...` lines of the README's code blocks. */
function shownInvocations(text: string): { command: string; flags: string[] }[] {
  const blocks = [...text.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");
  const invocations: { command: string; flags: string[] }[] = [];
  for (const line of blocks.join("\n").split("\n")) {
    const match =
      /(?:^|\s)notiform (validate|plan|apply|promote|export|whoami|force-unlock|emulator)\b(.*)$/.exec(line);
    if (!match) continue;
    const rest = (match[2] ?? "").split("#")[0] ?? "";
    const flags = [...rest.matchAll(/--[a-z][a-z-]*/g)].map((m) => m[0]).filter((f) => f !== "--help");
    invocations.push({ command: match[1] ?? "", flags });
  }
  return invocations;
}

describe("README", () => {
  it("shows only commands and flags the CLI has", async () => {
    const invocations = shownInvocations(await readme());
    expect(invocations.length).toBeGreaterThan(8);
    const helps = new Map<string, string>();
    for (const { command, flags } of invocations) {
      if (!helps.has(command)) {
        const result = await runCli([command, "--help"], { cwd: ROOT });
        expect(result.code, `${command} --help`).toBe(0);
        helps.set(command, result.stdout);
      }
      for (const flag of flags) {
        const name = flag.replace(/^--no-/, "--");
        expect(helps.get(command), `notiform ${command} ${flag}`).toContain(name);
      }
    }
  });

  it("documents the common flags shown in the synopsis", async () => {
    const text = await readme();
    const common = /common: (.*(?:\n\s+--.*)*)/.exec(text)?.[1] ?? "";
    const flags = [...common.matchAll(/--[a-z][a-z-]*/g)].map((m) => m[0].replace(/^--no-/, "--"));
    expect(flags.length).toBeGreaterThan(6);
    const help = (await runCli(["plan", "--help"], { cwd: ROOT })).stdout;
    for (const flag of flags) expect(help, flag).toContain(flag);
  });

  it("installs notiform from a release, never by the unpublished bare name", async () => {
    const text = await readme();
    // Whoever claims the name on the registry would run code in the user's CI.
    expect(text).not.toMatch(/npx (?!--no )[^\n]*\bnotiform\b/);
    expect(text).not.toMatch(/npm (install|i) (-[gD] )*notiform(@|\s|$)/m);
    const version = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")).version;
    const installs = [...text.matchAll(/^npm install -D (\S+)/gm)].map((m) => m[1]);
    expect(installs).toEqual([
      `https://github.com/OWNER/notiform/releases/download/v${version}/notiform-${version}.tgz`,
      `./notiform/notiform-${version}.tgz`,
      `github:OWNER/notiform#v${version}`,
    ]);
  });

  it("names set-up commands that exist, and the test command CI runs", async () => {
    const text = await readme();
    expect(text).toContain("npm ci && npm run demo");
    expect(text).toContain("npm test");
    const pkg = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8"));
    expect(pkg.scripts.demo).toBeDefined();
    expect(pkg.scripts.test).toBeDefined();
    const ci = await readFile(join(ROOT, ".ci", "run"), "utf8");
    expect(ci).toMatch(/^npm ci\b/m);
    expect(ci).toMatch(/^npm test$/m);
  });
});
