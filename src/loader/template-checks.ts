// Render checks, offline: every template field the kinds declare (KindModule.templateFields) is
// compiled with the server's engine and checked (renderer's checkTemplate): a parse error, a
// partial without fallback, a helper the server does not have. Each problem is placed where the
// user edits it: inside the template file for a `{ file: PATH }` text, else at the YAML value. A
// workflow with preview examples also gets a warning naming the variables its templates read that
// no example supplies. The engine loads only when a file holds a template. Problems are collected;
// any error fails the load (validate, and plan and apply before anything is written).

import { dirname, resolve } from "node:path";
import { isTextFileRef, type TextFieldPath } from "../config/text-file-ref.js";
import { displayPath, type YamlFile } from "../config/yaml-file.js";
import type { Position, Problem } from "../errors.js";
import type { KindModule, TemplateFieldSpec } from "../kinds/kind.js";
import type { Kind } from "../kinds/kinds.js";
import { KINDS, registry } from "../kinds/registry.js";
import { loadRenderer, type Renderer } from "../render/index.js";
import { nodeAt, sourceReader, yamlPosition } from "./template-positions.js";

type Segment = string | number;

interface Site {
  module: KindModule<Kind>;
  entry: unknown;
  field: TemplateFieldSpec;
  /** From the top of the file. */
  path: Segment[];
}

/** The template files `{ file: PATH }` references name, by field path; read before they are replaced. */
export type TemplateOrigins = Map<string, string>;

function keyOf(path: readonly Segment[]): string {
  let out = "";
  for (const s of path) out += typeof s === "number" ? `[${s}]` : out === "" ? s : `.${s}`;
  return out;
}

function expand(
  value: unknown,
  field: TextFieldPath,
  at: Segment[],
  out: { path: Segment[]; value: unknown }[],
) {
  const [head, ...rest] = field;
  if (head === undefined) {
    out.push({ path: at, value });
    return;
  }
  if (head === "*") {
    if (Array.isArray(value))
      value.forEach((item, index) => {
        expand(item, rest, [...at, index], out);
      });
    return;
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) return;
  expand((value as Record<string, unknown>)[head], rest, [...at, head], out);
}

/** Every declared template field of every entry in one file's data, with its value. */
function sitesOf(data: Record<string, unknown>): { site: Site; value: unknown }[] {
  const found: { site: Site; value: unknown }[] = [];
  for (const kind of KINDS) {
    const module = registry[kind] as KindModule<Kind>;
    if (module.templateFields === undefined) continue;
    const section = data[module.section.name];
    const entries: [Segment[], unknown][] =
      module.section.shape === "list"
        ? Array.isArray(section)
          ? section.map((entry, index) => [[module.section.name, index], entry])
          : []
        : section === undefined
          ? []
          : [[[module.section.name], section]];
    for (const [entryPath, entry] of entries) {
      for (const field of module.templateFields) {
        const values: { path: Segment[]; value: unknown }[] = [];
        expand(entry, field.path, entryPath, values);
        for (const { path, value } of values) found.push({ site: { module, entry, field, path }, value });
      }
    }
  }
  return found;
}

/** Before the `{ file: PATH }` texts are read: which template fields are references, to which file. */
export function templateOrigins(file: YamlFile, data: Record<string, unknown>): TemplateOrigins {
  const origins: TemplateOrigins = new Map();
  for (const { site, value } of sitesOf(data))
    if (isTextFileRef(value)) origins.set(keyOf(site.path), resolve(dirname(file.path), value.file));
  return origins;
}

/** Check every template field of one file (after its `{ file: }` texts and examples were read). */
export async function checkTemplates(
  file: YamlFile,
  data: Record<string, unknown>,
  origins: TemplateOrigins,
  cwd: string,
  problems: Problem[],
): Promise<void> {
  const sites = sitesOf(data).filter((found) => typeof found.value === "string" && found.value !== "");
  if (sites.length === 0) return;
  const renderer = await loadRenderer();
  const read = sourceReader();
  const examples = new Map<unknown, Record<string, unknown>[]>();
  for (const { site, value } of sites) {
    const text = value as string;
    const origin = origins.get(keyOf(site.path));
    const place = (inside: { line: number; col: number } | undefined): Promise<Position> =>
      origin !== undefined
        ? Promise.resolve({ file: displayPath(origin, cwd), line: inside?.line ?? 1, col: inside?.col ?? 1 })
        : yamlPosition(file, nodeAt(file, site.path), inside, read);
    const field = keyOf(site.path);
    for (const found of renderer.checkTemplate(text))
      problems.push({
        severity: "error",
        rule: found.rule,
        message: found.message,
        pos: await place(found.pos),
        field,
      });
    const missing = unsuppliedVariables(renderer, text, site, examples);
    if (missing.length > 0)
      problems.push({
        severity: "warning",
        rule: "template-variables",
        message: `no preview example supplies ${missing.length === 1 ? "this variable" : "these variables"}: ${missing.join(", ")}`,
        pos: await place(undefined),
        field,
      });
  }
}

/** The variables `text` reads that none of its entry's preview examples supplies ([] without examples). */
function unsuppliedVariables(
  renderer: Renderer,
  text: string,
  site: Site,
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
