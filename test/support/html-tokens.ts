// A small, tolerant HTML tokenizer for tests that must see a page as a browser's tokenizer does
// (the WHATWG tokenizer's states that matter for injection): text, start and end tags with their
// attributes (double-, single- or un-quoted), comments (`<!--`, and `<!`/`<?`/`</1` as bogus
// comments), the doctype, and the raw text of `<script>`, `<style>`, `<iframe>`, `<xmp>`,
// `<noembed>`, `<noframes>` (RAWTEXT) and `<title>`, `<textarea>` (RCDATA), each closed only by its
// own end tag. Every token keeps its raw text and offset, so a test can ask where a piece of user
// text landed. Character references are decoded only in the five forms the site's escaping writes
// (`&amp; &lt; &gt; &quot; &#39;`) and numeric ones; `strayAmpersands` finds any other `&`.

export interface Attribute {
  name: string;
  /** As written, without its quotes. */
  raw: string;
  quote: '"' | "'" | "";
  /** `raw` with its character references decoded. */
  value: string;
}

export type Token =
  | { kind: "text"; raw: string; start: number; text: string; inside: string | undefined }
  | { kind: "start"; name: string; attributes: Attribute[]; raw: string; start: number }
  | { kind: "end"; name: string; raw: string; start: number }
  | { kind: "comment"; raw: string; start: number }
  | { kind: "doctype"; raw: string; start: number };

const RAWTEXT = new Set(["script", "style", "iframe", "xmp", "noembed", "noframes", "noscript"]);
const RCDATA = new Set(["title", "textarea"]);
const SPACE = /[\t\n\f\r ]/;
const LETTER = /[A-Za-z]/;

export function tokenize(html: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  let text = 0;
  const flushText = (end: number, inside?: string) => {
    if (end > text) {
      const raw = html.slice(text, end);
      const decoded = inside !== undefined && RAWTEXT.has(inside) ? raw : decode(raw);
      tokens.push({ kind: "text", raw, start: text, text: decoded, inside });
    }
  };
  while (at < html.length) {
    const lt = html.indexOf("<", at);
    if (lt === -1) break;
    const next = html[lt + 1] ?? "";
    if (html.startsWith("<!--", lt)) {
      flushText(lt);
      // `<!-->` and `<!--->` close at once; otherwise at `-->` or `--!>`.
      let end: number;
      if (html.startsWith("<!-->", lt)) end = lt + 5;
      else if (html.startsWith("<!--->", lt)) end = lt + 6;
      else {
        const a = html.indexOf("-->", lt + 4);
        const b = html.indexOf("--!>", lt + 4);
        const close = [
          a === -1 ? Number.POSITIVE_INFINITY : a + 3,
          b === -1 ? Number.POSITIVE_INFINITY : b + 4,
        ];
        end = Math.min(...close);
        if (end === Number.POSITIVE_INFINITY) end = html.length;
      }
      tokens.push({ kind: "comment", raw: html.slice(lt, end), start: lt });
      at = text = end;
    } else if (next === "!" || next === "?" || (next === "/" && !LETTER.test(html[lt + 2] ?? ""))) {
      // `</>` is dropped; `</` + non-letter, `<!` and `<?` are bogus comments up to `>`.
      flushText(lt);
      const gt = html.indexOf(">", lt + 1);
      const end = gt === -1 ? html.length : gt + 1;
      const raw = html.slice(lt, end);
      const doctype = /^<!doctype/i.test(raw);
      if (raw !== "</>") tokens.push({ kind: doctype ? "doctype" : "comment", raw, start: lt });
      at = text = end;
    } else if (LETTER.test(next) || (next === "/" && LETTER.test(html[lt + 2] ?? ""))) {
      flushText(lt);
      const tag = readTag(html, lt);
      tokens.push(tag.token);
      at = text = tag.end;
      if (tag.token.kind === "start" && (RAWTEXT.has(tag.token.name) || RCDATA.has(tag.token.name))) {
        const close = closingTag(html, at, tag.token.name);
        flushText(close, tag.token.name);
        at = text = close;
      }
    } else {
      at = lt + 1; // a `<` that opens nothing is text
    }
  }
  flushText(html.length);
  return tokens;
}

/** Where `</name` followed by a space, `/` or `>` starts (case-insensitive), or the end. */
function closingTag(html: string, from: number, name: string): number {
  // Not through toLowerCase(): it changes the length of some text (İ), and so every offset.
  const pattern = new RegExp(`</${name}(?=[\\t\\n\\f\\r />]|$)`, "gi");
  pattern.lastIndex = from;
  return pattern.exec(html)?.index ?? html.length;
}

function readTag(html: string, lt: number): { token: Token; end: number } {
  const isEnd = html[lt + 1] === "/";
  let at = lt + (isEnd ? 2 : 1);
  let name = "";
  while (at < html.length && !SPACE.test(html[at] ?? "") && html[at] !== "/" && html[at] !== ">") {
    name += html[at];
    at += 1;
  }
  const attributes: Attribute[] = [];
  while (at < html.length) {
    const c = html[at] ?? "";
    if (SPACE.test(c) || c === "/") {
      at += 1;
      continue;
    }
    if (c === ">") {
      at += 1;
      break;
    }
    // An attribute's name: its first character may be `=`; then up to a space, `/`, `>` or `=`.
    let attrName = c;
    at += 1;
    while (at < html.length && !/[\t\n\f\r />=]/.test(html[at] ?? "")) {
      attrName += html[at];
      at += 1;
    }
    while (SPACE.test(html[at] ?? "")) at += 1;
    let raw = "";
    let quote: Attribute["quote"] = "";
    if (html[at] === "=") {
      at += 1;
      while (SPACE.test(html[at] ?? "")) at += 1;
      const q = html[at];
      if (q === '"' || q === "'") {
        quote = q;
        const close = html.indexOf(q, at + 1);
        const end = close === -1 ? html.length : close;
        raw = html.slice(at + 1, end);
        at = end + 1;
      } else {
        while (at < html.length && !/[\t\n\f\r >]/.test(html[at] ?? "")) {
          raw += html[at];
          at += 1;
        }
      }
    }
    attributes.push({ name: attrName.toLowerCase(), raw, quote, value: decode(raw) });
  }
  const raw = html.slice(lt, at);
  const lower = name.toLowerCase();
  return {
    token: isEnd
      ? { kind: "end", name: lower, raw, start: lt }
      : { kind: "start", name: lower, attributes, raw, start: lt },
    end: at,
  };
}

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"' };

/** Character references decoded: the four named ones escaping writes, and numeric ones. */
export function decode(raw: string): string {
  return raw.replace(/&(?:#(\d+)|#[xX]([0-9a-fA-F]+)|(amp|lt|gt|quot));/g, (whole, dec, hex, name) => {
    if (name !== undefined) return NAMED[name] ?? whole;
    const code = Number.parseInt(dec ?? hex, dec === undefined ? 16 : 10);
    return code > 0x10ffff ? whole : String.fromCodePoint(code);
  });
}

/** Each `&` of `raw` that does not start one of the five references the site's escaping writes. */
export function strayAmpersands(raw: string): number[] {
  const out: number[] = [];
  for (let at = raw.indexOf("&"); at !== -1; at = raw.indexOf("&", at + 1))
    if (!/^&(?:amp|lt|gt|quot|#39);/.test(raw.slice(at, at + 6))) out.push(at);
  return out;
}
