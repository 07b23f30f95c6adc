import { createRequire } from "node:module";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { MASK, Masker } from "../../src/mask.js";
import { planChanges } from "../../src/plan/plan-changes.js";
import { renderPlanJson } from "../../src/plan/render-json.js";
import { renderPlanMarkdown } from "../../src/plan/render-markdown.js";
import { renderPlanText } from "../../src/plan/render-text.js";
import {
  desiredState,
  liveSnapshot,
  noState,
  override,
  TARGET,
  topic,
  workflow,
} from "../helpers/builders.js";

const require = createRequire(import.meta.url);
const WF1 = "64f1c0ffee0000000000a001";
const T1 = "650000000000000000000001";

function samplePlan() {
  return planChanges({
    desired: desiredState({
      topics: [
        { key: "news", name: "News" },
        { key: "orders", name: "Orders v2" },
        { key: "same", name: "Same" },
      ],
      workflows: [{ key: "shipped", id: WF1, active: false }],
      overrides: [{ workflow: "shipped", tenant: T1, preferenceSettings: { sms: false } }],
    }),
    live: liveSnapshot({
      topics: [topic("orders", "Orders"), topic("same", "Same"), topic("legacy", "Legacy")],
      workflows: [workflow(WF1)],
      overrides: [override(WF1, T1)],
    }),
    state: noState(),
    target: TARGET,
    createdBy: "notiform test",
  });
}

describe("text rendering", () => {
  it("starts with the summary line and shows one line per field change", () => {
    const text = renderPlanText(samplePlan(), { color: false, verbose: false });
    expect(text).toContain("Plan: 1 to create, 3 to update, 0 unverified, 1 unchanged\n");
    expect(text).toContain('  + topic news\n      name: "News"\n');
    expect(text).toContain('  ~ topic orders\n      name: "Orders" -> "Orders v2"\n');
    expect(text).toContain("      active: true -> false\n");
    expect(text).toContain("      preferenceSettings.sms: true -> false\n");
    expect(text).toContain("    topic legacy (Legacy)\n");
    expect(text).not.toContain("\u001b[");
  });

  it("colours only when asked, and adds a unified diff with --verbose", () => {
    const plan = samplePlan();
    expect(renderPlanText(plan, { color: true, verbose: false })).toContain("\u001b[32m  + topic news");
    const verbose = renderPlanText(plan, { color: false, verbose: true });
    expect(verbose).toContain("--- topic/orders (live)");
    expect(verbose).toContain('-  "name": "Orders"');
    expect(verbose).toContain('+  "name": "Orders v2"');
  });

  it("says plainly when there is nothing to do", () => {
    const plan = planChanges({
      desired: desiredState({ topics: [{ key: "same", name: "Same" }] }),
      live: liveSnapshot({ topics: [topic("same", "Same")] }),
      state: noState(),
      target: TARGET,
      createdBy: "t",
    });
    expect(renderPlanText(plan, { color: false, verbose: false })).toContain(
      "Plan: 0 to create, 0 to update, 0 unverified, 1 unchanged. No changes.",
    );
  });
});

describe("json rendering", () => {
  it("follows schemas/plan.schema.json and is byte-identical for the same inputs", () => {
    const validate = new Ajv2020({ allErrors: true, strict: false }).compile(
      require("../../schemas/plan.schema.json"),
    );
    const first = renderPlanJson(samplePlan(), new Masker());
    expect(validate(JSON.parse(first))).toBe(true);
    expect(renderPlanJson(samplePlan(), new Masker())).toBe(first);
  });

  it("masks values that came from the environment, keeping the JSON valid", () => {
    const masker = new Masker().add("Orders v2");
    const json = renderPlanJson(samplePlan(), masker);
    expect(json).not.toContain("Orders v2");
    expect(JSON.parse(json).actions[1].changes[0].new).toBe(MASK);
  });
});

describe("markdown rendering", () => {
  it("shows a small plan expanded under the target and commit, dropping all-zero columns", () => {
    const markdown = renderPlanMarkdown(samplePlan(), { commit: "0123abcd" });
    expect(markdown).toContain(
      "API `http://127.0.0.1:4010` · organization **Acme Inc** · environment _(none selected)_ · commit `0123abcd`",
    );
    const table = markdown.indexOf("| to create | to update | unchanged | unmanaged |");
    expect(table).toBeGreaterThan(0);
    expect(markdown).not.toContain("not applicable |");
    expect(markdown).not.toContain("<details>");
    expect(markdown.indexOf("#### topics: 2 changes (1 update, 1 create)")).toBeGreaterThan(table);
    expect(markdown).toContain("#### workflow overrides: 1 change (1 update)");
  });

  it("never hides a kind: thousands of creates share the budget with one update of each other kind", () => {
    const WF2 = "64f1c0ffee0000000000a002";
    const many = planChanges({
      desired: desiredState({
        topics: Array.from({ length: 3000 }, (_, i) => ({ key: `topic-${i}`, name: `Topic ${i}` })),
        notificationGroups: Array.from({ length: 1500 }, (_, i) => ({ key: `g-${i}`, name: `Group ${i}` })),
        workflows: [
          { key: "shipped", id: WF1, critical: true },
          { key: "digest", id: WF2, active: false },
        ],
        overrides: [{ workflow: "shipped", tenant: T1, preferenceSettings: { sms: false } }],
      }),
      live: liveSnapshot({
        topics: [topic("topic-2999", "Old name")],
        workflows: [workflow(WF1), workflow(WF2)],
        notificationGroups: [],
        overrides: [override(WF1, T1)],
      }),
      state: noState(),
      target: TARGET,
      createdBy: "t",
    });
    expect(many.actions.length).toBeGreaterThan(4000);
    const markdown = renderPlanMarkdown(many);
    expect(markdown.length).toBeLessThanOrEqual(60_000);
    for (const heading of [
      "<summary><b>topics</b>: 3000 changes (1 update, 2999 create)</summary>",
      "<summary><b>notification groups</b>: 1500 changes (1500 create)</summary>",
      "<summary><b>workflows</b>: 2 changes (2 update)</summary>",
      "<summary><b>workflow overrides</b>: 1 change (1 update)</summary>",
    ]) {
      expect(markdown).toContain(heading);
    }
    expect(markdown).toContain("`critical: false -> true`");
    expect(markdown).toContain("`preferenceSettings.sms: true -> false`");
    // The one topic update comes before the bulk of creates, and the cut is counted in its section.
    const topics = markdown.slice(markdown.indexOf("<b>topics</b>"));
    expect(topics.indexOf("topic-2999")).toBeLessThan(topics.indexOf("topic-0"));
    expect(topics).toMatch(/_… \d+ more topics changes not shown/);
    expect(markdown).toMatch(/_… \d+ more notification groups changes not shown/);
    expect(markdown).not.toContain("Truncated");
  });
});
