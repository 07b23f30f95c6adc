// `export --env NAME`: one environment of a config that has several, written where that config
// keeps it. What is promoted from Development (workflows, layouts, notification groups) and what
// belongs to the organization (branding) is the base, written by the first environment exported
// into the directory; what each environment holds for itself (topics, tenants, overrides) goes
// to its own include files, env/NAME/, never into the base: a Production plan must not create
// Development's topics and tenants. The root file gets (or keeps) the `environments.NAME` entry;
// the environment's state file (notiform.NAME.state.json) records its ids and the API URL read.
import { existsSync, readFileSync } from "node:fs";
import { isMap, isSeq, parseDocument } from "yaml";
import { NotiformError } from "../errors.js";
import { KINDS, type Kind, registry } from "../kinds/registry.js";

/** The files of an export, placed for one environment. */
export interface EnvironmentLayout {
  /** File name (relative to the directory) -> document; the base files only for the first environment. */
  files: Map<string, Record<string, unknown>>;
  /** The root file's new text when it exists already (its environments entry added). */
  rootText: string | undefined;
  /** Whether the base (shared kinds, templates) is written: the first environment exported. */
  writesBase: boolean;
}

/** Where an environment's own include files go, relative to the root file. */
export function environmentDir(name: string): string {
  return `env/${name}`;
}

/**
 * Kinds whose entries every environment shares: promoted from Development (their own copy in
 * each environment arrives by promotion) or the organization's own (one mapping, e.g. branding).
 */
export function isShared(kind: Kind): boolean {
  return registry[kind].promotion !== undefined || registry[kind].section.shape === "single";
}

function kindOfDocument(document: Record<string, unknown>): Kind | undefined {
  const names = Object.keys(document);
  return KINDS.find((kind) => names.includes(registry[kind].section.name));
}

/**
 * Place the exported `files` (notiform.yaml first, then one file per section) for environment
 * `name`; `rootPath` is where the root file is, or will be.
 */
export function layoutForEnvironment(
  files: ReadonlyMap<string, Record<string, unknown>>,
  name: string,
  rootPath: string,
  rootShown: string,
  settings: Record<string, string> = {},
): EnvironmentLayout {
  const exportedRoot = files.get("notiform.yaml") ?? {};
  const own = environmentDir(name);
  const entry: Record<string, unknown> = {
    ...settings,
    ...(typeof exportedRoot.serverEnvironment === "string"
      ? { serverEnvironment: exportedRoot.serverEnvironment }
      : {}),
    include: [`${own}/*.yaml`],
  };
  const out = new Map<string, Record<string, unknown>>();
  const shared: string[] = [];
  for (const [file, document] of files) {
    if (file === "notiform.yaml") continue;
    const kind = kindOfDocument(document);
    if (kind !== undefined && isShared(kind)) {
      out.set(file, document);
      shared.push(file);
    } else out.set(`${own}/${file}`, document);
  }
  if (!existsSync(rootPath)) {
    const root: Record<string, unknown> = { version: 1 };
    if (exportedRoot.organization !== undefined) root.organization = exportedRoot.organization;
    if (shared.length > 0) root.include = shared;
    root.environments = { [name]: entry };
    return { files: new Map([["notiform.yaml", root], ...out]), rootText: undefined, writesBase: true };
  }
  // Another environment of a config written before: its root gains this environment's entry;
  // the base stays as it is (this environment receives it by promotion).
  const text = readFileSync(rootPath, "utf8");
  const document = parseDocument(text);
  const environments = document.get("environments", true);
  if (document.errors.length > 0 || !isMap(environments)) {
    throw new NotiformError(
      "USAGE",
      `${rootShown} has no environments: export --env adds an environment to a config whose environments it wrote`,
      {
        hint: `Export each environment with --env into a new directory (notiform export --dir DIR --env ${name}), or drop --env to export one environment's config.`,
      },
    );
  }
  if (!isMap(environments.get(name, true))) document.setIn(["environments", name], entry);
  else {
    // Kept as written (its key variable, its URL), its include made to reach env/NAME/.
    const include = document.getIn(["environments", name, "include"]);
    const globs = typeof include === "string" ? [include] : isSeq(include) ? include.toJSON() : [];
    if (!globs.includes(`${own}/*.yaml`))
      document.setIn(["environments", name, "include"], [...globs, `${own}/*.yaml`]);
  }
  for (const file of shared) out.delete(file);
  return { files: out, rootText: document.toString({ lineWidth: 0 }), writesBase: false };
}

/** Whether the root file at `rootPath` defines environment `name` (read leniently: loadConfig judges it). */
export function definesEnvironment(rootPath: string, name: string): boolean {
  const document = parseDocument(readFileSync(rootPath, "utf8"));
  const environments = document.get("environments", true);
  return isMap(environments) && environments.has(name);
}
