// The pull-request comment: the target and commit, a summary table, then every kind of change
// under its own heading with its counts, kept under a size budget (GitHub caps comments at
// 65,536 characters). The budget is shared between kinds, so a bulk of creates of one kind never
// hides another kind's change; inside a kind, updates, not-applicable and uncertain items come
// before creates, and what is cut is counted ("N more"). A shown change always shows every field
// it changes: values are cut by width, long-text diffs by lines and width, and a diff that does
// not fit is left out with a note, never the row. fitComment (comment-bound.ts) is the last step:
// whatever is added to the comment goes through it as a section. A small plan is shown expanded.
// Values from the server or the environment are escaped (src/sanitize.ts): text never turns into
// HTML or markup, code spans show values exactly, and raw HTML (`<summary>`) gets HTML escapes.

import type { JsonValue } from "../canonical.js";
import type { ActionOp, FieldChange, PlanAction } from "../kinds/plan-action.js";
import { KINDS } from "../kinds/registry.js";
import { clipText, htmlText, markdownCode, markdownText, visibleKey } from "../sanitize.js";
import { COMMENT_BOUND, type CommentSection, fitComment } from "./comment-bound.js";
import type { Plan } from "./model.js";
import { describeKind, OP_SYMBOL, summaryLine, unlistedNote } from "./render-common.js";
import { type MessageChange, renderMessagesMarkdown } from "./render-messages.js";
import { renderContentChange } from "./render-steps.js";
import { formatChange, formatValue } from "./render-text.js";

export const MARKDOWN_BUDGET = COMMENT_BOUND;
/** Up to this many changes, every section is open: nothing to click to review a small plan. */
export const EXPANDED_UP_TO = 20;
/** The most lines of one long text's diff shown in a comment (the plan has it all). */
export const DIFF_LINES = 40;
/** The widest diff line shown: a one-line minified template must not fill the comment. */
export const DIFF_WIDTH = 240;
/** The widest field change shown in a table cell (`field: old -> new`). */
export const CHANGE_WIDTH = 320;
/** The widest value shown in a field change: each side is cut alone, so `-> new` always shows. */
export const VALUE_WIDTH = 100;
/** The most warnings the comment lists (the rest are counted). */
const WARNINGS_SHOWN = 20;
/** Room kept for the closing note and warnings. */
const RESERVE = 2_500;

export interface MarkdownOptions {
  budget?: number;
  /** The commit the plan was made from (--commit, default GITHUB_SHA). */
  commit?: string | undefined;
  /** The changed messages, rendered (only for a plan that changes content). */
  messages?: readonly MessageChange[];
}

/** Creates last: a bulk of them must not push an update or a refusal out of the comment. */
const OP_ORDER: Record<ActionOp, number> = {
  uncertain: 0,
  "not-applicable": 1,
  update: 2,
  unverified: 3,
  create: 4,
};

const COLUMNS: { label: string; count: (s: Plan["summary"]) => number }[] = [
  { label: "to create", count: (s) => s.create },
  { label: "to update", count: (s) => s.update },
  { label: "unverified", count: (s) => s.unverified },
  { label: "not applicable", count: (s) => s.notApplicable },
  { label: "uncertain", count: (s) => s.uncertain },
  { label: "unchanged", count: (s) => s.unchanged },
  { label: "unmanaged", count: (s) => s.unmanaged },
];

export function renderPlanMarkdown(plan: Plan, options: MarkdownOptions = {}): string {
  const budget = options.budget ?? MARKDOWN_BUDGET;
  const head = header(plan, options.commit);
  // The rendered messages show first but go first when the comment is full: the changes matter more.
  const messages = renderMessagesMarkdown(options.messages ?? []);
  const sections = KINDS.map((kind) => ({
    kind,
    actions: plan.actions
      .filter((action) => action.kind === kind)
      .sort((a, b) => OP_ORDER[a.op] - OP_ORDER[b.op]),
  })).filter((section) => section.actions.length > 0);
  const expanded = plan.actions.length <= EXPANDED_UP_TO;
  const parts: CommentSection[] =
    messages === "" ? [] : [{ title: "rendered messages", text: messages, priority: 1 }];
  let used = head.length;
  let left = sections.length;
  for (const { kind, actions } of sections) {
    // An equal share of what remains, so every later kind still has room for its heading.
    const share = Math.floor((budget - RESERVE - used) / left);
    const text = renderSection(kind, actions, expanded, Math.max(share, 0));
    parts.push({ title: describeKind(kind, 2), text });
    used += text.length;
    left -= 1;
  }
  if (plan.warnings.length > 0) {
    let text = "\n**Warnings**\n\n";
    for (const warning of plan.warnings.slice(0, WARNINGS_SHOWN))
      text += `- ${markdownText(clipText(warning.message, 600))}\n`;
    const more = plan.warnings.length - WARNINGS_SHOWN;
    if (more > 0)
      text += `\n_… ${more} more warning${more === 1 ? "" : "s"}: run \`notiform plan\` for them._\n`;
    parts.push({ title: "warnings", text });
  }
  return fitComment(head, parts, budget);
}

function header(plan: Plan, commit: string | undefined): string {
  const t = plan.target;
  const env = t.environment === null ? "" : ` · environment ${markdownText(t.environment)}`;
  const target = [
    `API ${markdownCode(t.apiUrl)}`,
    `organization **${markdownText(t.organization)}**`,
    `environment ${t.environment === null ? "_(none selected)_" : `**${markdownText(t.environment)}**`}`,
    ...(commit !== undefined && commit !== "" ? [`commit ${markdownCode(commit)}`] : []),
  ].join(" · ");
  // Columns that are zero everywhere say nothing; the summary line above still names them.
  const columns = COLUMNS.filter((c) => c.count(plan.summary) > 0);
  const table =
    columns.length === 0
      ? []
      : [
          `| ${columns.map((c) => c.label).join(" | ")} |`,
          `|${columns.map(() => "---:").join("|")}|`,
          `| ${columns.map((c) => c.count(plan.summary)).join(" | ")} |`,
          "",
        ];
  const unlisted = unlistedNote(plan);
  return [
    "<!-- notiform-plan -->",
    `### notiform plan · ${markdownText(t.organization)}${env}`,
    "",
    target,
    "",
    summaryLine(plan),
    "",
    ...table,
    ...(unlisted !== undefined ? [`_${unlisted}_`, ""] : []),
    "",
  ].join("\n");
}

function renderSection(
  kind: PlanAction["kind"],
  actions: readonly PlanAction[],
  expanded: boolean,
  share: number,
): string {
  const label = describeKind(kind, 2);
  const counts = countsOf(actions);
  // Our own wording: only the label is escaped (the counts' parentheses must stay as they are).
  const counted = `${actions.length} change${actions.length === 1 ? "" : "s"} (${counts})`;
  const open = expanded
    ? `#### ${markdownText(label)}: ${counted}\n\n`
    : `<details><summary><b>${htmlText(label)}</b>: ${htmlText(counted)}</summary>\n\n`;
  const close = expanded ? "\n" : "\n</details>\n\n";
  const tableHead = "| | key | changes |\n|---|---|---|\n";
  // Rows first: every shown change shows all its fields; diffs get what the rows leave.
  let body = "";
  let shown = 0;
  let cut = false;
  const room = (extra: number) =>
    open.length +
    tableHead.length +
    body.length +
    extra +
    CUT_NOTE.length +
    moreNote(actions.length, label).length +
    close.length;
  for (const action of actions) {
    const row = renderRow(action);
    if (room(row.text.length) > share) break;
    body += row.text;
    cut ||= row.cut;
    shown += 1;
  }
  let diffs = "";
  let unshownDiffs = 0;
  for (const action of actions.slice(0, shown)) {
    for (const diff of renderDiffs(action)) {
      if (room(diffs.length + diff.length + DIFFS_LEFT_NOTE.length) > share) unshownDiffs += 1;
      else diffs += diff;
    }
  }
  const note = (cut ? CUT_NOTE : "") + (unshownDiffs > 0 ? DIFFS_LEFT_NOTE : "");
  const rest = actions.length - shown;
  return `${open}${shown > 0 ? tableHead + body : ""}${diffs}${note}${moreNote(rest, label)}${close}`;
}

const CUT_NOTE = "\n_Values cut short are shown whole by `notiform plan`._\n";

const DIFFS_LEFT_NOTE =
  "\n_Some text diffs are not shown, to keep the comment within its size: run `notiform plan --verbose` for them._\n";

function moreNote(count: number, label: string): string {
  return count > 0
    ? `\n_… ${count} more ${markdownText(label)} change${count === 1 ? "" : "s"} not shown: run \`notiform plan\` for the full plan._\n`
    : "";
}

function countsOf(actions: readonly PlanAction[]): string {
  const counts = new Map<ActionOp, number>();
  for (const action of actions) counts.set(action.op, (counts.get(action.op) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => OP_ORDER[a[0]] - OP_ORDER[b[0]])
    .map(([op, n]) => `${n} ${op}`)
    .join(", ");
}

/** An action's row, and whether a value in it was cut short. */
function renderRow(action: PlanAction): { text: string; cut: boolean } {
  let cut = action.key.length > CHANGE_WIDTH;
  const changes = action.changes
    .map((change) => {
      const value = cutValues(change, () => {
        cut = true;
      });
      const line = renderContentChange(change, value)?.line ?? formatChange(change, value);
      cut ||= line.length > CHANGE_WIDTH;
      return markdownCode(clipText(line, CHANGE_WIDTH));
    })
    .join("<br>");
  const note =
    action.reason === undefined
      ? ""
      : `<br>_${markdownText(action.op)}: ${markdownText(clipText(action.reason, CHANGE_WIDTH))}_`;
  cut ||= (action.reason?.length ?? 0) > CHANGE_WIDTH;
  const text = `| ${OP_SYMBOL[action.op]} ${action.op} | ${markdownCode(clipText(visibleKey(action.key), CHANGE_WIDTH))} | ${changes}${note} |\n`;
  return { text, cut };
}

/**
 * How a comment shows the values of `change`: each cut to VALUE_WIDTH alone (so `-> new` always
 * shows); past the width where they first differ, both from a little before it, or two long
 * values alike at the start would show alike (data changed deep inside). `onCut` hears of a cut.
 */
export function cutValues(change: FieldChange, onCut: () => void): (json: JsonValue) => string {
  const from = firstDifference(change);
  return (json) => {
    const text = formatValue(json);
    if (text.length > VALUE_WIDTH) onCut();
    return from === undefined ? clipText(text, VALUE_WIDTH) : clipFrom(text, from);
  };
}

/** Context kept before the first difference when values are shown from there. */
const BEFORE_DIFFERENCE = 24;

/** Where a change's two values, as shown, first differ, when that is past what a cut shows. */
function firstDifference(change: FieldChange): number | undefined {
  if (change.old === undefined || change.unknown === true) return undefined;
  const [a, b] = [formatValue(change.old), formatValue(change.new)];
  let at = 0;
  while (at < a.length && at < b.length && a[at] === b[at]) at++;
  return at > VALUE_WIDTH - BEFORE_DIFFERENCE && at < Math.max(a.length, b.length) ? at : undefined;
}

/** `text` from a little before `at` (never inside a character), cut to the width, saying how much it leaves out. */
function clipFrom(text: string, at: number): string {
  let start = Math.max(0, Math.min(at, text.length) - BEFORE_DIFFERENCE);
  const code = text.charCodeAt(start);
  if (code >= 0xdc00 && code <= 0xdfff) start -= 1;
  if (start === 0) return clipText(text, VALUE_WIDTH);
  return `(${start} characters)…${clipText(text.slice(start), VALUE_WIDTH)}`;
}

/**
 * Long text changes of an action as diff blocks under its table, each cut at DIFF_LINES lines of
 * at most DIFF_WIDTH characters. The summary is raw HTML: HTML-escaped, and in `<code>` (no
 * @mention or link is made inside code).
 */
function renderDiffs(action: PlanAction): string[] {
  const out: string[] = [];
  for (const change of action.changes) {
    const rendered = renderContentChange(change, formatValue);
    if (rendered === undefined || rendered.diff.length === 0) continue;
    out.push(renderDiffBlock(`${action.key}: ${rendered.line}`, rendered.diff, "notiform plan"));
  }
  return out;
}

/**
 * One long text's diff as a collapsed block titled `summary`, cut at DIFF_LINES lines of at most
 * DIFF_WIDTH characters (the cut names `command`, which shows the whole diff). The summary is raw
 * HTML: HTML-escaped (markdown escapes are not read there) and in `<code>` (no @mention or link
 * is made inside code).
 */
export function renderDiffBlock(summary: string, diff: readonly string[], command: string): string {
  const lines = diff.slice(0, DIFF_LINES).map((line) => clipText(line, DIFF_WIDTH));
  const cut = diff.length - lines.length;
  const narrowed = diff.slice(0, DIFF_LINES).some((line) => line.length > DIFF_WIDTH);
  // A fence longer than any backtick run in the text, so the text cannot close it.
  const longest = Math.max(
    2,
    ...lines.map((line) => Math.max(0, ...(line.match(/`+/g) ?? []).map((m) => m.length))),
  );
  const fence = "`".repeat(longest + 1);
  const note =
    cut > 0
      ? `\n_… ${cut} more diff lines: run \`${command}\` for the whole diff._\n`
      : narrowed
        ? `\n_Lines cut at ${DIFF_WIDTH} characters: run \`${command}\` for the whole diff._\n`
        : "";
  const title = `<code>${htmlText(clipText(summary, 2 * CHANGE_WIDTH))}</code>`;
  return `\n<details><summary>${title}</summary>\n\n${fence}diff\n${lines.join("\n")}\n${fence}\n${note}</details>\n`;
}
