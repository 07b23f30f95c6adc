// The final, global guard on a pull-request comment's size: GitHub refuses a comment over 65,536
// characters, and a refused comment leaves the previous plan standing. Renderers keep their own
// budgets (so that a cut falls where it is counted), but whatever they or later additions
// produce passes through fitComment last: whole sections are left out, in order, with a note
// naming them, so the comment is always valid markdown under the bound. Pure.

import { clipText, markdownText } from "../sanitize.js";

/** GitHub's limit on a comment's body. */
export const GITHUB_COMMENT_LIMIT = 65_536;
/**
 * The most a markdown plan or promotion is: below GitHub's limit with room for what wraps it (the
 * Action's marker line, a job summary's heading), so neither has to cut it again.
 */
export const COMMENT_BOUND = 60_000;

/** One part of a comment, left out whole when it does not fit. */
export interface CommentSection {
  /** How the note names it when it is left out (plain text: the note escapes it). */
  title: string;
  text: string;
  /**
   * Which sections keep their place first when not all fit (lower first; default 0): a
   * section can be shown first and still be the first to go (rendered messages before changes).
   */
  priority?: number;
}

/**
 * `head`, then every section that fits in `bound`, in the order given. Sections are admitted by
 * priority (then order): one that does not fit is left out and named in a closing note, and
 * later, smaller ones are still shown. A head longer than the bound by itself is clipped.
 */
export function fitComment(
  head: string,
  sections: readonly CommentSection[],
  bound: number = COMMENT_BOUND,
  advice = "run `notiform plan` for the full plan",
): string {
  const noteRoom = 600;
  const top = head.length + noteRoom <= bound ? head : `${clipText(head, bound - noteRoom - 100)}\n\n`;
  const byPriority = sections
    .map((section, index) => ({ section, index }))
    .sort((a, b) => (a.section.priority ?? 0) - (b.section.priority ?? 0) || a.index - b.index);
  const kept = new Set<number>();
  let size = top.length;
  for (const { section, index } of byPriority) {
    if (size + section.text.length + noteRoom > bound) continue;
    kept.add(index);
    size += section.text.length;
  }
  let out = top;
  const left: string[] = [];
  sections.forEach((section, index) => {
    if (kept.has(index)) out += section.text;
    else left.push(section.title);
  });
  if (left.length === 0) return out;
  const names = markdownText(clipText(left.join(", "), 300));
  return `${out}\n_… not shown, to keep this comment under GitHub's ${GITHUB_COMMENT_LIMIT.toLocaleString("en-US")} characters: ${names}. ${advice[0]?.toUpperCase()}${advice.slice(1)}._\n`;
}
