// The final apply report: counts, then each failure with the server's message, each skip
// with its reason, and verification warnings. Text for people, JSON for machines. Messages
// carry server text: the text forms make its control characters visible.

import { sortKeysDeep } from "../canonical.js";
import { describeKind } from "../plan/render-common.js";
import { visibleText as v } from "../sanitize.js";
import type { ActionResult, ApplyReport } from "./model.js";

export function renderReportText(report: ApplyReport): string {
  const { applied, failed, skipped } = report.counts;
  const lines: string[] = [];
  const head = report.interrupted
    ? "Apply interrupted"
    : failed > 0
      ? "Apply finished with failures"
      : "Apply complete";
  lines.push(`${head}: ${applied} applied, ${failed} failed, ${skipped} skipped.`);
  const already = report.alreadyApplied ?? [];
  if (already.length > 0)
    lines.push(
      `${already.length === 1 ? "1 of the plan's actions was already as desired (an earlier run of the plan applied it) and was not sent again" : `${already.length} of the plan's actions were already as desired (an earlier run of the plan applied them) and were not sent again`}: ${v(already.slice(0, 20).join(", "))}${already.length > 20 ? `, and ${already.length - 20} more` : ""}.`,
    );
  const failures = report.results.filter((r) => r.status === "failed");
  if (failures.length > 0) {
    lines.push("", "Failed:");
    for (const result of failures) {
      lines.push(`  ${label(result)}: ${v(result.error?.message ?? "failed")}`);
      if (result.error?.hint) lines.push(`      hint: ${v(result.error.hint)}`);
    }
  }
  const skips = report.results.filter((r) => r.status === "skipped");
  if (skips.length > 0) {
    lines.push("", "Skipped:");
    for (const result of skips.slice(0, 50)) lines.push(`  ${label(result)}: ${v(result.reason ?? "")}`);
    if (skips.length > 50) lines.push(`  ... and ${skips.length - 50} more`);
  }
  const warnings = report.results.flatMap((r) => r.warnings);
  if (warnings.length > 0) {
    lines.push("", "Verification warnings (the server did not take these as sent):");
    for (const warning of warnings) lines.push(`  ${v(warning)}`);
  }
  return `${lines.join("\n")}\n`;
}

export function renderReportJson(report: ApplyReport): string {
  return `${JSON.stringify(sortKeysDeep(report), null, 2)}\n`;
}

export function describeResult(result: ActionResult): string {
  const notes = result.notes.length > 0 ? `; ${v(result.notes.join("; "))}` : "";
  if (result.status === "applied")
    return `applied  ${label(result)} (${result.op}, ${result.durationMs} ms${notes})`;
  if (result.status === "failed") return `failed   ${label(result)}: ${v(result.error?.message ?? "")}`;
  return `skipped  ${label(result)}: ${v(result.reason ?? "")}`;
}

function label(result: ActionResult): string {
  return `${describeKind(result.kind)} ${v(result.key)}`;
}
