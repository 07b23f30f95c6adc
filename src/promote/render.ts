// Renderers of a promotion and of its outcome: text for people, JSON for machines
// (schemas/promotion.schema.json, schemas/promotion-result.schema.json), markdown for a pull
// request, a release comment or a job summary. Renderers only format: they decide nothing.
import { type JsonValue, sortKeysDeep } from "../canonical.js";
import { COMMENT_BOUND, type CommentSection, fitComment } from "../plan/comment-bound.js";
import type { FieldChange } from "../plan/model.js";
import { cutValues, renderDiffBlock } from "../plan/render-markdown.js";
import { type DiffSides, renderContentChange } from "../plan/render-steps.js";
import { formatChange, formatValue } from "../plan/render-text.js";
import { clipText, markdownCode, markdownText } from "../sanitize.js";
import {
  type CarriedLayout,
  carriedLabel,
  labelOf,
  type PromotedField,
  type Promotion,
  type PromotionEntry,
  type PromotionReport,
  plainOrQuoted,
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
  const carried = shownCarried(promotion).length;
  const carries =
    carried === 0
      ? ""
      : ` ${promote === 1 ? "It" : "They"} may carry ${carried === 1 ? "a layout change" : `${carried} layout changes`} the server does not list on ${carried === 1 ? "its" : "their"} own.`;
  const rest =
    unmanaged === 0
      ? ""
      : ` ${unmanaged} pending change${unmanaged === 1 ? "" : "s"} of resources the config does not manage left pending (--all promotes them).`;
  return head + already + carries + rest;
}

/** The carried layouts Production lacks something of: the ones shown (the rest change nothing). */
function shownCarried(promotion: Promotion): CarriedLayout[] {
  return (promotion.carried ?? []).filter((layout) => (layout.diff?.length ?? 0) > 0);
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
  for (const layout of shownCarried(promotion)) {
    lines.push(`  ^ ${carriedLabel(layout)} (${CARRIED_WHY})`);
    for (const line of diffLines(layout.diff ?? [], true)) lines.push(`      ${line}`);
  }
  if (promotion.unmanaged.length > 0) {
    lines.push("", `Unmanaged pending changes (not promoted): ${promotion.unmanaged.length}`);
    const shown = options.verbose ? promotion.unmanaged : promotion.unmanaged.slice(0, UNMANAGED_SHOWN);
    for (const entry of shown) lines.push(`    ${labelOf(entry)} [${plainOrQuoted(entry.entityId)}]`);
    if (shown.length < promotion.unmanaged.length)
      lines.push(`    ... and ${promotion.unmanaged.length - shown.length} more (--verbose lists all)`);
  }
  if (promotion.warnings.length > 0) lines.push("", "Warnings:", ...promotion.warnings.map((w) => `  ${w}`));
  return `${lines.join("\n")}\n`;
}

/** Why a carried layout has no change of its own in the list. */
const CARRIED_WHY =
  "no change of its own is listed: the server nests it in the change of a workflow written with a step naming it, and promotes it with that workflow";

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
function diffLines(
  diff: PromotionEntry["diff"] & object,
  withText: boolean,
  valuesOf: (change: FieldChange) => (json: JsonValue) => string = () => formatValue,
): string[] {
  if (diff.length === 0) return ["(Production already has this content)"];
  return diff.flatMap((change) => {
    const value = valuesOf(change);
    const step = renderContentChange(change, value, PROMOTION_SIDES);
    if (step === undefined) return [formatChange(change, value)];
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

/** A diff's lines for a table cell, each side of a change cut alone, and whether one was cut. */
function cutLines(diff: PromotionEntry["diff"] & object): { lines: string[]; cut: boolean } {
  let cut = false;
  const lines = diffLines(diff, false, (change) =>
    cutValues(change, () => {
      cut = true;
    }),
  );
  return { lines, cut };
}

/** A field value longer than this (or on more than one line) is shown by its size. */
const LONG_FIELD = 80;

export function renderPromotionJson(promotion: Promotion): string {
  return `${JSON.stringify(sortKeysDeep(promotion), null, 2)}\n`;
}

/**
 * The promotion as markdown (a pull request, a release comment, a job summary). Server names go
 * into code spans (GitHub makes no link, strikethrough or @mention inside code), prose through
 * markdownText; each cell is cut by width, the table and the diffs by size, and fitComment bounds
 * the whole.
 */
export function renderPromotionMarkdown(promotion: Promotion): string {
  const t = promotion.target;
  const env =
    t.environment === null ? "" : ` · environment ${markdownCode(clipText(t.environment, CELL_WIDTH))}`;
  const head = [
    "<!-- notiform-promote -->",
    `### notiform promote · ${markdownCode(clipText(t.organization, CELL_WIDTH))}${env} → Production`,
    "",
    summaryOf(promotion),
    "",
    "",
  ].join("\n");
  const sections: CommentSection[] = [];
  if (promotion.entries.length > 0) {
    // The entries, then the layouts they carry unlisted, as rows of one table. Each side of a
    // change is cut alone, so a long old value never hides the new one.
    const rows = [
      ...promotion.entries.map((entry) => ({
        label: labelOf(entry),
        cells: entry.diff !== undefined ? cutLines(entry.diff) : { lines: detailsOf(entry), cut: false },
        diff: entry.diff ?? [],
      })),
      ...shownCarried(promotion).map((layout) => ({
        label: carriedLabel(layout),
        cells: cutLines(layout.diff ?? []),
        diff: layout.diff ?? [],
      })),
    ];
    let table = "| resource | Production receives |\n|---|---|\n";
    let shown = 0;
    let cut = false;
    for (const { label, cells } of rows) {
      const cell = cells.lines.map((line) => markdownCode(clipText(line, CELL_WIDTH))).join("<br>");
      const row = `| ${markdownCode(clipText(label, CELL_WIDTH))} | ${cell} |\n`;
      if (table.length + row.length > TABLE_BUDGET) break;
      table += row;
      shown += 1;
      cut ||= cells.cut || label.length > CELL_WIDTH || cells.lines.some((line) => line.length > CELL_WIDTH);
    }
    if (cut) table += "\n_Values cut short are shown whole by `notiform promote`._\n";
    const rest = rows.length - shown;
    if (rest > 0)
      table += `\n_… ${rest} more change${rest === 1 ? "" : "s"} not shown: run \`notiform promote\` for all._\n`;
    if (shownCarried(promotion).length > 0)
      table += `\n_A layout listed after the changes: ${CARRIED_WHY}._\n`;
    sections.push({ title: "changes to promote", text: `${table}\n` });
    let diffs = "";
    for (const { label, diff } of rows.slice(0, shown))
      for (const block of diffBlocks(label, diff))
        if (diffs.length + block.length <= DIFFS_BUDGET) diffs += block;
    if (diffs !== "") sections.push({ title: "text diffs", text: `${diffs}\n` });
  }
  if (promotion.unmanaged.length > 0) {
    const n = promotion.unmanaged.length;
    let text = `<details><summary>${n} unmanaged pending change${n === 1 ? "" : "s"} (not promoted)</summary>\n\n`;
    for (const entry of promotion.unmanaged.slice(0, 200))
      text += `- ${markdownCode(clipText(labelOf(entry), CELL_WIDTH))}\n`;
    if (n > 200) text += `- ... and ${n - 200} more\n`;
    sections.push({ title: "unmanaged pending changes", text: `${text}\n</details>\n\n` });
  }
  if (promotion.warnings.length > 0) {
    const text = promotion.warnings
      .slice(0, 20)
      .map((warning) => `> warning: ${markdownText(clipText(warning, 600))}\n\n`)
      .join("");
    sections.push({ title: "warnings", text });
  }
  return fitComment(head, sections, COMMENT_BOUND, "run `notiform promote` for the full list");
}

/** The widest cell text (a label, a field change) in the markdown. */
const CELL_WIDTH = 320;
/** The table's share of the comment; the rest is for the diffs, the unmanaged list and warnings. */
const TABLE_BUDGET = 30_000;
/** The text diffs' share. */
const DIFFS_BUDGET = 20_000;

/** A row's long text changes (a layout's content, a template) as diff blocks under the table. */
function diffBlocks(label: string, diff: readonly FieldChange[]): string[] {
  const blocks: string[] = [];
  for (const change of diff) {
    const rendered = renderContentChange(change, formatValue, PROMOTION_SIDES);
    if (rendered === undefined || rendered.diff.length === 0) continue;
    blocks.push(renderDiffBlock(`${label}: ${rendered.line}`, rendered.diff, "notiform promote"));
  }
  return blocks;
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
