// The HTML every preview page is built from, and the rules that keep a template's markup inert in
// the reviewer's browser: every value is escaped where it is embedded; a message's own HTML is
// shown only inside an <iframe sandbox> without allow-scripts, as `srcdoc` (so it inherits the
// page's policy) with a Content-Security-Policy of its own that forbids scripts; and the pages
// themselves carry a policy forbidding scripts. A template's <script> or onerror= never runs.

/** The pages' policy: no script, no plugin, no form target, no base; images from the web (emails link them). */
export const PAGE_CSP =
  "default-src 'none'; script-src 'none'; object-src 'none'; style-src 'unsafe-inline'; img-src data: https: http:; base-uri 'none'; form-action 'none'";

/** The policy put inside each message frame: the message's own styles, images and fonts, no script. */
export const FRAME_CSP =
  "default-src 'none'; script-src 'none'; object-src 'none'; style-src 'unsafe-inline' https: http:; img-src data: https: http: cid:; font-src data: https: http:; base-uri 'none'; form-action 'none'";

/** Text for HTML text and attribute values (double-quoted). */
export function escapeHtml(text: string): string {
  // A preview escapes every email whole (~50 MB for 1,000 workflows): one pass over the text,
  // copying the runs between special characters, costs far less than a replace callback per match.
  const first = text.search(SPECIAL);
  if (first === -1) return text;
  let out = "";
  let from = 0;
  for (let index = first; index < text.length; index += 1) {
    let entity: string;
    switch (text.charCodeAt(index)) {
      case 38:
        entity = "&amp;";
        break;
      case 60:
        entity = "&lt;";
        break;
      case 62:
        entity = "&gt;";
        break;
      case 34:
        entity = "&quot;";
        break;
      case 39:
        entity = "&#39;";
        break;
      default:
        continue;
    }
    out += text.slice(from, index) + entity;
    from = index + 1;
  }
  return out + text.slice(from);
}

const SPECIAL = /[&<>"']/;

/**
 * The message HTML as a frame shows it: the policy meta placed right after a doctype (before it
 * would switch the page to quirks mode), which the parser moves into the head.
 */
export function framedHtml(html: string): string {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(FRAME_CSP)}">`;
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  if (doctype === null) return `${meta}${html}`;
  return `${doctype[0]}${meta}${html.slice(doctype[0].length)}`;
}

/** The `srcdoc` attribute's value for a message (escaped once, shared by its frames). */
export function frameSource(html: string): string {
  return escapeHtml(framedHtml(html));
}

/** A sandboxed frame holding a message (`source`: frameSource's): no scripts, forms, popups or navigation of the page. */
export function messageFrame(source: string, width: number, height: number, label: string): string {
  return `<iframe class="message" sandbox="" referrerpolicy="no-referrer" title="${escapeHtml(label)}" width="${width}" height="${height}" srcdoc="${source}"></iframe>`;
}

/** A whole page: its policy first, then the shared style. `root`: the path back to the site's folder. */
export function page(title: string, root: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${PAGE_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body data-root="${escapeHtml(root)}">
${body}
</body>
</html>
`;
}

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; padding: 16px 24px; max-width: 1400px; color: #1b1f24; background: #f6f8fa; }
a { color: #0b5cad; }
h1 { font-size: 20px; margin: 8px 0 16px; } h2 { font-size: 16px; margin: 24px 0 8px; } h3 { font-size: 14px; margin: 12px 0 6px; }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid #d8dee4; vertical-align: top; }
.channel { font: 12px ui-monospace, monospace; background: #eaeef2; border-radius: 4px; padding: 1px 6px; }
.error { background: #ffebe9; border: 1px solid #ff8182; padding: 8px 12px; border-radius: 6px; white-space: pre-wrap; font-family: ui-monospace, monospace; }
.note { background: #fff8c5; border: 1px solid #d4a72c; padding: 6px 12px; border-radius: 6px; margin: 6px 0; }
.changed { color: #9a6700; font-weight: 600; } .added { color: #1a7f37; font-weight: 600; }
.envelope { background: #fff; border: 1px solid #d8dee4; border-radius: 6px; padding: 8px 12px; margin-bottom: 8px; }
.envelope div { margin: 2px 0; } .envelope .label { color: #57606a; display: inline-block; width: 80px; }
.widths { display: flex; gap: 16px; align-items: flex-start; flex-wrap: wrap; }
.widths figure { margin: 0; } .widths figcaption { color: #57606a; font-size: 12px; }
iframe.message { border: 1px solid #d8dee4; background: #fff; display: block; }
.sides { display: grid; grid-template-columns: 1fr 1fr; gap: 16px; }
.sides > section { min-width: 0; overflow-x: auto; }
.feed { width: 360px; background: #fff; border: 1px solid #d8dee4; border-radius: 8px; padding: 12px; display: flex; gap: 10px; }
.feed .dot { width: 8px; height: 8px; border-radius: 4px; background: #0969da; margin-top: 6px; flex: none; }
.feed .buttons { margin-top: 8px; display: flex; gap: 8px; }
.feed .button { border: 1px solid #d8dee4; border-radius: 6px; padding: 3px 10px; background: #f6f8fa; }
.feed .button.primary { background: #0969da; color: #fff; border-color: #0969da; }
.phone { width: 320px; background: #fff; border: 1px solid #d8dee4; border-radius: 16px; padding: 16px; }
.bubble { background: #e9e9eb; border-radius: 18px; padding: 8px 12px; white-space: pre-wrap; overflow-wrap: anywhere; }
.meta { color: #57606a; font-size: 12px; margin-top: 6px; }
.text { background: #fff; border: 1px solid #d8dee4; border-radius: 6px; padding: 8px 12px; white-space: pre-wrap; overflow-wrap: anywhere; max-width: 640px; }
pre.diff { background: #fff; border: 1px solid #d8dee4; padding: 8px; overflow-x: auto; font-size: 12px; }
pre.diff .add { background: #dafbe1; display: block; } pre.diff .del { background: #ffebe9; display: block; }
`;
