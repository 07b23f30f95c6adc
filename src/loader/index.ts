// loadConfig: files -> DesiredState. Reads the root file and its includes (globs relative to the
// including file, nested, each file once; a file that includes itself or one of the files that
// led to it is a cycle, an error), layers the selected environment's files over them,
// interpolates ${VAR}, validates every file against the schema and then cross-references the
// merged result. Every problem is collected with its position; any error means no result
// (ConfigError with all of them), never a partial one. Pure apart from reading files.

import { createHash } from "node:crypto";
import { existsSync, realpathSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { canonicalJson } from "../canonical.js";
import { displayPath } from "../config/display-path.js";
import type { DesiredState, LoadOptions } from "../config/model.js";
import { newTextBudget } from "../config/text-file-ref.js";
import { ConfigError, NotiformError, type Problem } from "../errors.js";
import type { KindModule } from "../kinds/kind.js";
import { KINDS, type Kind, registry } from "../kinds/registry.js";
import { DEFAULT_API_KEY_ENV } from "./defaults.js";
import {
  dropRepeats,
  layered,
  loadOverlay,
  requireEnvironmentChoice,
  selectEnvironment,
} from "./environments.js";
import { combine } from "./merge.js";
import { isRecord, type LoadedFile, type Loader, loadTree, resourcesOf, stringOf } from "./tree.js";

export type { DesiredState, LoadOptions } from "../config/model.js";
export { DEFAULT_API_KEY_ENV } from "./defaults.js";

/** How many values one alias may expand to before a file is refused as an alias bomb. */
const _MAX_ALIAS_COUNT = 1000;

export async function loadConfig(options: LoadOptions): Promise<{
  desired: DesiredState;
  warnings: Problem[];
  /** With allEnvironments: each environment's resources (the base with its overlay), by name. */
  environments?: Record<string, DesiredState["resources"]>;
}> {
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
    textBudget: newTextBudget(),
    incomplete: false,
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

  // Every problem of every file, then of the merged result, in one run (layered).
  const base = combine(resourcesOf(baseFiles), loader.problems);
  const resources = layered(loader, base, overlayFiles, "");
  const everyEnvironment: Record<string, DesiredState["resources"]> = Object.create(null);
  if (options.env === undefined && options.allEnvironments === true && root?.data !== undefined) {
    // validate without --env: every environment layered over the base, each problem naming it;
    // a mistake of the base files, met again in each environment, is told once.
    const environments = root.data.environments;
    for (const [name, value] of Object.entries(isRecord(environments) ? environments : {})) {
      const from = loader.problems.length;
      const files = await loadOverlay(loader, root, name, isRecord(value) ? value : {});
      everyEnvironment[name] = layered(loader, base, files, ` (environment ${name})`);
      dropRepeats(loader.problems, from);
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
  // One canonical text for both digests: the second only blanks the sensitive values out.
  const canonical = canonicalText(desired);
  desired.digest = sha256(canonical);
  desired.shapeDigest = sha256(blankOut(canonical, desired.sensitive));
  return options.allEnvironments === true && Object.keys(everyEnvironment).length > 0
    ? { desired, warnings: problems, environments: everyEnvironment }
    : { desired, warnings: problems };
}

/**
 * The canonical desired state, whose sha256 is its digest: formatting, comments and file layout
 * do not change it.
 */
function canonicalText(desired: DesiredState): string {
  const sections: Record<string, unknown[]> = {};
  for (const kind of KINDS) {
    const module = registry[kind] as KindModule<Kind>;
    sections[module.section.name] = desired.resources[kind]
      .map((item) => ({ id: module.identity(item.spec as never), spec: withoutLocal(item.spec, module) }))
      .sort((a, b) => compare(a.id, b.id))
      .map((item) => item.spec);
  }
  return canonicalJson({
    organization: desired.organization ?? null,
    // Only when set, so digests of configs without the guard stay as they were.
    ...(desired.serverEnvironment !== undefined ? { serverEnvironment: desired.serverEnvironment } : {}),
    environment: desired.environment ?? null,
    apiUrl: desired.apiUrl ?? null,
    apiKeyEnv: desired.apiKeyEnv,
    ...sections,
  });
}

/** An entry without the fields that stay on this machine (KindModule.localFields). */
function withoutLocal(spec: unknown, module: KindModule<Kind>): unknown {
  const local = module.localFields;
  if (local === undefined || spec === null || typeof spec !== "object") return spec;
  if (!local.some((field) => field in spec)) return spec;
  const copy = { ...(spec as Record<string, unknown>) };
  for (const field of local) delete copy[field];
  return copy;
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
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

function sortProblems(problems: Problem[]): Problem[] {
  return [...problems].sort(
    (a, b) => compare(a.pos.file, b.pos.file) || a.pos.line - b.pos.line || a.pos.col - b.pos.col,
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
