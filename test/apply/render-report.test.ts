// The apply report's sentence on a saved plan's actions an earlier run already applied agrees
// with its count: one action "was", several "were", and only the first 20 are named.
import { describe, expect, it } from "vitest";
import { APPLY_RESULT_FORMAT_VERSION, type ApplyReport } from "../../src/apply/model.js";
import { renderReportText } from "../../src/apply/render-report.js";

const report = (alreadyApplied: string[]): ApplyReport => ({
  formatVersion: APPLY_RESULT_FORMAT_VERSION,
  results: [],
  counts: { applied: 0, failed: 0, skipped: 0 },
  interrupted: false,
  alreadyApplied,
});

describe("the report of actions already as desired", () => {
  it("speaks of one action in the singular", () => {
    expect(renderReportText(report(["topic/a"]))).toContain(
      "1 of the plan's actions was already as desired (an earlier run of the plan applied it) and was not sent again: topic/a.",
    );
  });

  it("speaks of several in the plural and names the first 20", () => {
    const ids = Array.from({ length: 22 }, (_, i) => `topic/t${i}`);
    const text = renderReportText(report(ids));
    expect(text).toContain(
      "22 of the plan's actions were already as desired (an earlier run of the plan applied them) and were not sent again: topic/t0,",
    );
    expect(text).toContain("topic/t19, and 2 more.");
    expect(text).not.toContain("topic/t20");
  });
});
