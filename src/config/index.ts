// loadConfig: files -> DesiredState. Reads the root file and its includes (globs relative to the
// including file, nested, each file once; a file that includes itself or one of the files that
// led to it is a cycle, an error), layers the selected environment's files over them,
// interpolates ${VAR}, validates every file against the schema and then cross-references the
// merged result. Every problem is collected with its position; any error means no result
// (ConfigError with all of them), never a partial one. Pure apart from reading files.

import { createHash } from "node:crypto";
import { existsSync, realpathSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { glob } from "tinyglobby";
import { isMap, isScalar, isSeq, visit } from "yaml";
import { ConfigError, NotiformError, type Problem } from "../errors.js";
import { canonicalJson } from "../kinds/canonical.js";
import type { KindModule } from "../kinds/kind.js";
import { KINDS, type Kind, registry } from "../kinds/registry.js";
import { visibleText } from "../sanitize.js";
import { collectResources, type FileResources } from "./collect.js";
import { didYouMean } from "./did-you-mean.js";
import { checkIncludePattern, distinctIncludeMatches } from "./include-scope.js";
import { interpolateFile } from "./interpolate.js";
import { combine, completeResources, layer } from "./merge.js";
import type { DesiredState, LoadOptions } from "./model.js";
import { checkSchema } from "./schema-check.js";
import { STEPS_COUNT } from "./section-scan.js";
import { textFileFields } from "./text-file-fields.js";
import { resolveTextFileRefs } from "./text-file-ref.js";
import { displayPath, positionAt, positionOfNode, readYamlFile, type YamlFile } from "./yaml-file.js";

export type { DesiredState, LoadOptions } from "./model.js";
export const DEFAULT_API_KEY_ENV = "NOTIFORM_API_KEY";
/** How many values one alias may expand to before a file is refused as an alias bomb. */
const MAX_ALIAS_COUNT = 1000;

interface LoadedFile {
  file: YamlFile;
  data: Record<string, unknown> | undefined;
  resources: FileResources | undefined;
}

interface Loader {
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
}

export async function loadConfig(
  options: LoadOptions,
): Promise<{ desired: DesiredState; warnings: Problem[] }> {
  const rootPath = resolve(options.cwd, options.configPath ?? "notiform.yaml");
  if (!existsSync(rootPath)) {
    throw new NotiformError(
      "CONFIG_NOT_FOUND",
      `config file ${displayPath(rootPath, options.cwd)} not found`,
      {
        hint: "Create notiform.yaml (see the README), pass --config FILE, or run `notiform export` to start from the live state.",
      },
    );
  }
  const loader: Loader = {
    cwd: options.cwd,
    onParsed: options.onParsed,
    vars: options.vars,
    problems: [],
    sensitive: new Set(),
    loaded: new Map(),
    project: options.allowIncludeOutside === true ? undefined : realpathSync(dirname(rootPath)),
    overlay: false,
  };
  const baseFiles = await loadTree(loader, rootPath, []);
  const root = loader.loaded.get(rootPath);
  const rootData = root?.data ?? {};

  let environment: Record<string, unknown> | undefined;
  let overlayFiles: LoadedFile[] = [];
  if (options.env !== undefined && root !== undefined && root.data !== undefined) {
    environment = selectEnvironment(root, options.env, loader.problems);
    if (environment !== undefined) overlayFiles = await loadOverlay(loader, root, options.env, environment);
  }

  // A duplicate is real whatever else is wrong, so it is always reported. References are checked
  // only when every file loaded: a file that failed would make its resources look missing.
  const base = combine(resourcesOf(baseFiles), loader.problems);
  const baseErrors = loader.problems.some((p) => p.severity === "error");
  const resources = layered(loader, base, overlayFiles, "", baseErrors, 0);
  if (options.env === undefined && options.allEnvironments === true && root?.data !== undefined) {
    // validate without --env: every environment layered over the base, each problem naming it.
    const environments = root.data.environments;
    for (const [name, value] of Object.entries(isRecord(environments) ? environments : {})) {
      const from = loader.problems.length;
      const files = await loadOverlay(loader, root, name, isRecord(value) ? value : {});
      layered(loader, base, files, ` (environment ${name})`, baseErrors, from);
      for (const problem of loader.problems.slice(from)) {
        if (!problem.message.includes(`(environment ${name})`))
          problem.message = `${problem.message} (environment ${name})`;
      }
    }
  }
  if (root !== undefined) root.file.doc = undefined;

  const problems = sortProblems(loader.problems);
  if (problems.some((p) => p.severity === "error"))
    throw new ConfigError(problems, undefined, [...loader.sensitive]);
  // After the config's own errors, which say more than a missing --env.
  if (options.env === undefined && options.allEnvironments !== true && root !== undefined)
    requireEnvironmentChoice(root);

  const organization = stringOf(environment?.organization) ?? stringOf(rootData.organization);
  const serverEnvironment = stringOf(environment?.serverEnvironment) ?? stringOf(rootData.serverEnvironment);
  const apiUrl = stringOf(environment?.apiUrl);
  const desired: DesiredState = {
    ...(organization !== undefined ? { organization } : {}),
    ...(serverEnvironment !== undefined ? { serverEnvironment } : {}),
    ...(options.env !== undefined ? { environment: options.env } : {}),
    ...(apiUrl !== undefined ? { apiUrl } : {}),
    apiKeyEnv: stringOf(environment?.apiKeyEnv) ?? DEFAULT_API_KEY_ENV,
    resources,
    rootFile: rootPath,
    files: [...loader.loaded.keys()],
    digest: "",
    sensitive: [...loader.sensitive].sort(),
  };
  desired.digest = digestOf(desired);
  desired.shapeDigest = digestOf(desired, desired.sensitive);
  return { desired, warnings: problems };
}

/** sha256 of the canonical desired state: formatting, comments and file layout do not change it. */
export function digestOf(desired: DesiredState, blank: readonly string[] = []): string {
  const sections: Record<string, unknown[]> = {};
  for (const kind of KINDS) {
    const module = registry[kind] as KindModule<Kind>;
    sections[module.section.name] = desired.resources[kind]
      .map((item) => ({ id: module.identity(item.spec as never), spec: item.spec }))
      .sort((a, b) => compare(a.id, b.id))
      .map((item) => item.spec);
  }
  const canonical = canonicalJson({
    organization: desired.organization ?? null,
    // Only when set, so digests of configs without the guard stay as they were.
    ...(desired.serverEnvironment !== undefined ? { serverEnvironment: desired.serverEnvironment } : {}),
    environment: desired.environment ?? null,
    apiUrl: desired.apiUrl ?? null,
    apiKeyEnv: desired.apiKeyEnv,
    ...sections,
  });
  return createHash("sha256").update(blankOut(canonical, blank)).digest("hex");
}

/** `canonical` with each value (as JSON text holds it) replaced by one marker, longest first. */
function blankOut(canonical: string, values: readonly string[]): string {
  let out = canonical;
  for (const value of [...values].sort((a, b) => b.length - a.length)) {
    const inner = JSON.stringify(value).slice(1, -1);
    if (inner !== "") out = out.split(inner).join("\u0000");
  }
  return out;
}

/** An environment's include files: overlays, checked as such (see checkSchema). */
async function loadOverlay(
  loader: Loader,
  root: LoadedFile,
  name: string,
  environment: Record<string, unknown>,
): Promise<LoadedFile[]> {
  const position = (index: number) => positionAt(root.file, ["environments", name, "include", index]);
  loader.overlay = true;
  try {
    return await loadIncludes(loader, dirname(root.file.path), globsOf(environment.include), position, [
      root.file.path,
    ]);
  } finally {
    loader.overlay = false;
  }
}

/**
 * Overlay files over the base; then completeness and cross-references of the result, unless the
 * base or this overlay's files (their problems from index `from` on) already failed.
 */
function layered(
  loader: Loader,
  base: ReturnType<typeof combine>,
  files: LoadedFile[],
  label: string,
  baseErrors: boolean,
  from: number,
): ReturnType<typeof combine> {
  const errorsSoFar = baseErrors || loader.problems.slice(from).some((p) => p.severity === "error");
  const overlay = combine(resourcesOf(files), loader.problems);
  const resources = completeResources(layer(base, overlay), errorsSoFar ? [] : loader.problems, label);
  if (!errorsSoFar) {
    for (const kind of KINDS) registry[kind].checkReferences?.(resources, loader.problems);
  }
  return resources;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Load a file and, depth first, what it includes. `chain`: the files that included it, root first. */
async function loadTree(loader: Loader, path: string, chain: string[]): Promise<LoadedFile[]> {
  // A file reached again by another route (two globs, two parents) is loaded once; only a
  // file reached again through its own includes is a cycle (reported by loadIncludes).
  if (loader.loaded.has(path)) return [];
  const isRoot = chain.length === 0;
  const file = await readYamlFile(path, loader.cwd, loader.problems);
  const entry: LoadedFile = { file, data: undefined, resources: undefined };
  loader.loaded.set(path, entry);
  if (file.doc === undefined) {
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
  interpolateFile(file, loader.vars, loader.sensitive, loader.problems);
  const contents = file.doc.contents;
  if (contents !== null && !isMap(contents)) {
    loader.problems.push({
      severity: "error",
      rule: "schema",
      message: `${file.rel} must be a mapping of sections (version, topics, workflows, ...), not ${isSeq(contents) ? "a list" : "a single value"}`,
      pos: positionAt(file, []),
    });
    return [entry];
  }
  let data: Record<string, unknown>;
  try {
    data = (file.doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) as Record<string, unknown> | null) ?? {};
  } catch {
    // toJS throws only when the parser's alias limit trips: a few lines of anchors and aliases can expand into billions of
    // values (an "alias bomb"); the limit holds and the file is refused.
    loader.problems.push({
      severity: "error",
      rule: "yaml-syntax",
      message: `YAML: the aliases in this file expand into too many values (more than ${MAX_ALIAS_COUNT} per alias); refusing to load it`,
      pos: firstAliasPosition(file),
    });
    return [entry];
  }
  entry.data = data;
  checkSchema(file, data, loader.problems, loader.sensitive, loader.overlay);
  await resolveTextFileRefs(
    { file, project: loader.project, cwd: loader.cwd },
    data,
    textFileFields(),
    loader.problems,
  );
  checkRootOnly(file, data, isRoot, loader.problems);
  // Collected even when the schema failed, so duplicates are reported too; any error means
  // no result, so nothing of an invalid file can reach the desired state.
  entry.resources = collectResources(file, data);

  // Includes are followed even when this file has schema problems: the user sees every file's
  // problems at once (globsOf ignores an include value of the wrong type, already reported).
  const included = await loadIncludes(
    loader,
    dirname(path),
    globsOf(data.include),
    (index) => positionAt(file, typeof data.include === "string" ? ["include"] : ["include", index]),
    [...chain, path],
  );
  // Positions are in the collected resources now; the tree is the biggest thing in memory.
  if (!isRoot) file.doc = undefined;
  return [entry, ...included];
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

async function loadIncludes(
  loader: Loader,
  base: string,
  patterns: string[],
  position: (index: number) => Problem["pos"],
  chain: string[],
): Promise<LoadedFile[]> {
  const out: LoadedFile[] = [];
  for (const [index, pattern] of patterns.entries()) {
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
        message: `include "${pattern}" matches no file`,
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

function checkRootOnly(
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

/**
 * A config with environments names no default one: without --env the base alone would be planned
 * against whatever NOTIFORM_API_KEY reaches, so the run is refused, naming the choices.
 */
function requireEnvironmentChoice(root: LoadedFile): void {
  const environments = root.data?.environments;
  if (!isRecord(environments)) return;
  const names = Object.keys(environments).map(visibleText);
  if (names.length === 0) return;
  throw new NotiformError(
    "USAGE",
    `${root.file.rel} defines environments (${names.join(", ")}): choose one with --env`,
    {
      hint: `Run it again with --env ${names.join(" or --env ")}. There is no default environment, so that no run reaches one by accident.`,
      pos: positionAt(root.file, ["environments"], true),
    },
  );
}

function selectEnvironment(
  root: LoadedFile,
  name: string,
  problems: Problem[],
): Record<string, unknown> | undefined {
  const environments = root.data?.environments as Record<string, Record<string, unknown>> | undefined;
  if (environments === undefined) {
    problems.push({
      severity: "error",
      rule: "unknown-environment",
      message: `--env ${visibleText(name)} was given, but ${root.file.rel} defines no environments`,
      pos: positionAt(root.file, []),
    });
    return undefined;
  }
  // Own keys only: `--env constructor` or `toString` must not find Object.prototype's members.
  const selected = Object.hasOwn(environments, name) ? environments[name] : undefined;
  if (selected === undefined) {
    const names = Object.keys(environments);
    problems.push({
      severity: "error",
      rule: "unknown-environment",
      message: `environment "${visibleText(name)}" is not defined (defined: ${names.map(visibleText).join(", ") || "none"})${didYouMean(visibleText(name), names.map(visibleText))}`,
      pos: positionAt(root.file, ["environments"], true),
    });
    return undefined;
  }
  return selected ?? {};
}

function resourcesOf(files: LoadedFile[]): FileResources[] {
  return files.flatMap((f) => (f.resources ? [f.resources] : []));
}

function globsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function stringOf(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function sortProblems(problems: Problem[]): Problem[] {
  return [...problems].sort(
    (a, b) => compare(a.pos.file, b.pos.file) || a.pos.line - b.pos.line || a.pos.col - b.pos.col,
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
