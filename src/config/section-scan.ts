// A look at a config file's text before it is parsed: how many entries each top-level list
// section holds, counted from the lines alone, so the live reads can start while the file is
// parsed and validated (src/kinds/read-live.ts). Never more than the parse will find in a
// valid file: only block lists are counted, by the lines that open an entry at the list's own
// indentation (the lines inside an entry are indented deeper, block scalars included); any
// other form of a section (a flow list, an anchor, a tag, an alias) is not counted at all. The
// count is a hint for what to read ahead, never a part of the desired state.

export function scanSectionCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  let section: string | undefined;
  /** The indentation of the section's entries, once its first entry is seen. */
  let indent: number | undefined;
  let entryHasSteps = false;
  let start = 0;
  let first = true;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    const line = text.charCodeAt(end - 1) === 13 ? text.slice(start, end - 1) : text.slice(start, end);
    start = end + 1;
    if (first) {
      first = false;
      if (line === "---") continue;
    }
    const spaces = leadingSpaces(line);
    // A tab in the indentation is the parser's to judge: stop counting.
    if (line[spaces] === "\t") return counts;
    if (spaces === line.length || line[spaces] === "#") continue;
    if (line === "---" || line === "...") return counts;
    if (spaces === 0 && !isEntryLine(line, 0)) {
      const key = /^([A-Za-z][A-Za-z0-9_-]*):[ ]*(#.*)?$/.exec(line);
      section = key?.[1];
      indent = undefined;
      continue;
    }
    if (section === undefined) continue;
    if (indent === undefined) {
      if (!isEntryLine(line, spaces)) {
        // A mapping or another form: not a block list.
        section = undefined;
        continue;
      }
      indent = spaces;
    }
    if (spaces === indent && isEntryLine(line, spaces)) {
      counts.set(section, (counts.get(section) ?? 0) + 1);
      entryHasSteps = false;
    }
    // A workflow entry that manages its content: "steps:" as one of its own fields.
    if (section === "workflows" && !entryHasSteps) {
      const field = spaces === indent ? spaces + 2 : spaces;
      if (field === indent + 2 && line.startsWith("steps:", field)) {
        entryHasSteps = true;
        counts.set(STEPS_COUNT, (counts.get(STEPS_COUNT) ?? 0) + 1);
      }
    }
  }
  return counts;
}

/** The count of workflow entries that have `steps:` (their content is managed). */
export const STEPS_COUNT = "workflows/steps";

function leadingSpaces(line: string): number {
  let i = 0;
  while (i < line.length && line.charCodeAt(i) === 32) i += 1;
  return i;
}

/** `- ...` or a lone `-` at this indentation. */
function isEntryLine(line: string, at: number): boolean {
  return line[at] === "-" && (at + 1 === line.length || line[at + 1] === " ");
}
