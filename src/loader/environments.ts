import { dirname } from "node:path";
import { didYouMean } from "../config/did-you-mean.js";
import { isRelated } from "../config/flagged.js";
import type { Desired, Resources } from "../config/model.js";
import { where } from "../config/where.js";
import { positionAt } from "../config/yaml-file.js";
import { NotiformError, type Problem } from "../errors.js";
import { KINDS, registry } from "../kinds/registry.js";
import { visibleText } from "../sanitize.js";
import { combine, completeResources, layer } from "./merge.js";

import { globsOf, isRecord, type LoadedFile, type Loader, loadIncludes, resourcesOf } from "./tree.js";

/** An environment's include files: overlays, checked as such (see checkSchema). */
export async function loadOverlay(
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
 * Overlay files over the base; then completeness and the kinds' checks of the result. They run
 * even when files already failed, so one run reports every mistake: over the faulty fields the
 * checks stay quiet (Source.flagged: told once, by the schema), and a reference is not called
 * missing when a file could not be read at all. On a config with errors the checks are best
 * effort: one that trips over a value the schema refused does not hide the errors found.
 */
export function layered(
  loader: Loader,
  base: ReturnType<typeof combine>,
  files: LoadedFile[],
  label: string,
): ReturnType<typeof combine> {
  const overlay = combine(resourcesOf(files), loader.problems);
  const found: Problem[] = [];
  const merged = layer(base, overlay);
  const resources = completeResources(merged, found, label);
  const failed = loader.problems.some((p) => p.severity === "error");
  try {
    for (const kind of KINDS) registry[kind].checkReferences?.(resources, found);
  } catch (error) {
    if (!failed) throw error;
  }
  const quiet = flaggedPositions(merged);
  for (const problem of found) {
    if (failed && quiet.has(where(problem.pos))) continue;
    if (loader.incomplete && problem.rule === "unknown-reference") continue;
    loader.problems.push(problem);
  }
  return resources;
}

/** Where the flagged fields of every entry sit (and the entry itself, when it is flagged whole). */
function flaggedPositions(resources: Resources): Set<string> {
  const out = new Set<string>();
  for (const kind of KINDS) {
    for (const { source } of resources[kind] as Desired<unknown>[]) {
      const flagged = source.flagged;
      if (flagged === undefined) continue;
      if (flagged.includes("")) out.add(where(source.pos));
      for (const [field, pos] of Object.entries(source.fields))
        if (flagged.some((f) => isRelated(f, field))) out.add(where(pos));
    }
  }
  return out;
}

/**
 * The problems found from index `from` on that repeat one found before it (a base file's
 * mistake met again in each environment) are dropped: each is told once.
 */
export function dropRepeats(problems: Problem[], from: number): void {
  const key = (p: Problem) => `${where(p.pos)} ${p.rule} ${p.message}`;
  const seen = new Set(problems.slice(0, from).map(key));
  const fresh = problems.slice(from).filter((p) => {
    const k = key(p);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  // Not splice(...fresh): a config can hold more problems than the call stack has room for.
  problems.length = from;
  for (const problem of fresh) problems.push(problem);
}

/**
 * A config with environments names no default one: without --env the base alone would be planned
 * against whatever NOTIFORM_API_KEY reaches, so the run is refused, naming the choices.
 */
export function requireEnvironmentChoice(root: LoadedFile): void {
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

export function selectEnvironment(
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
