// Renderers of a promotion and of its outcome: text for people, JSON for machines
// (schemas/promotion.schema.json, schemas/promotion-result.schema.json), markdown for a pull
// request, a release comment or a job summary. Renderers only format: they decide nothing.
import { sortKeysDeep } from "../canonical.js";
import { renderDiffBlock } from "../plan/render-markdown.js";
import { type DiffSides, renderContentChange } from "../plan/render-steps.js";
import { formatChange, formatValue } from "../plan/render-text.js";
import { markdownCode } from "../sanitize.js";
import {
  labelOf,
  type PromotedField,
  type Promotion,
  type PromotionEntry,
  type PromotionReport,
} from "./model.js";
import { isAheadOfProduction } from "./production-diff.js";

export const UNMANAGED_SHOWN = 20;

/** A promotion's diff is Production's value against Development's, not live against desired. */
const PROMOTION_SIDES: DiffSides = { before: "Production", after: "Development" };

export function summaryOf(promotion: Promotion): string {
  const { promote, unmanaged } = promotion.summary;
  const head =
    promote === 0
      ? "Nothing to promote: Production has every change of what the config manages."
      : `${promote} change${promote === 1 ? "" : "s"} to promote from Development to Production.`;
  const had = promotion.entries.filter((entry) => !isAheadOfProduction(entry)).length;
  const already =
    had === 0
      ? ""
      : had === promote
        ? ` Production already has the content of ${promote === 1 ? "it" : "all of them"}.`
        : ` Production already has the content of ${had} of them.`;
  const rest =
    unmanaged === 0
      ? ""
      : ` ${unmanaged} pending change${unmanaged === 1 ? "" : "s"} of resources the config does not manage left pending (--all promotes them).`;
  return head + already + rest;
}

export function renderPromotionText(promotion: Promotion, options: { verbose: boolean }): string {
  const t = promotion.target;
  const env = t.environment === null ? "" : `, environment ${t.environment}`;
  const lines = [
    `Target: ${t.apiUrl} (organization ${t.organization}${env}) -> Production`,
    summaryOf(promotion),
  ];
  if (promotion.entries.length > 0) lines.push("");
  for (const entry of promotion.entries) {
    lines.push(`  ^ ${labelOf(entry)}${entry.managed ? "" : " (not in the config)"}`);
    if (entry.diff !== undefined) for (const line of diffLines(entry.diff, true)) lines.push(`      ${line}`);
    else for (const detail of detailsOf(entry)) lines.push(`      ${detail}`);
  }
  if (promotion.unmanaged.length > 0) {
    lines.push("", `Unmanaged pending changes (not promoted): ${promotion.unmanaged.length}`);
    const shown = options.verbose ? promotion.unmanaged : promotion.unmanaged.slice(0, UNMANAGED_SHOWN);
    for (const entry of shown) lines.push(`    ${labelOf(entry)} [${entry.entityId}]`);
    if (shown.length < promotion.unmanaged.length)
      lines.push(`    ... and ${promotion.unmanaged.length - shown.length} more (--verbose lists all)`);
  }
  if (promotion.warnings.length > 0) lines.push("", "Warnings:", ...promotion.warnings.map((w) => `  ${w}`));
  return `${lines.join("\n")}\n`;
}

/** What Production receives, field by field; steps only as a count. */
export function detailsOf(entry: PromotionEntry): string[] {
  const out = entry.fields.map(formatField);
  if (entry.stepsChanged !== undefined)
    out.push(`${entry.stepsChanged} step${entry.stepsChanged === 1 ? "" : "s"} changed`);
  if (out.length === 0) out.push("(no field notiform shows changed)");
  return out;
}

/**
 * A diff against Production as plan shows changes: `field: production -> development`, steps by
 * name, long text as a unified diff (`withText`) or one summary line.
 */
function diffLines(diff: PromotionEntry["diff"] & object, withText: boolean): string[] {
  if (diff.length === 0) return ["(Production already has this content)"];
  return diff.flatMap((change) => {
    const step = renderContentChange(change, formatValue, PROMOTION_SIDES);
    if (step === undefined) return [formatChange(change)];
    return withText ? [step.line, ...step.diff.map((line) => `  ${line}`)] : [step.line];
  });
}

function formatField(field: PromotedField): string {
  if (field.op === "remove") return `${field.field}: (removed)`;
  // Long text (a layout's content) as its size: without Production's copy there is nothing to
  // diff it against, and one escaped string of HTML cannot be reviewed.
  const value = field.value;
  if (typeof value === "string" && (value.includes("\n") || value.length > LONG_FIELD)) {
    const lines = value.replace(/\n$/, "").split("\n").length;
    return `${field.field}: set, ${lines} line${lines === 1 ? "" : "s"} (Production was not read: no diff)`;
  }
  return `${field.field}: ${JSON.stringify(value)}`;
}

/** A field value longer than this (or on more than one line) is shown by its size. */
const LONG_FIELD = 80;

export function renderPromotionJson(promotion: Promotion): string {
  return `${JSON.stringify(sortKeysDeep(promotion), null, 2)}\n`;
}

export function renderPromotionMarkdown(promotion: Promotion): string {
  const t = promotion.target;
  const env = t.environment === null ? "" : ` · environment \`${escapeCell(t.environment)}\``;
  const lines = [
    "<!-- notiform-promote -->",
    `### notiform promote · ${escapeCell(t.organization)}${env} → Production`,
    "",
    summaryOf(promotion),
    "",
  ];
  if (promotion.entries.length > 0) {
    lines.push("| resource | Production receives |", "|---|---|");
    for (const entry of promotion.entries) {
      const cell =
        entry.diff !== undefined
          ? diffLines(entry.diff, false).map(markdownCode).join("<br>")
          : detailsOf(entry).map(escapeCell).join("<br>");
      lines.push(`| ${escapeCell(labelOf(entry))} | ${cell} |`);
    }
    lines.push("");
    for (const entry of promotion.entries) lines.push(...diffBlocks(entry));
  }
  if (promotion.unmanaged.length > 0) {
    lines.push(
      `<details><summary>${promotion.unmanaged.length} unmanaged pending change${promotion.unmanaged.length === 1 ? "" : "s"} (not promoted)</summary>`,
      "",
    );
    for (const entry of promotion.unmanaged.slice(0, 200)) lines.push(`- ${escapeCell(labelOf(entry))}`);
    if (promotion.unmanaged.length > 200) lines.push(`- ... and ${promotion.unmanaged.length - 200} more`);
    lines.push("", "</details>", "");
  }
  for (const warning of promotion.warnings) lines.push(`> warning: ${escapeCell(warning)}`, "");
  return `${lines.join("\n")}\n`;
}

/** An entry's long text changes (a layout's content, a template) as diff blocks under the table. */
function diffBlocks(entry: PromotionEntry): string[] {
  const blocks: string[] = [];
  for (const change of entry.diff ?? []) {
    const rendered = renderContentChange(change, formatValue, PROMOTION_SIDES);
    if (rendered === undefined || rendered.diff.length === 0) continue;
    blocks.push(renderDiffBlock(`${labelOf(entry)}: ${rendered.line}`, rendered.diff, "notiform promote"));
  }
  return blocks;
}

function escapeCell(text: string): string {
  return text.replace(/[|\\`*_<>[\]]/g, (c) => `\\${c}`).replace(/\r?\n/g, " ");
}

export function renderPromotionReportText(report: PromotionReport): string {
  const c = report.counts;
  const head = report.interrupted
    ? "Promotion interrupted"
    : c.failed > 0
      ? "Promotion finished with failures"
      : "Promotion complete";
  const lines = [
    `${head}: ${c.applied} promoted, ${c.alreadyPromoted} already promoted, ${c.failed} failed, ${c.skipped} skipped.`,
  ];
  for (const [status, title] of [
    ["failed", "Failed:"],
    ["skipped", "Skipped:"],
    ["already-promoted", "Already promoted (e.g. in the dashboard):"],
  ] as const) {
    const results = report.results.filter((r) => r.status === status);
    if (results.length === 0) continue;
    lines.push("", title);
    for (const r of results) lines.push(`  ${r.label}: ${r.error?.message ?? r.reason ?? ""}`);
  }
  return `${lines.join("\n")}\n`;
}

export function renderPromotionReportJson(report: PromotionReport): string {
  return `${JSON.stringify(sortKeysDeep(report), null, 2)}\n`;
}
