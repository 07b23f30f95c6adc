// SMS length as carriers count it, the offline template checks and the variables a template reads.
import { describe, expect, it } from "vitest";
import { loadRenderer, smsSegments } from "../../src/render/index.js";

const renderer = await loadRenderer();

describe("smsSegments", () => {
  it.each([
    ["", { encoding: "GSM-7", characters: 0, segments: 0 }],
    ["a".repeat(160), { encoding: "GSM-7", characters: 160, segments: 1 }],
    ["a".repeat(161), { encoding: "GSM-7", characters: 161, segments: 2 }],
    ["a".repeat(306), { encoding: "GSM-7", characters: 306, segments: 2 }],
    ["a".repeat(307), { encoding: "GSM-7", characters: 307, segments: 3 }],
    // An extension character takes two septets: 80 of them fill one message exactly.
    ["€".repeat(80), { encoding: "GSM-7", characters: 160, segments: 1 }],
    // ...and a part never splits one: 152 + € does not fit 153.
    [`${"a".repeat(152)}€${"a".repeat(10)}`, { encoding: "GSM-7", characters: 164, segments: 2 }],
    ["é".repeat(70), { encoding: "GSM-7", characters: 70, segments: 1 }],
    ["ç".repeat(70), { encoding: "UCS-2", characters: 70, segments: 1 }],
    ["ç".repeat(71), { encoding: "UCS-2", characters: 71, segments: 2 }],
    // An emoji is two UTF-16 units, and a part does not split it: 66 + 🚀 fills a part of 67 exactly.
    ["🚀".repeat(35), { encoding: "UCS-2", characters: 70, segments: 1 }],
    [`${"x".repeat(66)}🚀${"x".repeat(5)}`, { encoding: "UCS-2", characters: 73, segments: 2 }],
  ])("%s", (text, expected) => {
    expect(smsSegments(text)).toEqual(expected);
  });
});

describe("checkTemplate", () => {
  it("finds nothing wrong with the server's helpers, lookups and partial blocks", () => {
    expect(
      renderer.checkTemplate(
        "{{#each (sortBy items 'n')}}{{titlecase name}}{{/each}} {{unknown}} {{#section}}x{{/section}} {{nohelper x=1}} {{#> p}}f{{/p}} {{lookup map key}}",
      ),
    ).toEqual([]);
  });

  it("reports every unknown helper, partial and decorator, each at its position", () => {
    expect(
      renderer.checkTemplate(
        "{{upercase a}}\n  {{#ifCond a b}}x{{/ifCond}} {{> header}}\n{{json (fomat d)}} {{a.b c}}",
      ),
    ).toEqual([
      {
        severity: "error",
        rule: "template-helper",
        message: 'Missing helper: "upercase" (did you mean "uppercase"?)',
        pos: { line: 1, col: 3 },
      },
      {
        severity: "error",
        rule: "template-helper",
        message: 'Missing helper: "ifCond"',
        pos: { line: 2, col: 6 },
      },
      {
        severity: "error",
        rule: "template-partial",
        message:
          "The partial header could not be found: the server registers no partials (a partial block {{#> header}}…{{/header}} renders its fallback)",
        pos: { line: 2, col: 31 },
      },
      {
        severity: "error",
        rule: "template-helper",
        message: 'Missing helper: "fomat"',
        pos: { line: 3, col: 9 },
      },
      {
        severity: "error",
        rule: "template-helper",
        message: '"a.b" is called with arguments but is not a helper: a path cannot be called',
        pos: { line: 3, col: 22 },
      },
    ]);
  });

  it("reports an unknown helper where Handlebars never evaluates it: a hash key's later value, a block parameter's argument", () => {
    // A hash key given twice keeps its first value; the later one's code is never emitted, so
    // the template renders. Like a misspelt helper in an {{#if false}} branch, it is reported:
    // the checks read the text, not one render's path through it.
    const dropped = '{{titlecase x k="abc" k=(quals x)}}';
    expect(() => renderer.renderSms({ content: dropped }, { payload: { x: "a" } })).not.toThrow();
    expect(renderer.checkTemplate(dropped).map((p) => p.message)).toEqual([
      'Missing helper: "quals" (did you mean "equals"?)',
    ]);
    // A block parameter as the callee is a value: its arguments are never evaluated either.
    const value = "{{#with @root as |uppercase|}}{{uppercase (upercase x)}}{{/with}}";
    expect(() => renderer.renderSms({ content: value }, { payload: { x: "a" } })).not.toThrow();
    expect(renderer.checkTemplate(value).map((p) => p.message)).toEqual([
      'Missing helper: "upercase" (did you mean "uppercase"?)',
    ]);
    const first = '{{titlecase x k=(quals x) k="abc"}}';
    expect(() => renderer.renderSms({ content: first }, { payload: { x: "a" } })).toThrow(
      /Missing helper: "quals"/,
    );
  });

  it("reports a parse error alone, with the engine's message and where it stopped", () => {
    expect(renderer.checkTemplate("ok\n{{matrix.0.1}}")).toEqual([
      {
        severity: "error",
        rule: "template-parse",
        message: "Parse error on line 2:\nok{{matrix.0.1}}\n-----------^\nExpecting 'ID', got 'NUMBER'",
        pos: { line: 2, col: 10 },
      },
    ]);
  });
});

describe("templateVariables", () => {
  it("lists the payload paths a template reads, in first-use order, without helpers or names bound inside blocks", () => {
    expect(
      renderer.templateVariables(
        "{{uppercase customer.name}} {{#each items as |item|}}{{item.sku}}{{name}}{{../currency}}{{/each}} " +
          "{{#with address}}{{city}}{{/with}} {{#if vip}}{{vipNote}}{{/if}} {{#gt total 10}}{{big}}{{@root.label}}{{/gt}} " +
          "{{@index}} {{this}} {{numberFormat price decimalLength=digits}} {{#section}}{{x}}{{/section}} {{{raw}}}",
      ),
    ).toEqual([
      "customer.name",
      "items",
      "currency",
      "address",
      "address.city",
      "vip",
      "vipNote",
      "total",
      "label",
      "price",
      "digits",
      "section",
      "section.x",
      "raw",
    ]);
  });

  it("is empty for a template that does not parse", () => {
    expect(renderer.templateVariables("{{#if a}}")).toEqual([]);
  });
});

describe("checks of a text met again", () => {
  it("answer the same, whatever a caller did with the first answer", () => {
    const text = "{{nope a}} {{b.c}}";
    const problems = renderer.checkTemplate(text);
    const variables = renderer.templateVariables(text);
    expect(problems).toHaveLength(1);
    expect(variables).toEqual(["a", "b.c"]);
    problems.length = 0;
    variables.push("changed");
    expect(renderer.checkTemplate(text)).toHaveLength(1);
    expect(renderer.templateVariables(text)).toEqual(["a", "b.c"]);
  });
});
