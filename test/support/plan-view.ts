// What a reviewer sees of a rendered plan, for the "what you see is what apply sends" properties:
// `seen` drops what a screen does not show (invisible format characters, raw control
// characters, trailing spaces, the difference between kinds of blank), and `readComment` is a
// small, tolerant reader of the markdown comment's structure as GitHub parses it (fenced blocks,
// <details> blocks, headings, table rows split at unescaped pipes, code spans), written for these
// tests rather than taken from a markdown library, so that a comment that breaks out of a cell,
// a code span, a fence or a block shows up as a structure that differs from the plan's.

/** Characters a screen shows as nothing: format characters, fillers, variation selectors. */
const INVISIBLE =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: each invisible character on its own is the point.
  /[\p{Cf}\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u3164\uffa0\ufe00-\ufe0f\u{e0100}-\u{e01ef}]/gu;

/** `text` as it looks: what differs here differs on the screen (and in a browser). */
export function seen(text: string): string {
  return (
    text
      // A raw escape sequence is acted on, not shown.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: raw escape sequences are the point.
      .replace(/\u001b\[[0-?]*[ -/]*[@-~]/g, "")
      .replace(INVISIBLE, "")
      .replace(/[\p{Zs}\t\u2800]/gu, " ")
      // biome-ignore lint/suspicious/noControlCharactersInRegex: raw controls are the point.
      .replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, "")
      .replace(/[\u2028\u2029]/g, "\n")
      .replace(/ +$/gm, "")
  );
}

/** One row of a comment's change table, its cells as shown. */
export interface CommentRow {
  op: string;
  /** The code spans of the key cell, as shown. */
  key: string[];
  /** The code spans of the changes cell, as shown, one per change. */
  changes: string[];
  /** The changes cell's text outside code spans (the op's reason). */
  note: string;
}

export interface CommentSectionView {
  heading: string;
  rows: CommentRow[];
  /** The diff blocks' lines under the table, fence contents as shown. */
  diffs: string[][];
  /** "… N more X changes not shown": N, or 0. */
  more: number;
}

export interface CommentView {
  /** Lines outside fences that start a heading. */
  headings: string[];
  sections: CommentSectionView[];
  /** `<details>` opened minus closed at the end (0 when balanced); -1 once a close came first. */
  openDetails: number;
  /** HTML tag names outside code spans and fences. */
  tags: string[];
  /** HTML comments outside code spans and fences. */
  comments: number;
  /** Text outside tables, fences and code spans (notes), as shown. */
  prose: string[];
}

/** The code spans of one line of inline markdown (CommonMark: a run of N backticks to the next run of N). */
export function codeSpans(text: string): { spans: string[]; outside: string } {
  const spans: string[] = [];
  let outside = "";
  let i = 0;
  while (i < text.length) {
    if (text[i] === "\\" && i + 1 < text.length) {
      outside += text.slice(i, i + 2);
      i += 2;
      continue;
    }
    if (text[i] !== "`") {
      outside += text[i];
      i += 1;
      continue;
    }
    let run = 0;
    while (text[i + run] === "`") run += 1;
    const closer = new RegExp(`(?<!\`)\`{${run}}(?!\`)`, "g");
    closer.lastIndex = i + run;
    const end = closer.exec(text);
    if (end === null) {
      outside += "`".repeat(run);
      i += run;
      continue;
    }
    let content = text.slice(i + run, end.index);
    if (/^ [\s\S]* $/.test(content) && !/^ +$/.test(content)) content = content.slice(1, -1);
    spans.push(content);
    outside += "\ue000";
    i = end.index + run;
  }
  return { spans, outside };
}

/** A table row's cells (GFM: split at pipes no backslash escapes; `\|` then reads as `|`). */
export function tableCells(row: string): string[] {
  const cells = row
    .trim()
    .replace(/^\|/, "")
    .replace(/(?<!\\)\|$/, "");
  return cells.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, "|"));
}

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

/** Backslash escapes of inline markdown text removed, as it shows. */
function unescapeMarkdown(text: string): string {
  return text.replace(/\\([!-/:-@[-`{-~])/g, "$1");
}

/** An HTML tag or comment start that no backslash escapes. */
const TAG = /(?<=(?:^|[^\\])(?:\\\\)*)<\/?([a-zA-Z][\w-]*)/g;
const COMMENT = /(?<=(?:^|[^\\])(?:\\\\)*)<!--/g;

export function readComment(markdown: string): CommentView {
  const view: CommentView = { headings: [], sections: [], openDetails: 0, tags: [], comments: 0, prose: [] };
  const lines = markdown.split("\n");
  let fence: string | undefined;
  let fenceLines: string[] = [];
  let section: CommentSectionView | undefined;
  const outsideText = (line: string) => {
    const { outside } = codeSpans(line);
    for (const m of outside.matchAll(TAG)) view.tags.push((m[1] ?? "").toLowerCase());
    view.comments += (outside.match(COMMENT) ?? []).length;
    return outside;
  };
  for (const line of lines) {
    if (fence !== undefined) {
      if (new RegExp(`^ {0,3}${fence}\`* *$`).test(line)) {
        section?.diffs.push(fenceLines);
        fence = undefined;
      } else fenceLines.push(seen(line));
      continue;
    }
    const open = /^ {0,3}(`{3,})/.exec(line);
    if (open !== null) {
      fence = open[1] ?? "```";
      fenceLines = [];
      continue;
    }
    const tagged = codeSpans(line).outside;
    const details = tagged.match(/<details>/g)?.length ?? 0;
    const closes = tagged.match(/<\/details>/g)?.length ?? 0;
    if (view.openDetails >= 0) view.openDetails += details - closes;
    if (/^ {0,3}#{1,6}( |$)/.test(line)) {
      view.headings.push(line);
      section = undefined;
      if (/^#### /.test(line) && !/^#### Messages/.test(line)) {
        section = { heading: line, rows: [], diffs: [], more: 0 };
        view.sections.push(section);
      }
      outsideText(line);
      continue;
    }
    const summary = /^<details><summary><b>([^<]*)<\/b>: ([^<]*)<\/summary>$/.exec(line);
    if (summary !== null) {
      section = {
        heading: `#### ${decodeEntities(summary[1] ?? "")}: ${decodeEntities(summary[2] ?? "")}`,
        rows: [],
        diffs: [],
        more: 0,
      };
      view.sections.push(section);
      outsideText(line.replace(/<\/?(details|summary|b)>/g, ""));
      view.tags.push("details", "summary", "b", "b", "summary");
      continue;
    }
    if (
      line.startsWith("|") &&
      section !== undefined &&
      !/^\|---/.test(line) &&
      line !== "| | key | changes |"
    ) {
      const cells = tableCells(line);
      const keyCell = codeSpans(cells[1] ?? "");
      const changeCell = codeSpans(cells[2] ?? "");
      for (const m of changeCell.outside.matchAll(TAG)) view.tags.push((m[1] ?? "").toLowerCase());
      section.rows.push({
        op: cells[0] ?? "",
        key: keyCell.spans.map(seen),
        changes: changeCell.spans.map(seen),
        note: seen(unescapeMarkdown(changeCell.outside.replace(/\ue000|<br>/g, ""))),
      });
      if (cells.length !== 3)
        section.rows.push({ op: `(${cells.length} cells)`, key: [], changes: [], note: "" });
      continue;
    }
    const more = /^_… (\d+) more .* not shown/.exec(line);
    if (more !== null && section !== undefined) section.more = Number(more[1]);
    const outside = outsideText(line.replace(/<\/?(details|summary|b|code)>/g, ""));
    if (/<\/?(details|summary|b|code)>/.test(line))
      for (const m of line.matchAll(/<\/?(details|summary|b|code)>/g)) view.tags.push(m[1] ?? "");
    if (outside.trim() !== "") view.prose.push(seen(unescapeMarkdown(decodeEntities(line))));
  }
  if (fence !== undefined) view.openDetails = -1;
  return view;
}
