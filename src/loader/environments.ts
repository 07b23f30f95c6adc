import { dirname } from "node:path";
import { didYouMean } from "../config/did-you-mean.js";
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
 * Overlay files over the base; then completeness and cross-references of the result, unless the
 * base or this overlay's files (their problems from index `from` on) already failed.
 */
export function layered(
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
