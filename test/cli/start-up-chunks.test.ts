// What every command compiles before it runs: the chunks main.js imports statically. The YAML
// parser and the config loader are not among them: a plan loads its config on a worker, and
// validate, export and the in-thread load import them when they run (about 17 ms of every
// start-up on the bench machine). Read from the bundle users run (dist/bundle, built by the
// suite's global set-up).
import { describe, expect, it } from "vitest";
import { bundleChunks } from "../support/bundle.js";

// Text of the yaml library's own parser, which notiform's code never spells.
const YAML_TEXT = "Nested mappings are not allowed in compact mappings";

/** main.js and every chunk it reaches through static imports. */
function staticClosure(text: ReadonlyMap<string, string>, entry: string): Set<string> {
  const seen = new Set([entry]);
  const queue = [entry];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    for (const match of (text.get(file) ?? "").matchAll(/^import\s[^;]*?from\s*"\.\/([^"]+)"/gm)) {
      const chunk = match[1] as string;
      if (!seen.has(chunk)) {
        seen.add(chunk);
        queue.push(chunk);
      }
    }
  }
  return seen;
}

describe("the CLI's start-up", () => {
  const { chunks, text } = bundleChunks();

  it("does not compile the YAML parser: it is reached from main.js only through import()", () => {
    const parser = chunks.filter((file) => text.get(file)?.includes(YAML_TEXT));
    expect(parser).toHaveLength(1);
    const closure = staticClosure(text, "main.js");
    expect(closure.size).toBeGreaterThan(1);
    expect([...closure].filter((file) => parser.includes(file))).toEqual([]);
  });
});
