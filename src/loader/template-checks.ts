// Render checks, offline: every template field the kinds declare (KindModule.templateFields) is
// compiled with the server's engine and checked (renderer's checkTemplate): a parse error, a
// partial without fallback, a helper the server does not have. Each problem is placed where the
// user edits it: inside the template file for a `{ file: PATH }` text, else at the YAML value. A
// workflow with preview examples also gets a warning naming the variables its templates read that
// no example supplies. The engine loads only when a file holds a template. Problems are collected;
// any error fails the load (validate, and plan and apply before anything is written).

import { dirname, resolve } from "node:path";
import { displayPath } from "../config/display-path.js";
import { isTextFileRef, type TextFieldPath } from "../config/text-file-ref.js";
import type { YamlFile } from "../config/yaml-file.js";
import type { Position, Problem } from "../errors.js";
import type { KindModule, TemplateFieldSpec } from "../kinds/kind.js";
import type { Kind } from "../kinds/kinds.js";
import { KINDS, registry } from "../kinds/registry.js";
import { loadRenderer, type Renderer } from "../render/index.js";
import { nodeAt, sourceReader, yamlPosition } from "./template-positions.js";

type Segment = string | number;

/** One template field of one entry: where it sits in the file's data, and the file it came from. */
export interface TemplateSite {
  module: KindModule<Kind>;
  entry: unknown;
  field: TemplateFieldSpec;
  /** From the top of the file. */
  path: Segment[];
  /** The mapping that holds the value, and its key there: read again once `{ file: }` texts are in. */
  holder: Record<string, unknown>;
  key: string;
  /** The template file a `{ file: PATH }` reference names (absolute), for positions inside it. */
  origin?: string;
}

function keyOf(path: readonly Segment[]): string {
  let out = "";
  for (const s of path) out += typeof s === "number" ? `[${s}]` : out === "" ? s : `.${s}`;
  return out;
}

/** The values at `field` under `value` (whose path is `at`, extended in place and restored). */
function expand(
  value: unknown,
  field: TextFieldPath,
  depth: number,
  at: Segment[],
  found: (holder: Record<string, unknown>, key: string, path: Segment[]) => void,
): void {
  const head = field[depth];
  if (head === undefined || value === null || typeof value !== "object") return;
  if (head === "*") {
    if (!Array.isArray(value)) return;
    for (let index = 0; index < value.length; index += 1) {
      at.push(index);
      expand(value[index], field, depth + 1, at, found);
      at.pop();
    }
    return;
  }
  if (Array.isArray(value)) return;
  const holder = value as Record<string, unknown>;
  if (!Object.hasOwn(holder, head)) return;
  at.push(head);
  if (depth === field.length - 1) found(holder, head, [...at]);
  else expand(holder[head], field, depth + 1, at, found);
  at.pop();
}

/**
 * Every declared template field of every entry in one file's data, before its `{ file: PATH }`
 * texts are read: which fields are such references, and to which file.
 */
export function templateSites(file: YamlFile, data: Record<string, unknown>): TemplateSite[] {
  const sites: TemplateSite[] = [];
  for (const kind of KINDS) {
    const module = registry[kind] as KindModule<Kind>;
    if (module.templateFields === undefined) continue;
    const name = module.section.name;
    const section = data[name];
    const entries: [Segment[], unknown][] =
      module.section.shape === "list"
        ? Array.isArray(section)
          ? section.map((entry, index) => [[name, index], entry])
          : []
        : section === undefined
          ? []
          : [[[name], section]];
    for (const [entryPath, entry] of entries) {
      for (const field of module.templateFields) {
        expand(entry, field.path, 0, [...entryPath], (holder, key, path) => {
          const value = holder[key];
          const site: TemplateSite = { module, entry, field, path, holder, key };
          if (isTextFileRef(value)) site.origin = resolve(dirname(file.path), value.file);
          sites.push(site);
        });
      }
    }
  }
  return sites;
}

/** Check every template field of one file (after its `{ file: }` texts and examples were read). */
export async function checkTemplates(
  file: YamlFile,
  sites: readonly TemplateSite[],
  cwd: string,
  problems: Problem[],
): Promise<void> {
  const texts = sites.filter((site) => {
    const value = site.holder[site.key];
    return typeof value === "string" && value !== "";
  });
  if (texts.length === 0) return;
  const renderer = await loadRenderer();
  const read = sourceReader();
  const examples = new Map<unknown, Record<string, unknown>[]>();
  for (const site of texts) {
    const text = site.holder[site.key] as string;
    const place = (inside: { line: number; col: number } | undefined): Promise<Position> =>
      site.origin !== undefined
        ? Promise.resolve({
            file: displayPath(site.origin, cwd),
            line: inside?.line ?? 1,
            col: inside?.col ?? 1,
          })
        : yamlPosition(file, nodeAt(file, site.path), inside, read);
    const field = keyOf(site.path);
    // The field leads the message, as a schema problem's does (`layouts[0].content: ...`).
    for (const found of renderer.checkTemplate(text))
      problems.push({
        severity: "error",
        rule: found.rule,
        message: `${field}: ${found.message}`,
        pos: await place(found.pos),
        field,
      });
    const missing = unsuppliedVariables(renderer, text, site, examples);
    if (missing.length > 0)
      problems.push({
        severity: "warning",
        rule: "template-variables",
        message: `${field}: no preview example supplies ${missing.length === 1 ? "this variable" : "these variables"}: ${missing.join(", ")}`,
        pos: await place(undefined),
        field,
      });
  }
}

/** The variables `text` reads that none of its entry's preview examples supplies ([] without examples). */
function unsuppliedVariables(
  renderer: Renderer,
  text: string,
  site: TemplateSite,
  cache: Map<unknown, Record<string, unknown>[]>,
): string[] {
  let payloads = cache.get(site.entry);
  if (payloads === undefined) {
    payloads = examplePayloads(site.module, site.entry);
    cache.set(site.entry, payloads);
  }
  if (payloads.length === 0) return [];
  const supplied = new Set(site.field.supplied);
  return renderer
    .templateVariables(text)
    .filter((name) => !supplied.has(name.split(".")[0] ?? name))
    .filter((name) => !payloads.some((payload) => supplies(payload, name)));
}

function examplePayloads(module: KindModule<Kind>, entry: unknown): Record<string, unknown>[] {
  if (module.previewPayloads === undefined || entry === null || typeof entry !== "object") return [];
  try {
    return module.previewPayloads(entry as never);
  } catch {
    // An entry the schema refused (reported already) may not have the shape examples are read from.
    return [];
  }
}

/** Whether `payload` has a value at the dotted `path` (a string's `length` counts). */
function supplies(payload: unknown, path: string): boolean {
  let current = payload;
  for (const part of path.split(".")) {
    if (typeof current === "string" && part === "length") return true;
    if (current === null || typeof current !== "object" || !Object.hasOwn(current, part)) return false;
    current = (current as Record<string, unknown>)[part];
  }
  return current !== undefined;
}
