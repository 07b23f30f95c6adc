// The engine loads only when something renders or checks a template: in the bundle users run,
// handlebars sits in a chunk of its own that the other chunks reach only through `import()`, so a
// command whose config holds no template (plan, apply, whoami) never reads it.
import { describe, expect, it } from "vitest";
import { bundleChunks } from "../support/bundle.js";

// Text of handlebars' own compiler, which notiform's code never spells.
const ENGINE_TEXT = "You must pass a string or Handlebars AST to Handlebars.precompile";

describe("the template engine in the bundle", () => {
  const { chunks, text } = bundleChunks();

  it("is one chunk, imported only dynamically", () => {
    const engine = chunks.filter((file) => text.get(file)?.includes(ENGINE_TEXT));
    expect(engine).toHaveLength(1);
    const [chunk] = engine;
    expect(["main.js", "load-worker.js"]).not.toContain(chunk);
    const staticImports = chunks.filter((file) => text.get(file)?.includes(`from "./${chunk}"`));
    expect(staticImports).toEqual([]);
    const dynamicImports = chunks.filter((file) => text.get(file)?.includes(`import("./${chunk}")`));
    expect(dynamicImports.length).toBeGreaterThan(0);
  });
});
