// Server text reaches people as text. Names, messages and the organization come from the server
// (or from the environment) and may hold control characters: a carriage return that overwrites
// a line, escape sequences that move the cursor, clear the screen or recolour, bidi overrides
// that reorder what is read. Everything that prints such text escapes them to a visible form
// (\r, \u001b, \u202e: JSON's own escapes, so JSON output stays valid JSON that decodes to the
// same text). Renderers escape the values they embed; the terminal port escapes
// whatever else reaches it, keeping only line breaks and notiform's own colours.
// Markdown adds its own layer: HTML and markdown syntax in a value are escaped so that the
// comment shows the value, and code spans show it exactly.

import { escapeHtml } from "./escape-html.js";

/**
 * C0 and C1 controls, DEL, bidi controls, line/paragraph separators (\n separately), and the
 * invisible characters: soft hyphen, zero-width space/joiners, word joiner and invisible operators,
 * BOM, Mongolian vowel separator, every other format character (\p{Cf}), and the tag characters
 * (U+E0000-U+E007F, which can spell a whole hidden sentence). A name that reads "reset" must not
 * hide something else. Also what looks like a plain space or like nothing, so that two values a
 * screen shows alike print differently: every space but U+0020 (no-break, em, ideographic...),
 * the Hangul and braille blanks, the combining grapheme joiner and the variation selectors
 * (U+E0100-U+E01EF can spell hidden text as the tag characters can).
 */
const CONTROLS =
  "\\u0000-\\u0009\\u000b-\\u001f\\u007f-\\u00a0\\u00ad\\u034f\\u061c\\u115f\\u1160\\u1680\\u17b4\\u17b5\\u180b-\\u180f\\u2000-\\u200f\\u202a-\\u202f\\u205f-\\u2064\\u2066-\\u2069\\u2028\\u2029\\u2800\\u3000\\u3164\\ufe00-\\ufe0d\\uffa0\\ufeff\\p{Cf}\\u{e0000}-\\u{e007f}\\u{e0100}-\\u{e01ef}";
/**
 * The text and emoji presentation selectors (U+FE0E, U+FE0F) are shown as they are where they
 * choose how the emoji before them is drawn (`⚠️`, `❤️`, a keycap `1️⃣`): subjects are full of them,
 * and there they are seen. Anywhere else (after a letter, or one after another) they show nothing
 * and are escaped as the other selectors are.
 */
const LONE_PRESENTATION = "[\\ufe0e\\ufe0f](?!\\u20e3)(?<!\\p{Extended_Pictographic}[\\ufe0e\\ufe0f])";
const UNSAFE = new RegExp(`[\\n${CONTROLS}]|${LONE_PRESENTATION}`, "gu");
const UNSAFE_BUT_NEWLINE = new RegExp(`[${CONTROLS}]|${LONE_PRESENTATION}`, "gu");
/** The colour codes notiform itself writes (render-text.ts), let through when colour is on. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching our own escape sequences is the point.
const OWN_COLOURS = /\x1b\[(?:0|1|2|3[0-7])m/y;

const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function visible(c: string): string {
  const named = NAMED[c];
  if (named !== undefined) return named;
  // Per UTF-16 unit: a tag character shows as its surrogate pair (\udb40\udc41), JSON's escape.
  let out = "";
  for (let i = 0; i < c.length; i += 1) out += `\\u${c.charCodeAt(i).toString(16).padStart(4, "0")}`;
  return out;
}

const EMOJI_BEFORE = /(?:\p{Extended_Pictographic}|\p{Emoji_Modifier}|\ufe0f)$/u;
const EMOJI_AFTER = /^\p{Extended_Pictographic}/u;

/**
 * `c` (found at `offset` of `text`) made visible, but for a zero-width joiner between two emoji
 * (`👩‍💻`, `🏳️‍🌈`): it draws them as one, so it is seen, and there it stays as it is.
 */
function shown(c: string, offset: number, text: string): string {
  if (
    c === "\u200d" &&
    EMOJI_BEFORE.test(text.slice(Math.max(0, offset - 2), offset)) &&
    EMOJI_AFTER.test(text.slice(offset + 1, offset + 3))
  )
    return c;
  return visible(c);
}

/**
 * A resource's key or identifier as a heading shows it: quoted (as JSON) when it starts or ends
 * with a blank, which a screen does not show (`"flow "` and `flow` are two workflows).
 */
export function visibleKey(key: string): string {
  return visibleText(/^\s|\s$/u.test(key) ? JSON.stringify(key) : key);
}

/** One line of text with every control character made visible (line breaks too). */
export function visibleText(text: string): string {
  return text.replace(UNSAFE, shown);
}

/**
 * A backslash that would read as the start of one of visibleText's escapes (`\t`, `\u00a0`), or
 * of the final blank's: doubled by visibleLine, so that such text cannot pass for what it spells.
 */
const ESCAPE_LIKE = new RegExp(`\\\\(?=[nrtu\\\\\\n${CONTROLS}]| $)`, "gu");

/**
 * One line of long text (a template's, in a diff) with every control character made visible,
 * told apart from the text it could look like: a literal `\t` shows as `\\t` (a tab as `\t`),
 * and a final space as `\u0020` (a line's trailing blank is otherwise not seen). Not for JSON text,
 * whose backslashes are escaped already.
 */
export function visibleLine(text: string): string {
  return text.replace(ESCAPE_LIKE, "\\\\").replace(UNSAFE, shown).replace(/ $/, "\\u0020");
}

/** Text for the terminal: line breaks kept, other controls escaped, own colours optionally kept. */
export function terminalText(text: string, keepOwnColours: boolean): string {
  return text.replace(UNSAFE_BUT_NEWLINE, (c, offset: number) => {
    if (keepOwnColours && c === "\u001b") {
      OWN_COLOURS.lastIndex = offset;
      if (OWN_COLOURS.test(text)) return c;
    }
    return shown(c, offset, text);
  });
}

/**
 * Inline markdown text (a heading, a table cell, a list item): shows as written, never as markup.
 * Every ASCII punctuation character is backslash-escaped (CommonMark allows it for all of them),
 * so nothing starts emphasis, strikethrough, a link, HTML, an autolink (`https\:\/\/`, `www\.`) or
 * an email link (`\@`). Server text that may hold @mentions goes into code spans instead
 * (markdownCode): GitHub never links a mention inside code.
 */
export function markdownText(text: string): string {
  return visibleText(text).replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`);
}

/**
 * Text inside raw HTML (`<details><summary>`): HTML-escaped, since markdown escapes are not read
 * there and `<h1 x>` would be a live heading. Wrap it in `<code>` where it is a name: GitHub
 * links no @mention and no URL inside code.
 */
export function htmlText(text: string): string {
  return escapeHtml(visibleText(text));
}

/**
 * At most `width` UTF-16 units of `text` (never half a surrogate pair), and how much was cut:
 * one long line (a minified template) must not fill a comment by itself.
 */
export function clipText(text: string, width: number): string {
  if (text.length <= width) return text;
  let end = width;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}… (${text.length - end} more characters)`;
}

/**
 * A code span in a table cell showing `text` exactly: a fence longer than any run of backticks
 * inside, padded when the text starts or ends with a backtick or a space (CommonMark strips one
 * space each side), and `|` escaped (GFM reads a table cell's pipes before code spans).
 */
export function markdownCode(text: string): string {
  const shown = visibleText(text).replace(/\|/g, "\\|");
  const longest = (shown.match(/`+/g) ?? []).reduce((most, run) => Math.max(most, run.length), 0);
  const fence = "`".repeat(longest + 1);
  const pad = /^[` ]|[` ]$/.test(shown) ? " " : "";
  return `${fence}${pad}${shown}${pad}${fence}`;
}
