// What a real server stores as a new layout's variables. `POST /v1/layouts` does not keep the
// variables sent: it derives the list from the content (every name used, `body` aside, in order,
// duplicates kept; r4-40 -> r4-44), and those sent only give `defaultValue` and `required` to
// the names the content uses (CreateLayoutUseCase in Novu's source). `PATCH` keeps them as sent.
// So a create whose derived list would differ from the config's is followed by a PATCH of the
// variables. The prediction is deliberately narrow: only content whose every mustache is a plain
// `{{name}}` or `{{{name}}}` is predicted; for anything else (blocks, helpers, comments) the
// PATCH is always sent, which costs one request and is never wrong. Pure.

import type { JsonValue } from "../../canonical.js";

/** Every `{{ ... }}` or `{{{ ... }}}` of a text, with what is inside. */
const MUSTACHE = /\{\{(\{?)([^}]*)\}?\}\}/g;
const PLAIN_NAME = /^\s*([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*)\s*$/;

/** The names a server derives from `content`, or undefined when notiform does not predict it. */
function derivedNames(content: string): string[] | undefined {
  const names: string[] = [];
  for (const match of content.matchAll(MUSTACHE)) {
    const name = PLAIN_NAME.exec(match[2] ?? "")?.[1];
    if (name === undefined || name === "this" || name === "else") return undefined;
    if (name !== "body") names.push(name);
  }
  // A mustache the pattern did not take whole (an unclosed one, a `}` inside) is not predicted.
  const rest = content.replace(MUSTACHE, "");
  if (rest.includes("{{")) return undefined;
  return names;
}

/**
 * Whether a create of a layout with `content` and the config's canonical `variables` (each
 * `{name, type, required, defaultValue}`, as the plan compares them) would store exactly those
 * variables on a real server; false when it would not, or notiform cannot tell.
 */
export function createKeepsVariables(content: string, variables: readonly JsonValue[]): boolean {
  const names = derivedNames(content);
  if (names === undefined) return false;
  const given = variables as readonly {
    name: string;
    type: string;
    required: boolean;
    defaultValue: unknown;
  }[];
  const byName = new Map<string, (typeof given)[number]>();
  for (const variable of given) if (!byName.has(variable.name)) byName.set(variable.name, variable);
  if (names.length !== given.length) return false;
  return names.every((name, index) => {
    const wanted = given[index];
    // The first sent variable of the name gives its defaultValue and required.
    const source = byName.get(name);
    return (
      wanted !== undefined &&
      wanted.name === name &&
      wanted.type === "String" &&
      wanted.required === (source?.required ?? false) &&
      JSON.stringify(wanted.defaultValue) === JSON.stringify(source?.defaultValue ?? "")
    );
  });
}
