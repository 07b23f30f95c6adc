// Every form a secret could take on its way out of notiform, and a search of output for them: the
// value raw, JSON-escaped (once, twice, ASCII-only), YAML-escaped (double- and single-quoted),
// HTML-escaped as Handlebars' escapeExpression and as escapeHtml (once and twice), markdown- and
// code-span-escaped, URL-encoded (encodeURIComponent, its form variant, encodeURI), upper- and
// lower-cased (helpers) alone and with the HTML escape, slugged (file names, keys, identifiers a
// server makes of names), base64, base64url and its unkeyed sha256; and the prefix of one cut by a
// clipping renderer ("…", "(N more characters)"). A test hands the secrets and every text that
// left the run (stdout, stderr, files, file names) to findLeaks.
import { createHash } from "node:crypto";
import { stringify } from "yaml";

/** What Handlebars' escapeExpression writes for {{x}} (and what a real server's templates do). */
export function handlebarsEscape(text: string): string {
  const entities: Record<string, string> = {
    "&": "&amp;",
    "<": "&lt;",
    ">": "&gt;",
    '"': "&quot;",
    "'": "&#x27;",
    "`": "&#x60;",
    "=": "&#x3D;",
  };
  return text.replace(/[&<>"'`=]/g, (c) => entities[c] ?? c);
}

/** escapeHtml of src/escape-html.ts, restated (the test must not take the code's word for it). */
function plainHtmlEscape(text: string): string {
  const entities: Record<string, string> = {
    "&": "&amp;",
    "<": "&lt;",
    ">": "&gt;",
    '"': "&quot;",
    "'": "&#39;",
  };
  return text.replace(/[&<>"']/g, (c) => entities[c] ?? c);
}

const json = (text: string) => JSON.stringify(text).slice(1, -1);
const asciiJson = (text: string) =>
  json(text).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

function yamlForms(text: string): string[] {
  const double = stringify(text, { defaultStringType: "QUOTE_DOUBLE", lineWidth: 0 }).trim().slice(1, -1);
  return [double, text.replace(/'/g, "''")];
}

function urlForms(text: string): string[] {
  try {
    const component = encodeURIComponent(text);
    return [component, component.replace(/%20/g, "+"), encodeURI(text)];
  } catch {
    return []; // a lone surrogate: no URL spells it
  }
}

const base64 = (text: string) => Buffer.from(text, "utf8").toString("base64");
const base64url = (text: string) => Buffer.from(text, "utf8").toString("base64url");

/** A name made into a key or file name: lower case, runs of anything else than a-z0-9 as "-". */
const slug = (text: string) =>
  text
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");

/** Markdown's escape of prose (every ASCII punctuation character) and of a code span in a table. */
const markdownEscape = (text: string) => text.replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`);

/** Every form of `secret`, named, without repeats; only forms at least `min` units long. */
export function formsOf(secret: string, min = 4): { form: string; text: string }[] {
  const named: [string, string][] = [
    ["raw", secret],
    ["JSON-escaped", json(secret)],
    ["JSON-escaped twice", json(json(secret))],
    ["JSON-escaped (ASCII)", asciiJson(secret)],
    ...yamlForms(secret).map((text): [string, string] => ["YAML-escaped", text]),
    ["HTML-escaped (Handlebars)", handlebarsEscape(secret)],
    ["HTML-escaped twice (Handlebars)", handlebarsEscape(handlebarsEscape(secret))],
    ["HTML-escaped (escapeHtml)", plainHtmlEscape(secret)],
    ["HTML-escaped twice (escapeHtml)", plainHtmlEscape(plainHtmlEscape(secret))],
    ["HTML-escaped (Handlebars), then escapeHtml", plainHtmlEscape(handlebarsEscape(secret))],
    ["markdown-escaped", markdownEscape(secret)],
    ["code-span-escaped", secret.replace(/\|/g, "\\|")],
    ...urlForms(secret).map((text): [string, string] => ["URL-encoded", text]),
    ["upper-cased", secret.toUpperCase()],
    ["lower-cased", secret.toLowerCase()],
    ["upper-cased, HTML-escaped", handlebarsEscape(secret.toUpperCase())],
    ["HTML-escaped, upper-cased", handlebarsEscape(secret).toUpperCase()],
    ["lower-cased, HTML-escaped", handlebarsEscape(secret.toLowerCase())],
    ["slug (as file names and keys are made)", slug(secret)],
    ["base64", base64(secret)],
    ["base64 (unpadded)", base64(secret).replace(/=+$/, "")],
    ["base64url", base64url(secret)],
    ["sha256 (unkeyed)", createHash("sha256").update(secret).digest("hex")],
  ];
  const seen = new Set<string>();
  const out: { form: string; text: string }[] = [];
  for (const [form, text] of named) {
    if (text.length < min || seen.has(text)) continue;
    seen.add(text);
    out.push({ form, text });
  }
  return out;
}

export interface Leak {
  /** Where: "stdout of plan --verbose", a file's path. */
  where: string;
  secret: string;
  form: string;
  /** Up to 60 characters either side of the find. */
  context: string;
}

/** The shortest prefix of a secret that counts as a partial leak when a clip ends on it. */
const CLIPPED_PREFIX = 4;

/**
 * Every form of every secret in `text`, and every clip ("…", "(N more characters)") that ends in a
 * prefix of a form (a partial leak): at most one find per secret and form.
 */
export function findLeaks(where: string, text: string, secrets: readonly string[]): Leak[] {
  const leaks: Leak[] = [];
  const around = (at: number, length: number) =>
    JSON.stringify(text.slice(Math.max(0, at - 60), at + length + 60));
  for (const secret of secrets) {
    for (const { form, text: shape } of formsOf(secret)) {
      const at = text.indexOf(shape);
      if (at >= 0) leaks.push({ where, secret, form, context: around(at, shape.length) });
      // A clipped prefix: the text before a clip mark ends with the start of the form.
      for (const mark of text.matchAll(/…|\(\d+ more characters\)/g)) {
        const before = text.slice(Math.max(0, mark.index - shape.length), mark.index).replace(/ $/, "");
        for (let length = Math.min(shape.length - 1, before.length); length >= CLIPPED_PREFIX; length -= 1) {
          if (before.endsWith(shape.slice(0, length))) {
            leaks.push({
              where,
              secret,
              form: `${form}, clipped to ${length} characters`,
              context: around(mark.index - length, length),
            });
            break;
          }
        }
      }
    }
  }
  return leaks;
}
