// A carried layout in the promote preview: shown only when Production lacks something of it,
// named by the server's identifier and the workflows that carry it. Those come from the server
// (an unmanaged workflow's name, a layout the config does not declare), so a line break or space
// in them is quoted, never a new line of the preview.
import { describe, expect, it } from "vitest";
import type { CarriedLayout, Promotion } from "../../src/promote/model.js";
import { carriedLabel } from "../../src/promote/model.js";
import { renderPromotionMarkdown, renderPromotionText } from "../../src/promote/render.js";

const CONTENT_CHANGE = { field: "content", old: "<main>{{{body}}}</main>\n", new: "<b>{{{body}}}</b>\n" };

function carried(key: string, workflows: string[], diff?: CarriedLayout["diff"]): CarriedLayout {
  return {
    entityId: "6b048b903f565f01deca0001",
    key,
    workflows,
    ...(diff === undefined ? {} : { diff }),
    digest: `sha256:${"0".repeat(64)}`,
  };
}

function promotion(layouts: CarriedLayout[]): Promotion {
  return {
    formatVersion: 1,
    createdBy: "test",
    target: { apiUrl: "http://127.0.0.1:1", organization: "Acme Inc", environment: null, environmentId: "e" },
    all: true,
    entries: [
      {
        changeId: "c1",
        changeType: "NotificationTemplate",
        kind: "workflow",
        entityId: "64f1c0ffee0000000000a001",
        name: "Order shipped",
        key: "order-shipped",
        managed: true,
        fields: [],
        diff: [],
        digest: `sha256:${"1".repeat(64)}`,
      },
    ],
    unmanaged: [],
    summary: { promote: 1, unmanaged: 0, pending: 1 },
    warnings: [],
    carried: layouts,
  };
}

describe("a carried layout in the promote preview", () => {
  it("names a plain identifier as is, and at most three promoted workflows using it", () => {
    expect(carriedLabel(carried("brand", ["order-shipped"], []))).toBe(
      "layout brand, used by workflow order-shipped",
    );
    expect(carriedLabel(carried("brand", ["a", "b", "c", "d", "e"], []))).toBe(
      "layout brand, used by workflows a, b, c and 2 more",
    );
    // No promoted workflow names it now: one that named it may still hold its change.
    expect(carriedLabel(carried("brand", [], []))).toBe("layout brand");
  });

  it("quotes an identifier that could read as another line, and a workflow named by the server", () => {
    const hostile = carried("brand\n  ^ workflow fake", ['"Sneaky\\n  ^ layout x"'], [CONTENT_CHANGE]);
    const text = renderPromotionText(promotion([hostile]), { verbose: false });
    expect(text).toContain(
      '  ^ layout "brand\\n  ^ workflow fake", used by workflow "Sneaky\\n  ^ layout x" (no change of its own',
    );
    expect(text.split("\n").filter((line) => line.startsWith("  ^ "))).toHaveLength(2);
  });

  it("shows only a layout Production lacks something of, and says so in the summary", () => {
    const same = renderPromotionText(promotion([carried("brand", ["order-shipped"], [])]), {
      verbose: false,
    });
    expect(same).not.toContain("layout brand");
    expect(same).not.toContain("carry");
    // Production not read: kept for the saved promotion's check, never shown.
    const unread = renderPromotionText(promotion([carried("brand", [])]), { verbose: false });
    expect(unread).not.toContain("layout brand");
    const ahead = renderPromotionText(promotion([carried("brand", ["order-shipped"], [CONTENT_CHANGE])]), {
      verbose: false,
    });
    expect(ahead).toContain("It may carry a layout change the server does not list on its own.");
    expect(ahead).toContain("-<main>{{{body}}}</main>");
  });

  it("quotes a trigger identifier or an id from the server that could read as another line", () => {
    const forged = {
      ...promotion([]),
      unmanaged: [
        {
          changeId: "c2",
          changeType: "NotificationTemplate",
          kind: "workflow" as const,
          entityId: "64f1c0ffee0000000000a002\n  ^ workflow id-forged",
          name: "Evil",
          identifier: "evil\n  ^ workflow forged",
          managed: false,
          fields: [],
          digest: `sha256:${"2".repeat(64)}`,
        },
      ],
    };
    const text = renderPromotionText(forged, { verbose: true });
    expect(text).toContain(
      '    workflow "Evil" ("evil\\n  ^ workflow forged") ["64f1c0ffee0000000000a002\\n  ^ workflow id-forged"]\n',
    );
    expect(text.split("\n").filter((line) => line.trimStart().startsWith("^ workflow"))).toHaveLength(1);
  });
});

describe("a long value in the promote comment", () => {
  it("is cut alone, so the value Production receives always shows, with where to see it whole", () => {
    // As the plan's comment (test/plan/visible-changes.test.ts): the change line was cut as a
    // whole, so a 400-character old description left no trace of the new one.
    const base = promotion([]);
    const [entry] = base.entries;
    if (entry === undefined) throw new Error("no entry");
    const long = {
      ...base,
      entries: [{ ...entry, diff: [{ field: "critical", old: ["x".repeat(400)], new: true }] }],
    };
    const markdown = renderPromotionMarkdown(long);
    expect(markdown).toContain("-> true");
    expect(markdown).toContain("(304 more characters) -> true");
    expect(markdown).toContain("_Values cut short are shown whole by `notiform promote`._");
    // Short values: nothing is cut, and nothing says so.
    const short = {
      ...base,
      entries: [{ ...entry, diff: [{ field: "description", old: "Long", new: "Short" }] }],
    };
    expect(renderPromotionMarkdown(short)).not.toContain("cut short");
    // Alike for longer than the cut: both from a little before where they differ.
    const deep = { a: "y".repeat(300) };
    const alike = {
      ...base,
      entries: [
        { ...entry, diff: [{ field: "data", old: { ...deep, b: "OLD" }, new: { ...deep, b: "NEW" } }] },
      ],
    };
    expect(renderPromotionMarkdown(alike)).toMatch(
      /\(\d+ characters\)…y+","b":"OLD"} -> \(\d+ characters\)…y+","b":"NEW"}/,
    );
  });
});
