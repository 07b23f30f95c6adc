// A new layout's variables as a real server derives them on `POST /v1/layouts`: read from the
// content's syntax tree by the rules the workflow captures show (observed-behaviour, "how variables
// are extracted"), without the system-variable filter: `{{path}}` and `{{{path}}}` add `path` as a
// String; a known helper adds its first argument; `#each x` adds `x` as an Array and its inner
// names prefixed `x.`, `#with x` only the prefixed names; `#if`/`#unless` add their argument as a
// Boolean and their inner names; other blocks add nothing; names starting with `@` are ignored.
// Plain names come first, then each/with blocks, then if/unless blocks, duplicates kept, `body`
// left out (r4-40 -> r4-44). The variables sent give `defaultValue` and `required` to the names
// the content uses; a name sent that the content does not use is dropped. Text that does not
// parse is refused as the server refuses it.
import type HandlebarsNamespace from "handlebars";
import { SERVER_HELPERS } from "../render/helper-names.js";
import { badRequest } from "./http-error.js";

interface Found {
  name: string;
  type: "String" | "Array" | "Boolean";
}

const KNOWN_HELPERS = new Set<string>([...SERVER_HELPERS, "i18n"]);

function pathOf(node: hbs.AST.Node | undefined): string | undefined {
  return node?.type === "PathExpression" ? (node as hbs.AST.PathExpression).original : undefined;
}

function found(statements: readonly hbs.AST.Statement[]): Found[] {
  const plain: Found[] = [];
  const loops: Found[] = [];
  const conditions: Found[] = [];
  for (const node of statements) {
    if (node.type === "MustacheStatement") {
      const mustache = node as hbs.AST.MustacheStatement;
      const path = pathOf(mustache.path);
      if (path === undefined) continue;
      if (mustache.params.length === 0 && (mustache.hash?.pairs.length ?? 0) === 0) {
        plain.push({ name: path, type: "String" });
        continue;
      }
      if (!KNOWN_HELPERS.has(path)) continue;
      const first = pathOf(mustache.params[0]);
      if (first !== undefined) plain.push({ name: first, type: "String" });
      if (path === "i18n")
        for (const pair of mustache.hash?.pairs ?? []) {
          const value = pathOf(pair.value);
          if (value !== undefined) plain.push({ name: value, type: "String" });
        }
    } else if (node.type === "BlockStatement") {
      const block = node as hbs.AST.BlockStatement;
      const helper = pathOf(block.path);
      const argument = pathOf(block.params[0]);
      if (argument === undefined) continue;
      const inner = found(block.program?.body ?? []);
      if (helper === "each") loops.push({ name: argument, type: "Array" });
      if (helper === "each" || helper === "with")
        for (const v of inner) loops.push({ ...v, name: `${argument}.${v.name}` });
      else if (helper === "if" || helper === "unless") {
        conditions.push({ name: argument, type: "Boolean" });
        for (const v of inner) conditions.push(v);
      }
    }
  }
  return plain.concat(loops, conditions).filter((v) => !v.name.startsWith("@"));
}

let handlebars: Promise<typeof HandlebarsNamespace> | undefined;

/** The engine a real server parses with, loaded on first use. */
export function loadHandlebars(): Promise<typeof HandlebarsNamespace> {
  handlebars ??= import("handlebars").then(
    (m) => ((m as { default?: typeof HandlebarsNamespace }).default ?? m) as typeof HandlebarsNamespace,
  );
  return handlebars;
}

/**
 * The texts of a workflow's steps a real server reads variables from on `POST` and `PUT
 * /v1/workflows` (ContentService.messagesTextIterator; variants are not read): in-app content and
 * CTA url, SMS content, push content and title, editor blocks' subject, urls and contents, any
 * other string content (an e-mail's subject is not read). One that does not parse is
 * `400 "Failed to extract variables"` (r4-62), before anything is written. Synchronous, on an
 * engine the handler loaded before it read the store (so no other request runs in between).
 */
export function checkStepTexts(engine: typeof HandlebarsNamespace, steps: unknown): void {
  if (!Array.isArray(steps)) return;
  const texts: unknown[] = [];
  for (const step of steps as { template?: Record<string, unknown> }[]) {
    const template = step?.template;
    if (template === null || typeof template !== "object") continue;
    const content = template.content;
    if (template.type === "in_app") {
      const cta = template.cta as { data?: { url?: unknown } } | undefined;
      texts.push(content, cta?.data?.url);
    } else if (template.type === "sms") texts.push(content);
    else if (template.type === "push") texts.push(content, template.title);
    else if (Array.isArray(content)) {
      texts.push(template.subject);
      for (const block of content as { url?: unknown; content?: unknown }[])
        texts.push(block?.url, block?.content);
    } else if (typeof content === "string") texts.push(content);
  }
  const wanted = texts.filter((text): text is string => typeof text === "string" && text !== "");
  for (const text of wanted) {
    try {
      engine.parseWithoutProcessing(text);
    } catch {
      throw badRequest("Failed to extract variables");
    }
  }
}

/** The variables a real server stores for a new layout of `content`, given those `sent`. */
export async function derivedLayoutVariables(
  content: string,
  sent: readonly { name: string; required?: boolean; defaultValue?: unknown }[],
): Promise<Record<string, unknown>[]> {
  let program: hbs.AST.Program;
  try {
    program = (await loadHandlebars()).parseWithoutProcessing(content);
  } catch {
    throw badRequest("Failed to extract variables");
  }
  return found(program.body)
    .filter((v) => v.name !== "body")
    .map((v) => {
      const given = sent.find((s) => s.name === v.name);
      return {
        name: v.name,
        type: v.type,
        defaultValue: given?.defaultValue ?? "",
        required: given?.required === true,
      };
    });
}
