// What a preview site written from hostile text must hold (docs/preview.md, "Sandboxing"), read
// as a browser's tokenizer reads it (test/support/html-tokens.ts): every page's own elements and
// attributes are the site's (no tag, attribute or comment made of user text; user text only in
// text, in a harmless attribute, or in a frame's escaped `srcdoc`); every frame holding message
// HTML is sandboxed without scripts and holds exactly the message the site wrote beside it; every
// file stays inside the site's folder under a name any file system keeps apart (no `..`, no
// reserved device name, no two names equal ignoring case and normalization); every JSON file
// follows schemas/preview.schema.json. Returns the problems found, each naming its file.
import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { validatorOf } from "../../src/schemas.js";
import type { ExpectedStep } from "./hostile-config.js";
import { type Attribute, strayAmpersands, type Token, tokenize } from "./html-tokens.js";

const TAGS = new Set(
  "html head meta title style body h1 h2 h3 p a bdi br small table thead tbody tr th td span div strong em figure figcaption iframe section pre".split(
    " ",
  ),
);
const ATTRIBUTES = new Set(
  "lang charset http-equiv content name class href data-root sandbox referrerpolicy title width height srcdoc".split(
    " ",
  ),
);
/** Where user text may sit inside an attribute's value. */
const TEXT_ATTRIBUTES = new Set(["title", "href", "srcdoc"]);
const SCRIPT_SCHEME = /^(?:javascript|vbscript|data):/i;
const FRAME_META =
  /<meta http-equiv="Content-Security-Policy" content="default-src (?:'|&#39;)none(?:'|&#39;); script-src (?:'|&#39;)none(?:'|&#39;);[^"]*">/;
/** A marker of user text (hostile-config.ts). */
const MARKED = /zq\d+k/i;
const RESERVED = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i;

export interface PageFacts {
  /** The page's text (text nodes, entity-decoded), joined. */
  text: string;
  /** Each message frame's HTML, decoded from `srcdoc`, in page order. */
  frames: string[];
  hrefs: string[];
}

/** Problems of one page of the site; `facts` says what it shows. */
export function checkPage(path: string, html: string, problems: string[]): PageFacts {
  const fail = (what: string, token?: Token) =>
    problems.push(
      `${path}: ${what}${token === undefined ? "" : ` at ${token.start}: ${token.raw.slice(0, 160)}`}`,
    );
  const tokens = tokenize(html);
  const facts: PageFacts = { text: "", frames: [], hrefs: [] };
  let csp = 0;
  tokens.forEach((token, index) => {
    if (token.kind === "comment") fail("a comment", token);
    if (token.kind === "doctype" && index !== 0) fail("a doctype after the start", token);
    if (token.kind === "text") {
      if (token.inside === "style" || token.inside === "script") {
        if (token.inside === "script" || MARKED.test(token.raw))
          fail(`user text in <${token.inside}>`, token);
        return;
      }
      if (token.inside === "iframe") fail("content inside an <iframe>", token);
      for (const at of strayAmpersands(token.raw)) fail(`an unescaped & at ${token.start + at}`);
      if (token.raw.includes(">")) fail("an unescaped > in text", token);
      facts.text += token.text;
    }
    if (token.kind !== "start" && token.kind !== "end") return;
    if (!TAGS.has(token.name)) fail(`an element the site does not write: <${token.name}>`, token);
    if (token.kind === "end") return;
    const names = token.attributes.map((a) => a.name);
    if (new Set(names).size !== names.length) fail("an attribute given twice", token);
    for (const attribute of token.attributes)
      checkAttribute(token.name, attribute, (what) => fail(what, token));
    const get = (name: string) => token.attributes.find((a) => a.name === name);
    if (token.name === "meta" && get("http-equiv")?.value === "Content-Security-Policy") {
      csp += 1;
      if (!/^default-src 'none'; script-src 'none';/.test(get("content")?.value ?? ""))
        fail("the page's policy allows scripts", token);
    }
    if (token.name === "a") facts.hrefs.push(get("href")?.value ?? "");
    if (token.name === "iframe") {
      const sandbox = get("sandbox");
      if (sandbox === undefined) fail("a frame without sandbox", token);
      const allowed = (sandbox?.value ?? "").toLowerCase().split(/\s+/);
      if (allowed.includes("allow-scripts") || allowed.includes("allow-same-origin"))
        fail("a frame whose sandbox allows scripts or its origin", token);
      if (get("src") !== undefined || get("srcdoc") === undefined) fail("a frame not given as srcdoc", token);
      facts.frames.push(get("srcdoc")?.value ?? "");
    }
  });
  if (csp !== 1) fail(`${csp} Content-Security-Policy metas, not 1`);
  return facts;
}

function checkAttribute(tag: string, attribute: Attribute, fail: (what: string) => void): void {
  const marked = (text: string) => MARKED.test(text);
  if (!ATTRIBUTES.has(attribute.name) || marked(attribute.name))
    fail(`an attribute the site does not write: ${attribute.name}`);
  if (attribute.quote !== '"') fail(`attribute ${attribute.name} not double-quoted`);
  if (/[<>"]/.test(attribute.raw)) fail(`an unescaped character in attribute ${attribute.name}`);
  if (strayAmpersands(attribute.raw).length > 0) fail(`an unescaped & in attribute ${attribute.name}`);
  if (!marked(attribute.value)) return;
  if (!TEXT_ATTRIBUTES.has(attribute.name)) fail(`user text in attribute ${attribute.name}`);
  if (attribute.name === "srcdoc" && tag !== "iframe") fail("srcdoc outside a frame");
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a URL's scheme is read past them.
  const url = attribute.value.replace(/[\u0000-\u0020]/g, "");
  if (attribute.name === "href" && SCRIPT_SCHEME.test(url)) fail(`a script link: ${attribute.value}`);
}

/** The message HTML as a frame must hold it: the frame's policy first (after a doctype), then the message. */
export function unframed(frame: string): string | undefined {
  const meta = FRAME_META.exec(frame);
  if (meta === null) return undefined;
  const doctype = /^\s*<!doctype[^>]*>/i.exec(frame)?.[0] ?? "";
  if (meta.index !== doctype.length) return undefined;
  return doctype + frame.slice(meta.index + meta[0].length);
}

/** Every file below `dir`, relative, with `/`. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => !lstatSync(join(dir, name)).isDirectory())
    .map((name) => name.split(sep).join("/"));
}

/** A path the site names or holds: inside `dir`, and a name every file system keeps. */
export function checkPath(dir: string, path: string, problems: string[]): void {
  const fail = (what: string) => problems.push(`${JSON.stringify(path)}: ${what}`);
  if (isAbsolute(path) || path.includes("\\")) fail("absolute, or with a backslash");
  const inside = relative(dir, resolve(dir, path));
  if (inside.startsWith("..") || isAbsolute(inside)) fail("outside the site's folder");
  for (const part of path.split("/")) {
    if (part === "" || part === "." || part === "..") fail(`the component ${JSON.stringify(part)}`);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: names Windows refuses.
    if (/[<>:"|?*\u0000-\u001f]/.test(part) || /[. ]$/.test(part)) fail(`a name Windows refuses: ${part}`);
    if (RESERVED.test(part.split(".")[0] ?? "")) fail(`a reserved device name: ${part}`);
    if (Buffer.byteLength(part) > 255) fail("a name over 255 bytes");
  }
}

/** The whole site: pages, frames, files and JSON against what the config holds. */
export function checkSite(dir: string, expected: ExpectedStep[]): string[] {
  const problems: string[] = [];
  const read = (path: string) => readFileSync(join(dir, path), "utf8");
  const files = filesUnder(dir);
  const folded = new Map<string, string>();
  for (const file of files) {
    checkPath(dir, file, problems);
    const key = file.normalize("NFC").toLowerCase();
    if (folded.has(key)) problems.push(`${file} and ${folded.get(key)} are one file ignoring case`);
    folded.set(key, file);
    if (lstatSync(join(dir, file)).isSymbolicLink()) problems.push(`${file} is a link`);
    // A lone half of a surrogate pair is written as U+FFFD (the alphabet holds none of its own).
    if (/\.(html|json)$/.test(file) && read(file).includes("\ufffd"))
      problems.push(`${file}: a character cut in half`);
  }
  const index = checkPage("index.html", read("index.html"), problems);
  if (index.hrefs.length !== expected.length)
    problems.push(`index.html links ${index.hrefs.length} steps, the config has ${expected.length}`);
  const written = new Set(["index.html", ".notiform-preview"]);
  const validate = validatorOf("preview");
  expected.forEach((step, i) => {
    const href = index.hrefs[i] ?? "";
    const label = `step ${i} (${JSON.stringify(step.step).slice(0, 60)})`;
    if (!index.text.includes(step.step)) problems.push(`index.html does not show ${label}'s name as text`);
    if (!index.text.includes(step.workflowKey))
      problems.push(`index.html does not show ${label}'s workflow key`);
    checkPath(dir, href, problems);
    if (!href.endsWith(".preview.html") || written.has(href)) {
      problems.push(`${label}: its page ${href} is not its own`);
      return;
    }
    const jsonPath = href.replace(/\.preview\.html$/, ".json");
    written.add(href).add(jsonPath);
    let json: Record<string, unknown> & {
      examples: { name: string; html?: string; before?: { html?: string } }[];
    };
    try {
      json = JSON.parse(read(jsonPath));
    } catch (error) {
      problems.push(`${jsonPath}: ${(error as Error).message}`);
      return;
    }
    if (!validate(json)) problems.push(`${jsonPath}: ${JSON.stringify(validate.errors)}`);
    if (json.step !== step.step || json.workflow !== step.workflowKey || json.page !== href)
      problems.push(`${jsonPath}: another step's file (${JSON.stringify(json.step).slice(0, 80)})`);
    const names = json.examples.map((x) => x.name);
    if (JSON.stringify(names) !== JSON.stringify(step.examples))
      problems.push(`${jsonPath}: examples ${JSON.stringify(names)}, not ${JSON.stringify(step.examples)}`);
    const page = checkPage(href, read(href), problems);
    for (const text of [step.step, step.workflowShown, ...step.examples])
      if (!page.text.includes(text))
        problems.push(`${href} does not show ${JSON.stringify(text).slice(0, 80)} as text`);
    // In page order: each example's live side (--changed) before its config side.
    const htmls = json.examples.flatMap((x) => [x.before?.html, x.html].filter((h) => h !== undefined));
    if (page.frames.length !== 2 * htmls.length)
      problems.push(`${href}: ${page.frames.length} frames for ${htmls.length} emails`);
    htmls.forEach((path, n) => {
      checkPath(dir, path, problems);
      if (written.has(path)) problems.push(`${path}: written for two messages`);
      written.add(path);
      const message = read(path);
      for (const frame of page.frames.slice(2 * n, 2 * n + 2))
        if (unframed(frame) !== message)
          problems.push(`${href}: frame ${n} does not hold ${path} under its policy`);
    });
  });
  for (const file of files) if (!written.has(file)) problems.push(`${file}: a file no step names`);
  return problems;
}
