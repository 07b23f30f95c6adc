// The bad-input corpus: every directory under test/fixtures/invalid/ holds a config that must be
// refused, and expected.json lists exactly the problems (message, file, line, column) the user
// must see. Nothing partial is returned: loadConfig throws a ConfigError carrying all of them.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/errors.js";
import { loadConfig } from "../../src/loader/index.js";

const ROOT = join(import.meta.dirname, "..", "fixtures", "invalid");

interface Expected {
  args?: string[];
  env?: Record<string, string>;
  problems: { file: string; line: number; col: number; severity: string; message: string }[];
}

const cases = readdirSync(ROOT).sort();

describe("invalid configs", () => {
  it("has at least 40 cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });

  it.each(cases)("%s", async (name) => {
    const dir = join(ROOT, name);
    const expected = JSON.parse(readFileSync(join(dir, "expected.json"), "utf8")) as Expected;
    const env = expected.args?.[0] === "--env" ? expected.args[1] : undefined;
    const error = await loadConfig({
      cwd: dir,
      vars: expected.env ?? {},
      ...(env !== undefined ? { env } : {}),
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.map((p) => ({
      file: p.pos.file,
      line: p.pos.line,
      col: p.pos.col,
      severity: p.severity,
      message: p.message,
    }));
    expect(problems).toEqual(expected.problems);
  });
});
