// What the reviewer sees is what apply sends: the cases the generative hunt
// (visible-changes.property.test.ts) found, each as the example it shrank to. A change that only
// differs invisibly must still show, in the text plan and in the markdown comment alike.
import { describe, expect, it } from "vitest";
import type { FieldChange, PlanAction } from "../../src/kinds/plan-action.js";
import { stepField } from "../../src/kinds/workflow/steps-canonical.js";
import { renderPlanMarkdown } from "../../src/plan/render-markdown.js";
import { renderPlanText } from "../../src/plan/render-text.js";
import { markdownCode, terminalText, visibleLine, visibleText } from "../../src/sanitize.js";
import { planOf, updateAction } from "../helpers/builders.js";

function rendered(change: FieldChange, kind: PlanAction["kind"] = "layout") {
  const plan = planOf([updateAction([change], kind, "brand")]);
  return {
    text: renderPlanText(plan, { color: false, verbose: false }),
    markdown: renderPlanMarkdown(plan),
  };
}

const LONG = "x".repeat(100);

describe("a long text's diff shows a change that is only its final newline", () => {
  it.each([
    ["added", `<p>\n${LONG}</p>`, `<p>\n${LONG}</p>\n`],
    ["removed", `<p>\n${LONG}</p>\n`, `<p>\n${LONG}</p>`],
  ])("final newline %s", (_name, old, next) => {
    const { text, markdown } = rendered({ field: "content", old, new: next });
    expect(text).toContain(`        -${LONG}</p>\n`);
    expect(text).toContain(`        +${LONG}</p>\n`);
    expect(text).toContain("\\ No newline at end of file");
    expect(markdown).toContain("\\ No newline at end of file");
  });

  it("texts that both lack a final newline still diff without the marker", () => {
    const { text } = rendered({ field: "content", old: `<p>\n${LONG}</p>`, new: `<p>\n${LONG}!</p>` });
    expect(text).toContain(`        +${LONG}!</p>\n`);
    expect(text).not.toContain("No newline");
  });
});

describe("a step's text and data that print as the same lines", () => {
  it("says which side is text and which is data", () => {
    const data = { body: "x".repeat(90) };
    const change = { field: stepField("wait", "metadata"), old: JSON.stringify(data, null, 2), new: data };
    const { text, markdown } = rendered(change, "workflow");
    expect(text).toContain("      step wait  metadata: changed from text to data, 3 lines\n");
    expect(markdown).toContain("`step wait  metadata: changed from text to data, 3 lines`");
    const back = rendered({ ...change, old: data, new: change.old }, "workflow");
    expect(back.text).toContain("metadata: changed from data to text, 3 lines\n");
  });
});

describe("a diff line shows what a screen would not", () => {
  it("a trailing blank: the line's last space shows as \\u0020", () => {
    const { text, markdown } = rendered({
      field: "content",
      old: `<p>\n${LONG}\n</p>`,
      new: `<p>\n${LONG} \n</p>`,
    });
    expect(text).toContain(`        -${LONG}\n        +${LONG}\\u0020\n`);
    expect(markdown).toContain(`\n+${LONG}\\u0020\n`);
  });

  it.each([
    ["a tab and a literal \\t", "\t", "\\t", "\\t", "\\\\t"],
    ["a CR and a literal \\r", "\r", "\\r", "\\r", "\\\\r"],
    ["a zero-width space and a literal \\u200b", "\u200b", "\\u200b", "\\u200b", "\\\\u200b"],
    ["a final space and a literal \\u0020", " ", "\\u0020", "\\u0020", "\\\\u0020"],
  ])("%s read differently", (_name, char, literal, charShown, literalShown) => {
    const { text } = rendered({
      field: "content",
      old: `<p>\n${LONG}${char}\n</p>`,
      new: `<p>\n${LONG}${literal}\n</p>`,
    });
    expect(text).toContain(`        -${LONG}${charShown}\n        +${LONG}${literalShown}\n`);
  });

  it("leaves other backslashes as they are", () => {
    const { text } = rendered({
      field: "content",
      old: `<p>\n${LONG}\n</p>`,
      new: `<p>\n${LONG} C:\\Files \\d+\n</p>`,
    });
    expect(text).toContain(`        +${LONG} C:\\Files \\d+\n`);
  });
});

describe("two long values alike at the start, in the comment", () => {
  it("are both shown from a little before where they differ, so the change is seen", () => {
    // Noticed by the what-you-see hunt: tenant data changed deep inside showed as two equal cuts.
    const head = "a".repeat(300);
    const { markdown } = rendered(
      { field: "data", old: { note: `${head}OLD-tail` }, new: { note: `${head}NEW-tail` } },
      "tenant",
    );
    const row = markdown.split("\n").find((line) => line.includes("data:")) ?? "";
    expect(row).toContain("aOLD-tail");
    expect(row).toContain("aNEW-tail");
    expect(row).toMatch(/\(\d+ characters\)…/);
    expect(markdown).toContain("_Values cut short are shown whole by `notiform plan`._");
    // Differing early: cut at the start as before.
    const early = rendered({ field: "data", old: { note: `x${head}` }, new: { note: `y${head}` } }, "tenant");
    expect(early.markdown).not.toMatch(/\(\d+ characters\)…/);
  });
});

describe("a key that starts or ends with a blank", () => {
  it("is quoted in the text plan's heading and the comment's row, so it is told apart from the key without it", () => {
    // Found by the what-you-see hunt: a workflow identifier "flow " printed as "flow".
    const change = { field: "name", old: "A", new: "B" };
    for (const key of ["flow ", " flow", "flow\t"]) {
      const plan = planOf([updateAction([change], "workflow", key)]);
      expect(renderPlanText(plan, { color: false, verbose: false })).toContain(
        `  ~ workflow ${visibleText(JSON.stringify(key))}\n`,
      );
      expect(renderPlanMarkdown(plan)).toContain(markdownCode(visibleText(JSON.stringify(key))));
    }
    const plain = planOf([updateAction([change], "workflow", "flow")]);
    expect(renderPlanText(plain, { color: false, verbose: false })).toContain("  ~ workflow flow\n");
  });
});

describe("space-like and invisible characters show as escapes", () => {
  it.each([
    ["no-break space", "\u00a0", "\\u00a0"],
    ["em space", "\u2003", "\\u2003"],
    ["narrow no-break space", "\u202f", "\\u202f"],
    ["ideographic space", "\u3000", "\\u3000"],
    ["Hangul filler", "\u3164", "\\u3164"],
    ["combining grapheme joiner", "\u034f", "\\u034f"],
    ["variation selector", "\ufe0f", "\\ufe0f"],
    ["variation selector 17", "\u{e0100}", "\\udb40\\udd00"],
    ["braille blank", "\u2800", "\\u2800"],
  ])("a %s in a name", (_name, char, shown) => {
    const { text, markdown } = rendered({ field: "name", old: "a b", new: `a${char}b` }, "topic");
    expect(text).toContain(`      name: "a b" -> "a${shown}b"\n`);
    expect(markdown).toContain(`\`name: "a b" -> "a${shown}b"\``);
    expect(visibleText(`a${char}b`)).toBe(`a${shown}b`);
  });

  it("a plain space and the emoji, CJK and accented text around it stay as they are", () => {
    expect(visibleText("Héllo 世界 🎉 ok")).toBe("Héllo 世界 🎉 ok");
  });

  it("an emoji's presentation selector and the joiner inside an emoji stay, where they are seen", () => {
    // Subjects such as "⚠️ Action required" are common: the selector draws the emoji, so a plan
    // full of `⚠\ufe0f` would only be noise. A selector after a letter, or a second one, shows nothing.
    for (const text of [
      "⚠\ufe0f Action required",
      "❤\ufe0f",
      "1\ufe0f\u20e3",
      "👩\u200d💻",
      "🏳\ufe0f\u200d🌈",
      "👍🏽\u200d👍",
    ])
      expect([visibleText(text), visibleLine(text), terminalText(text, false)]).toEqual([text, text, text]);
    expect(visibleText("a\ufe0fb")).toBe("a\\ufe0fb");
    expect(visibleText("❤\ufe0f\ufe0f")).toBe("❤\ufe0f\\ufe0f");
    expect(visibleText("a\u200d💻")).toBe("a\\u200d💻");
    expect(visibleText("👩\u200db")).toBe("👩\\u200db");
    expect(terminalText("x\u200d", false)).toBe("x\\u200d");
  });
});

describe("a value the comment cuts short", () => {
  it("still shows the other side, and says where to see it whole", () => {
    const old = ["x".repeat(400)];
    const { markdown } = rendered({ field: "name", old, new: [...old, "added"] }, "topic");
    const row = markdown.split("\n").find((line) => line.startsWith("| ~ update")) ?? "";
    // They differ past the width: both are shown from just before it, the new element seen.
    expect(row).toMatch(/`name: \(\d+ characters\)…x+"\] -> \(\d+ characters\)…x+","added"\]`/);
    expect(markdown).toMatch(/_Values cut short are shown whole by `notiform plan`\._/);
  });

  it("a diff line cut by width says where to see it whole", () => {
    const long = "y".repeat(300);
    const { markdown } = rendered({
      field: "content",
      old: `<p>\n${long}a\n</p>`,
      new: `<p>\n${long}b\n</p>`,
    });
    expect(markdown).toMatch(/more characters\)/);
    expect(markdown).toMatch(/_Lines cut at 240 characters: run `notiform plan` for the whole diff\._/);
  });

  it("short values are not cut and the note is not there", () => {
    const { markdown } = rendered({ field: "name", old: "a", new: "b" }, "topic");
    expect(markdown).toContain('`name: "a" -> "b"`');
    expect(markdown).not.toMatch(/cut/);
  });
});

describe("warnings in the comment", () => {
  it("past the first 20, says how many more and where to see them", () => {
    const warnings = Array.from({ length: 23 }, (_, i) => ({ code: "test", message: `warning ${i}` }));
    const markdown = renderPlanMarkdown(
      planOf([updateAction([{ field: "name", old: "a", new: "b" }], "topic")], { warnings }),
    );
    expect(markdown).toContain("- warning 19\n");
    expect(markdown).not.toContain("- warning 20\n");
    expect(markdown).toContain("_… 3 more warnings: run `notiform plan` for them._");
  });
});

describe("data in a diff reads the same whatever its keys' order", () => {
  it("so plan prints what show prints of the saved (key-sorted) plan, --verbose too", () => {
    const variables = (total: Record<string, string>) => [
      total,
      { name: "legal", defaultValue: "x".repeat(60) },
    ];
    const field = stepField("digest", "variables");
    const one = planOf([
      updateAction([{ field, old: [], new: variables({ name: "total", defaultValue: "Ω" }) }]),
    ]);
    const two = planOf([
      updateAction([{ field, old: [], new: variables({ defaultValue: "Ω", name: "total" }) }]),
    ]);
    for (const verbose of [false, true]) {
      const text = renderPlanText(one, { color: false, verbose });
      expect(text).toContain('+    "defaultValue": "Ω",\n');
      expect(renderPlanText(two, { color: false, verbose })).toBe(text);
    }
    expect(renderPlanMarkdown(two)).toBe(renderPlanMarkdown(one));
  });
});
