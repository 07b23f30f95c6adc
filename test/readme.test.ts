// The README is what a newcomer reads; docs/ holds the reference. Both are part of the product:
// every command and flag their code blocks show exists in the CLI (checked against each
// command's --help) and docs/commands.md's synopsis shows every flag a --help lists, every
// relative link resolves (to a file, and to a heading when it names one), no line is absurdly long, the README stays short and links every page of docs/, its
// Security section stays a small delimited block, its install lines name no placeholder, its
// set-up commands are the scripts that exist, and its test command is exactly what CI runs.
// (test/package/ runs the install lines themselves.)
import { readdir, readFile, stat } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./support/cli.js";

const ROOT = join(import.meta.dirname, "..");
const DOCS = join(ROOT, "docs");

const read = (path: string) => readFile(path, "utf8");
const readme = () => read(join(ROOT, "README.md"));

/** README.md and every page of docs/, by path. */
async function pages(): Promise<Map<string, string>> {
  const files = [join(ROOT, "README.md")];
  for (const name of (await readdir(DOCS)).sort()) if (name.endsWith(".md")) files.push(join(DOCS, name));
  return new Map(await Promise.all(files.map(async (f) => [f, await read(f)] as const)));
}

/** The commands `notiform --help` lists. */
let commands: string[] = [];
beforeAll(async () => {
  const help = await runCli(["--help"], { cwd: ROOT });
  commands = [...help.stdout.matchAll(/^ {2}notiform ([a-z-]+)/gm)].map((m) => m[1] ?? "");
});

/** `notiform <command> ...` lines of a page's code blocks, with the flags each shows. */
function shownInvocations(text: string): { command: string; flags: string[]; line: string }[] {
  const blocks = [...text.matchAll(/^```[a-z]*\n([\s\S]*?)^```/gm)].map((m) => m[1] ?? "");
  const invocations: { command: string; flags: string[]; line: string }[] = [];
  for (const line of blocks.join("\n").split("\n")) {
    // A command line: `notiform CMD`, after variables set for it or `npx --no --`.
    const match = /^\s*(?:\w+=\S* )*(?:npx --no -- )?notiform ([a-z][a-z-]*)\b(.*)$/.exec(line);
    if (!match) continue;
    const rest = (match[2] ?? "").split("#")[0] ?? "";
    const flags = [...rest.matchAll(/--[a-z][a-z-]*/g)].map((m) => m[0]).filter((f) => f !== "--help");
    invocations.push({ command: match[1] ?? "", flags, line });
  }
  return invocations;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function slugOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

describe("README and docs/", () => {
  it("show only commands and flags the CLI has", async () => {
    expect(commands).toContain("plan");
    const helps = new Map<string, string>();
    let shown = 0;
    for (const [file, text] of await pages()) {
      for (const { command, flags, line } of shownInvocations(text)) {
        const where = `${relative(ROOT, file)}: ${line.trim()}`;
        expect(commands, where).toContain(command);
        if (!helps.has(command))
          helps.set(command, (await runCli([command, "--help"], { cwd: ROOT })).stdout);
        for (const flag of flags) expect(helps.get(command), where).toContain(flag.replace(/^--no-/, "--"));
        shown += 1;
      }
    }
    expect(shown).toBeGreaterThan(12);
  });

  it("link only to files and headings that exist", async () => {
    const all = await pages();
    let checked = 0;
    for (const [file, text] of all) {
      for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = match[1] ?? "";
        if (/^[a-z]+:/.test(target)) continue; // https:, mailto: (never fetched: loopback only)
        const [path = "", anchor] = target.split("#");
        const resolved = path === "" ? file : join(dirname(file), path);
        const where = `${relative(ROOT, file)} -> ${target}`;
        await expect(stat(resolved), where).resolves.toBeDefined();
        if (anchor !== undefined) {
          const headings = [...(await read(resolved)).matchAll(/^#+ (.+)$/gm)].map((m) => slugOf(m[1] ?? ""));
          expect(headings, where).toContain(anchor);
        }
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it("have no absurdly long line (the README none a terminal wraps)", async () => {
    for (const [file, text] of await pages()) {
      const limit = file.endsWith("README.md") ? 120 : 300;
      text.split("\n").forEach((line, n) => {
        expect(line.length, `${relative(ROOT, file)}:${n + 1}`).toBeLessThanOrEqual(limit);
      });
    }
  });

  it("documents in docs/commands.md every common flag its synopsis shows", async () => {
    const text = await read(join(DOCS, "commands.md"));
    const common = /common: (.*(?:\n\s+--.*)*)/.exec(text)?.[1] ?? "";
    const flags = [...common.matchAll(/--[a-z][a-z-]*/g)].map((m) => m[0].replace(/^--no-/, "--"));
    expect(flags.length).toBeGreaterThan(6);
    const help = (await runCli(["plan", "--help"], { cwd: ROOT })).stdout;
    for (const flag of flags) expect(help, flag).toContain(flag);
  });

  it("shows in docs/commands.md's synopsis every flag each command's --help lists", async () => {
    const text = await read(join(DOCS, "commands.md"));
    const synopsis = /^```\n([\s\S]*?)^```/m.exec(text)?.[1] ?? "";
    const common = /common: (.*(?:\n\s+--.*)*)/.exec(synopsis)?.[1] ?? "";
    // A command's lines: `notiform CMD ...` and the indented lines that continue it.
    const linesOf = (command: string) =>
      (new RegExp(`^notiform ${command}\\b.*(?:\\n {8,}.*)*`, "m").exec(synopsis)?.[0] ?? "").replace(
        /\n\s+common:[\s\S]*/,
        "",
      );
    // The emulator's synopsis ends with "...": docs/emulator.md tables every flag of it.
    const emulatorDoc = await read(join(DOCS, "emulator.md"));
    for (const command of commands) {
      const help = (await runCli([command, "--help"], { cwd: ROOT })).stdout;
      const options = help.slice(
        help.indexOf("Options:"),
        help.search(/\n(Examples|Environment|Seed file):/),
      );
      const flags = [...options.matchAll(/^ +(?:-\w, )?(--[a-z][a-z-]*)/gm)].map((m) => m[1] ?? "");
      const shown = `${command === "emulator" ? emulatorDoc : linesOf(command)}\n${common}`;
      for (const flag of flags) {
        if (["--help", "--version", "--color"].includes(flag)) continue;
        expect(shown, `notiform ${command} ${flag}`).toContain(flag);
      }
    }
  });
});

describe("pointers from the source", () => {
  it("name pages that exist, and sections those pages have", async () => {
    // A comment like `(docs/commands.md, "Exit codes")` sends a reader there: a section that
    // moved (the README's CLI contract went to docs/commands.md) must be pointed at anew.
    const sources = (await readdir(join(ROOT, "src"), { recursive: true })).filter((f) => f.endsWith(".ts"));
    const pointers: string[] = [];
    for (const file of sources) {
      const text = await read(join(ROOT, "src", file));
      for (const m of text.matchAll(/(?<![\w/.-])(README|docs\/[\w-]+\.md),? "([^"]+)"/g)) {
        const page = await read(join(ROOT, m[1] === "README" ? "README.md" : (m[1] ?? "")));
        const headings = [...page.matchAll(/^#+ (.+)$/gm)].map((h) => h[1]);
        expect(headings, `src/${file}: ${m[0]}`).toContain(m[2]);
        pointers.push(m[0]);
      }
    }
    expect(pointers).toContain('docs/commands.md, "Exit codes"');
  });
});

describe("README", () => {
  it("stays what a newcomer reads, and links every page of docs/", async () => {
    const text = await readme();
    expect(text.split("\n").length).toBeLessThan(150);
    const sections = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    for (const name of ["Quick start (two commands)", "Install", "CI", "Security", "Documentation"])
      expect(sections).toContain(name);
    for (const name of await readdir(DOCS))
      if (name.endsWith(".md")) expect(text, name).toContain(`](docs/${name})`);
  });

  it("keeps Security a small delimited section that links docs/security.md", async () => {
    const text = await readme();
    const block = /<!-- security-section:start[^>]*-->\n([\s\S]*?)<!-- security-section:end -->/.exec(
      text,
    )?.[1];
    expect(block).toBeDefined();
    expect(block?.split("\n").length).toBeLessThanOrEqual(15);
    expect(block).toContain("(docs/security.md)");
  });

  it("installs notiform from a release tag, never by the unpublished bare name", async () => {
    const text = await readme();
    // Whoever claims the name on the registry would run code in the user's CI; and
    // `npx --no notiform --help` runs npm's help (`--no` takes `notiform` as its value).
    for (const [file, page] of await pages()) {
      expect(page, relative(ROOT, file)).not.toMatch(/npx (?!--no -- )[^\n]*\bnotiform\b/);
      expect(page, relative(ROOT, file)).not.toMatch(/npm (install|i) (-[gD] )*notiform(@|\s|$)/m);
    }
    // No placeholder a user would paste: the repository comes from a variable they set, and the
    // line fails, naming it, when it is not set (test/package/ runs these lines).
    expect(text).not.toMatch(/OWNER|<owner>|your-org/i);
    const version = JSON.parse(await read(join(ROOT, "package.json"))).version;
    const installs = [...text.matchAll(/^npm install -D (.+)$/gm)].map((m) => m[1]);
    expect(installs).toEqual([
      `"git+\${NOTIFORM_REPO:?set it to the notiform git URL}#v${version}"`,
      `./notiform-${version}.tgz`,
    ]);
  });

  it("names set-up commands that exist, and the test command CI runs", async () => {
    const text = await readme();
    expect(text).toContain("npm ci && npm run demo");
    expect(text).toContain("npm test");
    const pkg = JSON.parse(await read(join(ROOT, "package.json")));
    expect(pkg.scripts.demo).toBeDefined();
    expect(pkg.scripts.test).toBeDefined();
    const ci = await read(join(ROOT, ".ci", "run"));
    expect(ci).toMatch(/^npm ci\b/m);
    expect(ci).toMatch(/^npm test$/m);
  });
});
