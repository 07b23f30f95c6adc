import { dirname, resolve } from "node:path";
import { glob } from "tinyglobby";
import { type Alias, isMap, isScalar, isSeq, visit } from "yaml";
import { resolveDataFileRefs } from "../config/data-file-ref.js";
import { displayPath } from "../config/display-path.js";
import { plainValue } from "../config/fast-yaml.js";
import {
  checkIncludePattern,
  distinctIncludeMatches,
  MAX_INCLUDE_PATTERN,
  shown,
} from "../config/include-scope.js";
import { interpolateFile, YAML_VALUE } from "../config/interpolate.js";
import type { LoadOptions } from "../config/model.js";
import { STEPS_COUNT } from "../config/section-scan.js";
import { resolveTextFileRefs, type TextBudget } from "../config/text-file-ref.js";
import { positionAt, positionOfNode, readYamlFile, type YamlFile } from "../config/yaml-file.js";
import type { Problem } from "../errors.js";
import { KINDS, registry } from "../kinds/registry.js";
import { collectResources, type FileResources } from "./collect.js";
import { checkSchema } from "./schema-check.js";
import { checkTemplates, templateSites } from "./template-checks.js";
import { dataFileFields, textFileFields } from "./text-file-fields.js";

const MAX_ALIAS_COUNT = 1000;

export interface LoadedFile {
  file: YamlFile;
  data: Record<string, unknown> | undefined;
  resources: FileResources | undefined;
}

export interface Loader {
  cwd: string;
  onParsed: LoadOptions["onParsed"];
  vars: LoadOptions["vars"];
  problems: Problem[];
  sensitive: Set<string>;
  loaded: Map<string, LoadedFile>;
  /** Includes must stay inside this directory (the root file's, symlinks resolved) unless allowed. */
  project: string | undefined;
  /** Loading an environment's overlay files (see checkSchema). */
  overlay: boolean;
  /** What the `{ file: }` references of every file loaded bring in, against one total. */
  textBudget: TextBudget;
  /**
   * A file could not be read as a mapping of sections: its entries are unknown, so a reference
   * to one of them cannot be called missing.
   */
  incomplete: boolean;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Load a file and, depth first, what it includes. `chain`: the files that included it, root first. */
export async function loadTree(loader: Loader, path: string, chain: string[]): Promise<LoadedFile[]> {
  // A file reached again by another route (two globs, two parents) is loaded once; only a
  // file reached again through its own includes is a cycle (reported by loadIncludes).
  if (loader.loaded.has(path)) return [];
  const isRoot = chain.length === 0;
  const file = await readYamlFile(path, loader.cwd, loader.problems);
  const entry: LoadedFile = { file, data: undefined, resources: undefined };
  loader.loaded.set(path, entry);
  if (file.doc === undefined) {
    // An empty file holds no entries (that is known); one that could not be read, unknown ones.
    if (!file.empty) loader.incomplete = true;
    if (isRoot && file.empty) {
      loader.problems.push({
        severity: "error",
        rule: "schema",
        message: `${file.rel} is empty: the root file needs at least "version: 1"`,
        pos: { file: file.rel, line: 1, col: 1 },
      });
    }
    return [entry];
  }
  if (loader.onParsed !== undefined) loader.onParsed(sectionCounts(file.doc.contents), path);
  const from = loader.problems.length;
  interpolateFile(file, loader.vars, loader.sensitive, loader.problems);
  // A value JSON cannot hold (a tag, a collection key, NaN): its data would not be what was written.
  if (loader.problems.slice(from).some((problem) => problem.rule === YAML_VALUE)) {
    loader.incomplete = true;
    return [entry];
  }
  const contents = file.doc.contents;
  if (contents !== null && !isMap(contents)) {
    loader.problems.push({
      severity: "error",
      rule: "schema",
      message: `${file.rel} must be a mapping of sections (version, topics, workflows, ...), not ${isSeq(contents) ? "a list" : "a single value"}`,
      pos: positionAt(file, []),
    });
    loader.incomplete = true;
    return [entry];
  }
  let data: Record<string, unknown>;
  try {
    // A fast-path tree holds no aliases: nothing for the alias limit to guard.
    const js = file.fast ? plainValue(file.doc.contents) : file.doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    data = (js as Record<string, unknown> | null) ?? {};
  } catch (error) {
    // toJS throws when the parser's alias limit trips (a few lines of anchors and aliases can
    // expand into billions of values, an "alias bomb": the limit holds and the file is refused),
    // or at an alias naming no anchor defined before it.
    const unresolved = /^Unresolved alias/.test(error instanceof Error ? error.message : "");
    const alias = unresolved ? unresolvedAlias(file) : undefined;
    loader.problems.push({
      severity: "error",
      rule: "yaml-syntax",
      message: unresolved
        ? `YAML: ${alias === undefined ? "an alias" : `the alias *${alias.source}`} refers to no anchor defined before it`
        : `YAML: the aliases in this file expand into too many values (more than ${MAX_ALIAS_COUNT} per alias); refusing to load it`,
      pos: alias !== undefined ? positionOfNode(file, alias) : firstAliasPosition(file),
    });
    loader.incomplete = true;
    return [entry];
  }
  entry.data = data;
  // A value whose ${VAR} could not be resolved still holds its raw text: what the schema says of
  // that text (a key's pattern, an enum) is the same mistake again, told once, by interpolation.
  const unresolved = loader.problems
    .slice(from)
    .flatMap((p) => (p.rule === "interpolation" && p.field !== undefined ? [p.field] : []));
  const schemaProblems: Problem[] = [];
  checkSchema(file, data, schemaProblems, loader.sensitive, loader.overlay);
  for (const problem of schemaProblems)
    if (!unresolved.some((field) => problem.field !== undefined && isUnder(problem.field, field)))
      loader.problems.push(problem);
  const templates = templateSites(file, data);
  // Nor is a `{ file: }` whose path did not resolve read: it would be "does not exist" again.
  const refProblems: Problem[] = [];
  await resolveTextFileRefs(
    { file, project: loader.project, cwd: loader.cwd, budget: loader.textBudget },
    data,
    textFileFields(),
    refProblems,
  );
  await resolveDataFileRefs(
    { file, project: loader.project, cwd: loader.cwd, budget: loader.textBudget },
    data,
    dataFileFields(),
    refProblems,
  );
  for (const problem of refProblems)
    if (!unresolved.some((field) => problem.field !== undefined && isUnder(field, problem.field)))
      loader.problems.push(problem);
  await checkTemplates(file, templates, loader.cwd, loader.problems);
  checkRootOnly(file, data, isRoot, loader.problems);
  // Collected even when the schema failed, so duplicates and the later checks are reported too
  // (the faulty fields flagged and left out); any error means no result, so nothing of an
  // invalid file can reach the desired state. Only errors flag a field: a warning's field (a
  // template variable no preview example supplies) is valid, and its value is what the user wrote.
  const faults = loader.problems
    .slice(from)
    .flatMap((p) => (p.severity === "error" && p.field !== undefined ? [p.field] : []));
  entry.resources = collectResources(file, data, faults);
  // An entry whose identity was refused (or that is no mapping) is an entry nobody can name:
  // a reference to it cannot be called missing either.
  if (faults.some(refusesIdentity)) loader.incomplete = true;

  // Includes are followed even when this file has schema problems: the user sees every file's
  // problems at once (globsOf ignores an include value of the wrong type, already reported).
  const includeField = (index: number) =>
    typeof data.include === "string" ? "include" : `include[${index}]`;
  const included = await loadIncludes(
    loader,
    dirname(path),
    globsOf(data.include),
    (index) => positionAt(file, typeof data.include === "string" ? ["include"] : ["include", index]),
    [...chain, path],
    // A pattern whose ${VAR} did not resolve is not followed: its raw text matches nothing, told
    // again as "matches no file".
    (index) => unresolved.some((field) => isUnder(includeField(index), field)),
  );
  // Positions are in the collected resources now; the tree is the biggest thing in memory.
  if (!isRoot) file.doc = undefined;
  return [entry, ...included];
}

/** Each list section's identity fields ("workflows" -> key, identifier). */
const IDENTITY_FIELDS = new Map(
  KINDS.map((kind) => [registry[kind].section.name, new Set(registry[kind].section.identityFields.flat())]),
);

/** Whether a refused field ("topics[2].key", "topics[2]") is an entry's identity or the entry. */
function refusesIdentity(field: string): boolean {
  const match = /^([^.[]+)\[\d+\](?:\.([^.[]+))?$/.exec(field);
  const names = match === null ? undefined : IDENTITY_FIELDS.get(match[1] as string);
  return names !== undefined && (match?.[2] === undefined || names.has(match[2]));
}

/** Whether `path` is `field` or lies under it ("steps[1].name" under "steps[1]"). */
function isUnder(path: string, field: string): boolean {
  return path === field || path.startsWith(`${field}.`) || path.startsWith(`${field}[`);
}

/** Top-level section name -> entries (a list's length; 1 for a mapping). */
function sectionCounts(contents: unknown): Map<string, number> {
  const counts = new Map<string, number>();
  if (!isMap(contents)) return counts;
  for (const pair of contents.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
    if (key === undefined) continue;
    counts.set(key, isSeq(pair.value) ? pair.value.items.length : isMap(pair.value) ? 1 : 0);
    if (key === "workflows" && isSeq(pair.value))
      counts.set(STEPS_COUNT, pair.value.items.filter((item) => isMap(item) && item.has("steps")).length);
  }
  return counts;
}

/** The first alias whose anchor is not defined before it. */
function unresolvedAlias(file: YamlFile): Alias | undefined {
  let found: Alias | undefined;
  if (file.doc !== undefined) {
    const doc = file.doc;
    visit(doc, {
      Alias(_key, node) {
        if (node.resolve(doc) === undefined) {
          found = node;
          return visit.BREAK;
        }
        return undefined;
      },
    });
  }
  return found;
}

function firstAliasPosition(file: YamlFile): Problem["pos"] {
  let found: Problem["pos"] | undefined;
  if (file.doc !== undefined) {
    visit(file.doc, {
      Alias(_key, node) {
        found = positionOfNode(file, node);
        return visit.BREAK;
      },
    });
  }
  return found ?? positionAt(file, []);
}

export async function loadIncludes(
  loader: Loader,
  base: string,
  patterns: string[],
  position: (index: number) => Problem["pos"],
  chain: string[],
  unresolved: (index: number) => boolean = () => false,
): Promise<LoadedFile[]> {
  const out: LoadedFile[] = [];
  for (const [index, pattern] of patterns.entries()) {
    if (unresolved(index)) continue;
    if (pattern.length > MAX_INCLUDE_PATTERN) {
      loader.problems.push({
        severity: "error",
        rule: "include-pattern",
        message: `include ${shown(pattern)} is longer than ${MAX_INCLUDE_PATTERN} characters, more than any path it could match`,
        pos: position(index),
      });
      continue;
    }
    const refused = checkIncludePattern(pattern, base, loader.project);
    if (refused !== undefined) {
      loader.problems.push({
        severity: "error",
        rule: "include-outside",
        message: refused,
        pos: position(index),
      });
      continue;
    }
    const globbed = (await glob(pattern, { cwd: base, absolute: true, onlyFiles: true, dot: false }))
      .map((m) => resolve(m))
      .sort();
    const { matches, problems } = distinctIncludeMatches(pattern, globbed, loader.project, loader.cwd);
    for (const message of problems)
      loader.problems.push({ severity: "error", rule: "include-outside", message, pos: position(index) });
    if (globbed.length === 0) {
      loader.problems.push({
        severity: "warning",
        rule: "include-empty",
        message: `include ${shown(pattern)} matches no file`,
        pos: position(index),
      });
    }
    for (const match of matches) {
      const cycleStart = chain.indexOf(match);
      if (cycleStart >= 0) {
        const loop = [...chain.slice(cycleStart), match].map((p) => displayPath(p, loader.cwd));
        loader.problems.push({
          severity: "error",
          rule: "include-cycle",
          message:
            loop.length === 2
              ? `include cycle: ${loop[0]} includes itself`
              : `include cycle: ${loop.join(" -> ")}`,
          pos: position(index),
        });
        continue;
      }
      // Not push(...): an included file may hold more items than the call stack has room for.
      for (const loaded of await loadTree(loader, match, chain)) out.push(loaded);
    }
  }
  return out;
}

export function checkRootOnly(
  file: YamlFile,
  data: Record<string, unknown>,
  isRoot: boolean,
  problems: Problem[],
): void {
  if (isRoot) {
    if (data.version === undefined) {
      problems.push({
        severity: "error",
        rule: "schema",
        message: 'the root file needs the config format version: add "version: 1"',
        pos: positionAt(file, []),
      });
    }
    return;
  }
  for (const key of ["organization", "environments"]) {
    if (key in data) {
      problems.push({
        severity: "error",
        rule: "root-only",
        message: `"${key}" is only allowed in the root file, not in an included file`,
        pos: positionAt(file, [key], true),
      });
    }
  }
}

export function resourcesOf(files: LoadedFile[]): FileResources[] {
  return files.flatMap((f) => (f.resources ? [f.resources] : []));
}

export function globsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

export function stringOf(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}
