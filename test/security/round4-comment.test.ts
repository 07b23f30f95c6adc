// Hostile input, round 4 (issue 35), items 3 and 4: the plan comment a pull request produces.
// Names inside the raw-HTML headings (`<details><summary>`) stay text; a long template cannot
// push the rest of a change out of the comment; and the comment never passes GitHub's 65,536
// characters, whatever the plan holds (a property test over big plans), nor does an error.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";
import type { PlanAction } from "../../src/kinds/plan-action.js";
import { stepField } from "../../src/kinds/workflow/steps-canonical.js";
import { fitComment, GITHUB_COMMENT_LIMIT } from "../../src/plan/comment-bound.js";
import { PLAN_FORMAT_VERSION, type Plan } from "../../src/plan/model.js";
import { renderPlanMarkdown } from "../../src/plan/render-markdown.js";
import { createWorkspace, runCli } from "../support/cli.js";

let emulator: EmulatorHandle;
beforeAll(async () => {
  emulator = await startEmulator({ port: 0, seedFile: "examples/emulator-seed.yaml" });
});
afterAll(async () => {
  await emulator.close();
});

const HOSTILE_STEP =
  "reset <h1 x>No changes</h1 x><img src=https://evil.example/t x><a href=https://evil.example x>Approve</a x> @octocat";

/** The HTML tags a comment holds: only notiform's own may appear. */
function tagsOf(markdown: string): Set<string> {
  // Fenced blocks and code spans are text, not HTML: drop them before looking.
  const outside = markdown.replace(/(`{3,})[^\n]*\n[\s\S]*?\n\1/g, "").replace(/(`+)[\s\S]*?\1/g, "");
  return new Set([...outside.matchAll(/<\/?([a-zA-Z][\w-]*)/g)].map((m) => (m[1] ?? "").toLowerCase()));
}
const OWN_TAGS = new Set(["details", "summary", "b", "br", "code"]);

function summariesOf(markdown: string): string[] {
  return [...markdown.matchAll(/<summary>([\s\S]*?)<\/summary>/g)].map((m) => m[1] ?? "");
}

async function planMarkdown(config: string, files: Record<string, string> = {}) {
  const workspace = await createWorkspace({ "notiform.yaml": config, ...files });
  const result = await runCli(["plan", "--output", "markdown", "--api-url", emulator.url], {
    cwd: workspace.dir,
    env: { NOTIFORM_API_KEY: emulator.apiKey },
  });
  expect(result.code, result.stderr).toBe(0);
  return result.stdout;
}

const workflowWith = (stepName: string) => `version: 1
workflows:
  - identifier: order-shipped
    active: false
    critical: true
    steps:
      - name: ${JSON.stringify(stepName)}
        type: email
        template: { subject: Hi, content: { file: big.html }, contentType: customHtml }
`;

describe("names in the collapsible headings are HTML-escaped (item 3)", () => {
  it("a step named like HTML renders no heading, image or link", async () => {
    const markdown = await planMarkdown(workflowWith(HOSTILE_STEP), {
      "big.html": Array.from({ length: 90 }, (_, i) => `<p>line ${i}</p>`).join("\n"),
    });
    const summaries = summariesOf(markdown);
    expect(summaries.length).toBeGreaterThan(0);
    for (const summary of summaries) {
      expect(summary).not.toMatch(/<(h1|img|a)\b/i);
      expect(summary).not.toContain("\\-");
      expect(summary).toMatch(/^<code>[^<]*<\/code>$/);
    }
    expect(markdown).toContain("&lt;img src=https://evil.example/t x&gt;");
    expect([...tagsOf(markdown)].filter((t) => !OWN_TAGS.has(t))).toEqual([]);
  });
});

describe("a long template does not hide the rest of the change (item 4)", () => {
  it("a 71 KB one-line template beside active and critical: both still show, under the bound", async () => {
    const markdown = await planMarkdown(workflowWith("email-customer"), {
      "big.html": `<p>${"x".repeat(71_000)}</p>`,
    });
    expect(markdown).toContain("`active: true -> false`");
    expect(markdown).toContain("`critical: false -> true`");
    expect(markdown).not.toMatch(/more workflows changes? not shown/);
    expect(markdown).toMatch(/more characters\)/);
    expect(markdown.length).toBeLessThanOrEqual(60_000);
  });

  it.each([
    ["three 30,000-character include patterns", ["a", "b", "c"].map((c) => c.repeat(30_000))],
    ["one 70,000-character include pattern", ["p".repeat(70_000)]],
  ])("%s: a short config error, not an internal error or a 90 KB message", async (_name, patterns) => {
    const workspace = await createWorkspace({
      "notiform.yaml": `version: 1\ninclude: ${JSON.stringify(patterns)}\n`,
    });
    const result = await runCli(["validate"], { cwd: workspace.dir });
    expect(result.code).toBe(1);
    expect(result.stderr).not.toMatch(/internal error/);
    expect(result.stderr).toMatch(
      /notiform\.yaml:2:\d+ +error +include "\w{100}…" \(\d+ characters\) is longer than 4096/,
    );
    expect(result.stderr.length).toBeLessThan(2_000);
  });
});

/** A plan of `actions` (the renderer reads nothing else that grows). */
function planOf(actions: PlanAction[], warnings: string[], organization: string): Plan {
  return {
    formatVersion: PLAN_FORMAT_VERSION,
    createdBy: "test",
    target: { apiUrl: "http://127.0.0.1", organization, environment: null },
    configDigest: "",
    actions,
    unmanaged: [],
    bindings: { notificationGroups: {} },
    resolvedIntents: [],
    warnings: warnings.map((message) => ({ code: "test", message })) as Plan["warnings"],
    summary: {
      create: actions.filter((a) => a.op === "create").length,
      update: actions.filter((a) => a.op === "update").length,
      unverified: 0,
      notApplicable: 0,
      uncertain: 0,
      unchanged: 0,
      unmanaged: 0,
    },
  };
}

describe("the comment never passes GitHub's limit (item 4, property)", () => {
  const bigText = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.nat({ max: 80_000 }).map((n) => `<p>${"y".repeat(n)}</p>`),
    fc.nat({ max: 300 }).map((n) => Array.from({ length: n }, (_, i) => `line ${i} <b>@x</b>`).join("\n")),
  );
  const action = fc.record({
    kind: fc.constantFrom("topic", "workflow", "tenant", "layout"),
    key: fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.nat({ max: 20_000 }).map((n) => "k".repeat(n)),
    ),
    op: fc.constantFrom("create", "update"),
    changes: fc.array(
      fc.record({
        step: fc.string({ maxLength: 12 }),
        field: fc.constantFrom("template.content", "name", "active", "data"),
        old: bigText,
        new: bigText,
      }),
      { maxLength: 6 },
    ),
  });

  it("holds for plans of huge keys, values, templates, warnings and many actions", () => {
    fc.assert(
      fc.property(
        fc.array(action, { maxLength: 60 }),
        fc.array(bigText, { maxLength: 5 }),
        bigText,
        (raw, warnings, organization) => {
          const actions = raw.map(
            (a, i): PlanAction =>
              ({
                id: `${a.kind}/${i}`,
                kind: a.kind,
                key: a.key,
                op: a.op,
                changes: a.changes.map((c) => ({
                  field: c.field === "template.content" ? stepField(c.step, c.field) : c.field,
                  ...(a.op === "update" ? { old: c.old } : {}),
                  new: c.new,
                })),
                operations: [],
                requests: [],
                dependsOn: [],
                live: { origin: "api", digest: "" },
              }) as unknown as PlanAction,
          );
          const markdown = renderPlanMarkdown(planOf(actions, warnings, organization));
          expect(markdown.length).toBeLessThanOrEqual(GITHUB_COMMENT_LIMIT);
          expect(markdown.length).toBeLessThanOrEqual(60_000);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("the final guard leaves whole sections out, with a note naming them", () => {
    const sections = [
      { title: "topics", text: "t".repeat(30_000) },
      { title: "rendered subjects", text: "s".repeat(40_000) },
      { title: "warnings", text: "\n**Warnings**\n" },
    ];
    const out = fitComment("head\n", sections);
    expect(out.length).toBeLessThanOrEqual(60_000);
    expect(out).toContain("t".repeat(30_000));
    expect(out).not.toContain("s".repeat(100));
    expect(out).toContain("**Warnings**");
    expect(out).toMatch(
      /not shown, to keep this comment under GitHub's 65,536 characters: rendered subjects\./,
    );
  });
});
