// The body of an editor-mode email: one wrapper per block, a `text` block as an aligned paragraph,
// a `button` block as a centered link in the brand color, any other type an empty wrapper
// (r4-38, r4-46, r4-53). The server renders this from a block template of its own; this module
// writes the same markup, byte for byte as the captures show it, from the blocks already rendered
// (their content and url are inserted as they are: they were escaped when rendered).

import type { EditorBlock } from "./types.js";

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "'", // the server's post-pass turns `&#x27;` back into `'`
  "`": "&#x60;",
  "=": "&#x3D;",
};

/** A value printed with `{{x}}` in the block markup: escaped, apostrophes kept. */
function escaped(value: unknown): string {
  if (value === undefined || value === null || value === false) return value === false ? "false" : "";
  return String(value).replace(/[&<>"'`=]/g, (c) => ESCAPES[c] ?? c);
}

const WRAPPER_OPEN = '  <div style="margin-bottom: 10px" data-test-id="block-item-wrapper">\n';
const WRAPPER_CLOSE = "  </div>\n";

function textBlock(block: EditorBlock): string {
  const align = block.styles?.textAlign ? escaped(block.styles.textAlign) : "left";
  return [
    '      <div style="',
    `        text-align: ${align};`,
    '        ">',
    "        <div>",
    "          <p>",
    `            ${block.content}`,
    "          </p>",
    "        </div>",
    "      </div>",
    "",
  ].join("\n");
}

function buttonBlock(block: EditorBlock, color: string): string {
  const indent = (n: number) => " ".repeat(n);
  return [
    "      <div>",
    "        <div",
    '          style="',
    `${indent(54)}font-family: inherit;`,
    `${indent(54)}text-align: center;`,
    `${indent(52)}"`,
    "        >",
    '          <a style="',
    "            line-height: 30px;",
    "            display: inline-block;",
    "            font-weight: 400;",
    "            white-space: nowrap;",
    "            text-align: center;",
    "            border: 1px solid transparent;",
    "            height: 32px;",
    "            padding: 4px 15px;",
    "            font-size: 14px;",
    "            border-radius: 4px;",
    "            color: white;",
    `            background: ${color};`,
    `            border-color: ${color};`,
    "            text-decoration: none;",
    '            "',
    `             href="${block.url ?? ""}"`,
    '             target="_blank">',
    `            ${block.content}`,
    "          </a>",
    "        </div>",
    "      </div>",
    "",
  ].join("\n");
}

/** The body of an editor email from its rendered blocks and the branding color the template sees. */
export function editorBody(blocks: readonly EditorBlock[], brandColor: unknown): string {
  const color = brandColor ? escaped(brandColor) : "#ff6f61";
  let out = "\n";
  for (const block of blocks) {
    out += WRAPPER_OPEN;
    // biome-ignore lint/suspicious/noDoubleEquals: the server compares the block type loosely
    if (block.type == "text") out += textBlock(block);
    // biome-ignore lint/suspicious/noDoubleEquals: the server compares the block type loosely
    else if (block.type == "button") out += buttonBlock(block, color);
    out += WRAPPER_CLOSE;
  }
  return out;
}
