// The pure pieces behind secret hygiene and server text, case by case: the masker's forms and
// credential pieces, the plan masker's old values, the sanitizer's escapes, markdown code spans
// and the export scrubber. The end-to-end tests in this directory run them over real HTTP.
import { describe, expect, it } from "vitest";
import { scrubExport, variablesOf } from "../../src/export-secrets.js";
import { MASK, Masker, maskDeep } from "../../src/mask.js";
import { maskPlan } from "../../src/plan/mask-plan.js";
import type { Plan } from "../../src/plan/model.js";
import { markdownCode, markdownText, terminalText, visibleText } from "../../src/sanitize.js";

describe("Masker", () => {
  const value = 'say "hi"\tto ü/&';
  const masker = new Masker().add(value).addCredential("nf_key_0123456789abcdef");

  it("masks a value raw, JSON-escaped, \\u-escaped, URL-encoded, HTML-escaped and YAML-quoted", () => {
    for (const form of [
      value,
      JSON.stringify(value).slice(1, -1),
      JSON.stringify(value).slice(1, -1).replace("ü", "\\u00fc"),
      encodeURIComponent(value),
      "say &quot;hi&quot;\tto ü/&amp;",
    ])
      expect(masker.mask(`<${form}>`), form).toBe(`<${MASK}>`);
  });

  it("masks any run of 8 or more characters of a credential, whole", () => {
    expect(masker.mask("key nf_key_0123 is bad")).toBe(`key ${MASK} is bad`);
    expect(masker.mask("…0123456789abcdef.")).toBe(`…${MASK}.`);
    expect(masker.mask("short: _0123 stays")).toBe("short: _0123 stays");
  });
});

describe("maskDeep", () => {
  const masker = new Masker().add("hunter2-secret");

  it("copies only what holds a secret: the rest is the input itself, and the input is unchanged", () => {
    const clean = { name: "A", steps: [{ body: "hello" }], n: 1 };
    expect(maskDeep(clean, masker)).toBe(clean);
    const input = {
      keep: { deep: ["x", { y: "z" }] },
      list: ["a", "pw hunter2-secret", "c"],
      nested: { first: 1, token: "hunter2-secret" },
    };
    const before = JSON.stringify(input);
    const masked = maskDeep(input, masker);
    expect(masked).toEqual({
      keep: { deep: ["x", { y: "z" }] },
      list: ["a", `pw ${MASK}`, "c"],
      nested: { first: 1, token: MASK },
    });
    expect(masked.keep).toBe(input.keep);
    expect(masked.list).not.toBe(input.list);
    expect(masked.nested).not.toBe(input.nested);
    expect(JSON.stringify(input)).toBe(before);
  });
});

describe("maskPlan", () => {
  it("masks the old value of a field whose new value holds a secret, and leaves others", () => {
    const plan = {
      actions: [
        {
          id: "workflow/w",
          changes: [
            { field: "description", old: "previous-secret", new: "promo-secret-value" },
            { field: "name", old: "Old", new: "New" },
          ],
        },
      ],
    } as unknown as Plan;
    const masked = maskPlan(plan, new Masker().add("promo-secret-value"));
    expect(masked.actions[0]?.changes).toEqual([
      { field: "description", old: MASK, new: MASK },
      { field: "name", old: "Old", new: "New" },
    ]);
  });

  it("masks a secret anywhere in the plan and its actions, keeping every key in its place", () => {
    const secret = "promo-secret-value";
    const plan = {
      formatVersion: 4,
      target: { organization: `org ${secret}` },
      actions: [
        {
          id: "workflow/w",
          changes: [{ field: "description", new: secret }],
          requests: [{ method: "PUT", path: "/v1/workflows/w", body: { description: secret } }],
          reason: `because ${secret}`,
          dependsOn: [],
        },
      ],
      warnings: [{ message: `saw ${secret}` }],
    } as unknown as Plan;
    const before = JSON.stringify(plan);
    const masked = maskPlan(plan, new Masker().add(secret));
    expect(JSON.stringify(masked)).not.toContain(secret);
    expect(JSON.stringify(masked)).toBe(before.replaceAll(secret, MASK));
    expect(JSON.stringify(plan)).toBe(before);
  });
});

describe("sanitizer", () => {
  it("makes control characters, escape sequences and bidi controls visible", () => {
    expect(visibleText("a\r\u001b[2Jb\u202ec\u009bd\ne")).toBe("a\\r\\u001b[2Jb\\u202ec\\u009bd\\ne");
  });

  it("keeps line breaks on the terminal, and notiform's own colours only when colour is on", () => {
    expect(terminalText("\u001b[32m+ x\u001b[0m\n\u001b[2J", true)).toBe(
      "\u001b[32m+ x\u001b[0m\n\\u001b[2J",
    );
    expect(terminalText("\u001b[32m+ x\n", false)).toBe("\\u001b[32m+ x\n");
  });

  it("escapes HTML and markup in markdown text", () => {
    expect(markdownText("<img src=x> *b* [l](u)")).toBe("\\<img src\\=x\\> \\*b\\* \\[l\\]\\(u\\)");
  });

  it("shows a value exactly in a code span, backticks and pipes included", () => {
    expect(markdownCode("a`b|c")).toBe("``a`b\\|c``");
    expect(markdownCode("`x`")).toBe("`` `x` ``");
    expect(markdownCode("``")).toBe("``` `` ```");
  });
});

describe("scrubExport", () => {
  it("writes credentials as REDACTED with a warning, environment values as references, a literal ${ as $${", () => {
    const files = new Map([
      [
        "topics.yaml",
        {
          topics: [
            { key: "a", name: "has nf_key_0123456789abcdef in it" },
            { key: "b", name: `Promo Value and \${HOME}` },
          ],
        },
      ],
    ]);
    const result = scrubExport(files, {
      credentials: [{ label: "the API key (NOTIFORM_API_KEY)", value: "nf_key_0123456789abcdef" }],
      variables: variablesOf(["Promo Value"], { PROMO: "Promo Value", OTHER: "x" }),
    });
    expect(result.files.get("topics.yaml")).toEqual({
      topics: [
        { key: "a", name: "has REDACTED in it" },
        { key: "b", name: `\${PROMO} and $\${HOME}` },
      ],
    });
    expect(result.warnings).toEqual([
      "topics.yaml: topics[0].name held the API key (NOTIFORM_API_KEY); written as REDACTED (fix it on the server or by hand)",
    ]);
    expect(result.references).toBe(1);
  });
});
