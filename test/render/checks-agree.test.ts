// The disagreements between the offline render checks (renderer.checkTemplate, run by validate,
// plan and apply) and the renderer, each reduced to a minimal template and payload, with which
// side Handlebars 4.7 (the server's engine) proves right.
import { describe, expect, it } from "vitest";
import { loadRenderer, RenderError } from "../../src/render/index.js";

const renderer = await loadRenderer();

/** The checks' errors, as `line:col message`. */
function errorsOf(template: string): string[] {
  return renderer
    .checkTemplate(template)
    .filter((p) => p.severity === "error")
    .map((p) => `${p.pos?.line}:${p.pos?.col} ${p.message}`);
}

/** The renderer's answer: the text, or the RenderError's message. */
function rendered(template: string, payload: Record<string, unknown> = {}): string {
  try {
    return renderer.renderSms({ content: template }, { payload }).content;
  } catch (error) {
    if (error instanceof RenderError) return `RenderError: ${error.message}`;
    throw error;
  }
}

describe("disagreements found by the generative agreement test", () => {
  it("a block parameter is a value, even given arguments, and only inside its block's body", () => {
    // The compiler binds `as |item|` lexically (classifySexpr: a block param is never a call):
    // `{{item x}}` prints the item, `{{#item 1}}` is a section over it.
    const inside = "{{#each items as |item|}}{{item x}}{{#item 1}}!{{/item}}{{/each}}";
    expect(rendered(inside, { items: [1, 2] })).toBe("1!2!");
    expect(errorsOf(inside)).toEqual([]);
    // After the block (or in its {{else}}) the name is the helper again: a bare call that fails.
    const after = "{{#each items as |uppercase|}}{{/each}}{{uppercase}}";
    expect(rendered(after, { items: [1] })).toBe("RenderError: value.toUpperCase is not a function");
    expect(errorsOf(after)).toEqual([
      '1:42 "uppercase" is a helper, called here with no arguments, which fails every render: value.toUpperCase is not a function',
    ]);
    const inElse = "{{#each items as |a|}}{{else}}{{a y}}{{/each}}";
    expect(rendered(inElse)).toBe('RenderError: Missing helper: "a"');
    expect(errorsOf(inElse)).toEqual(['1:33 Missing helper: "a" (did you mean "gt"?)']);
  });

  it("a path whose first part is a built-in, called, calls that built-in; a literal callee is a name", () => {
    // helperSexpr looks `path.parts[0]` up in the compiler's known helpers: `this.if`, `../lookup`
    // and `lookup.x` are the built-ins; the checks refused them as paths that cannot be called.
    expect(rendered('{{this.lookup a "b"}}|{{#this.if x}}yes{{/this.if}}', { a: { b: "B" }, x: 1 })).toBe(
      "B|yes",
    );
    expect(errorsOf('{{this.lookup a "b"}}|{{#this.if x}}yes{{/this.if}}')).toEqual([]);
    // ... and a hook reached that way fails every render, with a hash alone too.
    expect(rendered("{{this.helperMissing k=1}}")).toBe(
      "RenderError: Cannot read properties of undefined (reading 'call')",
    );
    expect(errorsOf("{{this.helperMissing k=1}}")).toEqual([
      "1:3 \"helperMissing\" is Handlebars' own hook, not a helper a template can call, which fails every render: Cannot read properties of undefined (reading 'call')",
    ]);
    // transformLiteralToPath: `{{"foo" x}}` calls `foo` (and `{{"uppercase" x}}` the helper).
    expect(rendered('{{"uppercase" x}}', { x: "a" })).toBe("A");
    expect(rendered('{{"foo" x}}')).toBe('RenderError: Missing helper: "foo"');
    expect(rendered("{{true x}}")).toBe('RenderError: Missing helper: "true"');
    expect(errorsOf('{{"uppercase" x}}{{"foo" x}}{{true x}}{{uppercase ("lookup")}}')).toEqual([
      '1:20 Missing helper: "foo"',
      '1:31 Missing helper: "true"',
      "1:52 \"lookup\" is a helper, called here with no arguments, which fails every render: Cannot read properties of undefined (reading 'lookupProperty')",
    ]);
  });

  it("the inline decorator is Handlebars' own: the partial it defines is found in its program", () => {
    // Every Handlebars environment registers `inline`; the server's engine too. The partial it
    // defines serves its program (and the blocks inside) from the start: the checks refused
    // both the decorator and the partial.
    const template = '{{> p}}{{#each items}}{{> p}}{{/each}}{{#*inline "p"}}[{{@root.n}}]{{/inline}}';
    expect(rendered(template, { n: 1, items: [0] })).toBe("[1][1]");
    expect(errorsOf(template)).toEqual([]);
    // Defined inside a block, it is gone once the block is done: that partial still fails.
    const scoped = '{{#if n}}{{#*inline "p"}}x{{/inline}}{{/if}}{{> p}}';
    expect(rendered(scoped, { n: 1 })).toBe("RenderError: The partial p could not be found");
    expect(errorsOf(scoped)).toEqual([
      "1:45 The partial p could not be found: the server registers no partials (a partial block {{#> p}}…{{/p}} renders its fallback)",
    ]);
  });
});
