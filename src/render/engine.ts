// The engine: one isolated Handlebars environment with the server's helpers and nothing else,
// compiled templates cached by their text, and the server's post-pass (every `&#x27;` in the
// output becomes `'`). Handlebars is imported the first time anything renders or checks.
// Errors come out as RenderError with the engine's own message, as the server answers it.

import type HandlebarsNamespace from "handlebars";
import { registerServerHelpers } from "./helpers.js";
import { RenderError } from "./render-error.js";
import { skeletonOf, TEXTS_KEY } from "./skeleton.js";
import type { TemplatePosition } from "./types.js";

type Handlebars = typeof HandlebarsNamespace;
export type TemplateAst = hbs.AST.Program;
type RuntimeOptions = Handlebars.RuntimeOptions;

export interface Engine {
  /** Render `text` over `data` as the server does (escaping, helpers, the `&#x27;` post-pass). */
  render(text: string, data: unknown): string;
  /** The template's syntax tree (cached); throws a RenderError of kind "parse". */
  parse(text: string): TemplateAst;
}

/** Compiled templates kept per engine; a preview renders the same few texts thousands of times. */
const CACHE_LIMIT = 5000;

export async function loadEngine(): Promise<Engine> {
  const imported = (await import("handlebars")) as unknown as { default?: Handlebars } & Handlebars;
  const handlebars = (imported.default ?? imported).create();
  registerServerHelpers(handlebars);
  // `{{log x}}` writes to the server's console, never into a message; here it would write to
  // the CLI's output (a preview's JSON, or a payload value from the environment): it writes nowhere.
  handlebars.log = () => undefined;
  // Nor Handlebars' warning for a name it will not resolve from a prototype (`{{constructor}}`):
  // its logger (shared by every environment) writes it to the console, above its highest level.
  const logger = (imported.default ?? imported).logger as { level: number | string } | undefined;
  if (logger !== undefined) logger.level = 4;
  return createEngine(handlebars);
}

/** A text ready to render: its compiled skeleton and its literal texts (skeleton.ts). */
interface Compiled {
  template: HandlebarsTemplateDelegate;
  /** Runtime options: the server passes `{}` (defaults: no prototype access, no partials). */
  options: RuntimeOptions;
}

function createEngine(handlebars: Handlebars): Engine {
  const compiled = new Map<string, Compiled>();
  const bySkeleton = new Map<string, HandlebarsTemplateDelegate>();
  const parsed = new Map<string, TemplateAst>();

  function parsedOf(text: string): TemplateAst {
    let ast = parsed.get(text);
    if (ast === undefined) {
      if (parsed.size >= CACHE_LIMIT) parsed.clear();
      ast = parseWith(handlebars, text);
      parsed.set(text, ast);
    }
    return ast;
  }

  function compiledOf(text: string): Compiled {
    let entry = compiled.get(text);
    if (entry === undefined) {
      if (compiled.size >= CACHE_LIMIT) compiled.clear();
      if (bySkeleton.size >= CACHE_LIMIT) bySkeleton.clear();
      // Parse first (the checks' parse when they ran), so a syntax error surfaces with its
      // position rather than at first call. The skeleton's tree is a copy: the shared tree is not touched.
      const skeleton = skeletonOf(parsedOf(text));
      // Compiled from a parse of its own: the compiler may annotate the tree it is given.
      if (skeleton === undefined)
        entry = { template: handlebars.compile(parseWith(handlebars, text)), options: {} };
      else {
        let template = bySkeleton.get(skeleton.key);
        if (template === undefined) {
          template = handlebars.compile(skeleton.tree());
          bySkeleton.set(skeleton.key, template);
        }
        entry = { template, options: { data: { [TEXTS_KEY]: skeleton.texts } } };
      }
      compiled.set(text, entry);
    }
    return entry;
  }

  return {
    render(text, data) {
      // No mustache at all: the engine would print the text as it is.
      if (!text.includes("{{")) return text.includes("&#x27;") ? text.replaceAll("&#x27;", "'") : text;
      const { template, options } = compiledOf(text);
      let out: string;
      try {
        out = template(data, options);
      } catch (error) {
        throw toRenderError(error, "render");
      }
      return out.includes("&#x27;") ? out.replaceAll("&#x27;", "'") : out;
    },
    parse: parsedOf,
  };
}

function parseWith(handlebars: Handlebars, text: string): TemplateAst {
  try {
    return handlebars.parse(text);
  } catch (error) {
    throw toRenderError(error, "parse", lexerPosition(handlebars));
  }
}

/**
 * Where the parser stopped: its lexer's last token (the parser throws a bare Error whose message
 * holds only an excerpt). Mismatched closes carry their own position instead.
 */
function lexerPosition(handlebars: Handlebars): TemplatePosition | undefined {
  const lexer = (handlebars as unknown as { Parser?: { lexer?: { yylloc?: Record<string, unknown> } } })
    .Parser?.lexer;
  const loc = lexer?.yylloc;
  if (loc === undefined || typeof loc.first_line !== "number" || typeof loc.first_column !== "number")
    return undefined;
  return { line: loc.first_line, col: loc.first_column + 1 };
}

function toRenderError(error: unknown, kind: "parse" | "render", fallback?: TemplatePosition): RenderError {
  if (error instanceof RenderError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const located = error as { lineNumber?: unknown; column?: unknown };
  const at: TemplatePosition | undefined =
    typeof located.lineNumber === "number" && typeof located.column === "number"
      ? { line: located.lineNumber, col: located.column + 1 }
      : fallback;
  return new RenderError(kind, message, at === undefined ? {} : { at });
}
