// Live state -> config documents (`notiform export`), pure. Each kind exports its own section
// (registry order: groups before the workflows that name them by key, workflows before their
// overrides). Output is deterministic: sorted by identity, fixed key order, so exporting twice
// gives no diff. Defaults are left out, so the files stay short and, applied back, plan to
// nothing. Secrets never reach here: only names, flags and ids are exported.
import { InternalError } from "../errors.js";
import type { ExportKeys, KindModule, LiveSnapshot, StateChange } from "./kind.js";
import { KINDS, type Kind, registry } from "./registry.js";

export interface ExportDocuments {
  /** File name -> document (plain data, in key order); notiform.yaml first. */
  files: Map<string, Record<string, unknown>>;
  /** What the server would not let us read, for the user. */
  notExported: string[];
  /** Live values the config cannot hold: left out of the files, reported as warnings. */
  leftOut: string[];
  /** Entries exported per kind. */
  counts: Record<Kind, number>;
  /** The state file the exported config needs (group ids by key). */
  state: StateChange[];
  /** Text files the documents name as `{ file: PATH }` (templates): path -> text. */
  textFiles: Map<string, string>;
}

/** The header of every exported file; `schema` is the schema's path relative to the file. */
export function exportHeader(schema: string): string {
  return `# yaml-language-server: $schema=${schema}\n# Exported by notiform from the live state; edit freely, then \`notiform plan\`.\n`;
}

export function exportDocuments(live: LiveSnapshot): ExportDocuments {
  const keys = {} as ExportKeys;
  for (const kind of KINDS) keys[kind] = new Map();
  const files = new Map<string, Record<string, unknown>>();
  const notExported: string[] = [];
  const leftOut: string[] = [];
  const counts = {} as Record<Kind, number>;
  const state: StateChange[] = [];
  const textFiles = new Map<string, string>();
  const foldedPaths = new Map<string, string>();
  for (const kind of KINDS) {
    const module = registry[kind] as KindModule<Kind>;
    const section = module.exportSection(live.kinds[kind], keys);
    counts[kind] = 0;
    if (section === undefined) continue;
    if ("notExported" in section) {
      notExported.push(section.notExported);
      continue;
    }
    counts[kind] = Array.isArray(section.value) ? section.value.length : 1;
    for (const change of section.state ?? []) state.push(change);
    for (const message of section.leftOut ?? []) leftOut.push(message);
    for (const [path, text] of section.textFiles ?? []) {
      // Two files one name apart only in case are one file on macOS and Windows: one's content
      // would be lost. Each kind names its files uniquely; this holds them to it.
      const folded = path.toLowerCase();
      if (foldedPaths.has(folded))
        throw new InternalError(`export named two text files ${foldedPaths.get(folded)} and ${path}`);
      foldedPaths.set(folded, path);
      textFiles.set(path, text);
    }
    files.set(section.file, { [module.section.name]: section.value });
  }
  const root: Record<string, unknown> = { version: 1, organization: live.organization.name };
  // The environment guard: the exported config is for the environment the key reached.
  if (live.environment !== undefined) root.serverEnvironment = live.environment.name;
  if (files.size > 0) root.include = [...files.keys()];
  return {
    files: new Map([["notiform.yaml", root], ...files]),
    notExported,
    leftOut,
    counts,
    state,
    textFiles,
  };
}

export { slug } from "./export-keys.js";
