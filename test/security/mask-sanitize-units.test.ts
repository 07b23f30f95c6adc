// The pure pieces behind secret hygiene and server text, case by case: the masker's forms and
// credential pieces, the plan masker's old values, the sanitizer's escapes, markdown code spans
// and the export scrubber. The end-to-end tests in this directory run them over real HTTP.
import fc from "fast-check";
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

  it("takes a value holding a lone surrogate (no URL can spell it) and masks its other forms", () => {
    const odd = "secret-\ud800-value";
    const oddMasker = new Masker().add(odd);
    expect(oddMasker.mask(`<${odd}>`)).toBe(`<${MASK}>`);
    expect(oddMasker.mask(`<${JSON.stringify(odd).slice(1, -1)}>`)).toBe(`<${MASK}>`);
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
      bindings: { notificationGroups: {} },
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
      bindings: { notificationGroups: { billing: "g1" }, identifiers: { tenants: { [secret]: "t1" } } },
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
    // Keys too: a tenant keyed by ${VAR} is bound by its identifier.
    expect(JSON.stringify(masked)).not.toContain(secret);
    expect(JSON.stringify(masked)).toBe(before.replaceAll(secret, MASK));
    expect(JSON.stringify(plan)).toBe(before);
  });
});

describe("Masker.leavesUnchanged", () => {
  // maskPlan and maskAction return their input when this says so: it must never say so of a
  // value in which masking string by string would change anything.
  it("is true only of values that maskDeep leaves as they are, whatever the secrets hold", () => {
    const units = ["a", "b", "0", '"', "\\", "\n", "\u0001", "é", "\ud83d\ude00", "&", " ", "'", "%"];
    const secret = fc.string({ unit: fc.constantFrom(...units), minLength: 3, maxLength: 12 });
    // Values: lone surrogates too (no secret can hold one: the masker URL-encodes each).
    const text = fc.string({ unit: fc.constantFrom(...units, "\ud83d", "\ude00"), maxLength: 6 });
    fc.assert(
      fc.property(
        fc.array(secret, { maxLength: 2 }),
        fc.array(secret, { maxLength: 2 }),
        fc.jsonValue({ maxDepth: 2 }),
        fc.array(fc.tuple(text, fc.nat(), fc.nat(), text), { maxLength: 4 }),
        (secrets, credentials, base, parts) => {
          const masker = new Masker().addAll(secrets).addCredential(...credentials);
          const known = [...secrets, ...credentials, ""];
          // Strings that hold (a part of) a secret between other characters.
          const strings = parts.map(([before, which, from, after]) => {
            const held = known[which % known.length] ?? "";
            return `${before}${held.slice(from % (held.length + 1))}${after}`;
          });
          const v = { base, strings };
          if (masker.leavesUnchanged(v)) expect(JSON.stringify(maskDeep(v, masker))).toBe(JSON.stringify(v));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("finds a secret next to characters JSON escapes, and a secret that holds one", () => {
    const key = "nf_key_0123456789abcdef";
    const masker = new Masker().addCredential(key);
    expect(masker.leavesUnchanged({ a: ["x", `line\n${key}"quoted"`] })).toBe(false);
    expect(masker.leavesUnchanged({ a: ["x", `\t${key.slice(3, 12)}\u0000`] })).toBe(false);
    expect(masker.leavesUnchanged({ a: ["x", "nothing here"], n: 1 })).toBe(true);
    const quoted = new Masker().add('pass"word\\x');
    expect(quoted.leavesUnchanged({ a: "nothing here" })).toBe(false);
  });

  it("leaves maskPlan's output as masking every string gives it", () => {
    const key = "nf_key_0123456789abcdef";
    const masker = new Masker().addCredential(key).add("env-value-1");
    const clean = {
      formatVersion: 4,
      bindings: { notificationGroups: {} },
      actions: [{ id: "topic/a", changes: [{ field: "name", old: "A\n", new: 'B "b"' }], dependsOn: [] }],
      warnings: [],
    } as unknown as Plan;
    expect(maskPlan(clean, masker)).toEqual(clean);
    const dirty = {
      ...clean,
      actions: [
        ...clean.actions,
        {
          id: "topic/b",
          changes: [{ field: "name", old: "x", new: `"\n${key.slice(0, 10)}` }],
          dependsOn: [],
        },
      ],
    } as unknown as Plan;
    expect(JSON.stringify(maskPlan(dirty, masker))).toBe(
      JSON.stringify({
        ...clean,
        actions: [
          ...clean.actions,
          { id: "topic/b", changes: [{ field: "name", old: MASK, new: `"\n${MASK}` }], dependsOn: [] },
        ],
      }),
    );
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
