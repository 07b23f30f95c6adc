// Arranging a config's meaning (arrangements.ts) in files: the root alone or with included files
// (a random include tree, each file named by its path or by a glob of its folder, includes in
// random orders, a section's entries spread over several files), templates out in files, values
// behind ${VAR}, and an environment overlay that gives what the base leaves out or overrides.
import { posix } from "node:path";
import type { KindModule } from "../../src/kinds/kind.js";
import { KINDS, type Kind, registry } from "../../src/kinds/registry.js";
import {
  type Emitted,
  emit,
  folderOf,
  freshPath,
  interpolated,
  type Meaning,
  newWriting,
  type Obj,
  pick,
  type Rng,
  rngOf,
  STYLES,
  type Style,
  shuffled,
  type Writing,
  writeEntry,
} from "./arrangements.js";
import type { Files, Json } from "./generated-config.js";

export const ENV = "stage";
export const ROOT = "notiform.yaml";

export interface Placed {
  section: string;
  identity: string;
  file: string;
  /** Where in that file's tree: "topics[2]", "branding". */
  at: string;
}

export interface Arrangement {
  files: Files;
  vars: Record<string, string>;
  env?: string;
  /** The YAML files, root first, in the order the loader reads them. */
  yaml: string[];
  /** Each YAML file's tree (as written) and style, and the lines its emitter knows. */
  trees: Map<string, Obj>;
  styles: Map<string, Style>;
  lines: Map<string, Emitted["lines"]>;
  /** Where each entry of the meaning is (its overlay entry, when it has one). */
  placed: Placed[];
  /** The values the loader must mask: those of the variables the files use. */
  sensitive: string[];
  writing: Writing;
}

export interface Options {
  /** Included files beside the root: at most this many (0: one file). */
  maxIncluded: number;
  minIncluded?: number;
  fileChance: number;
  varChance: number;
  overlay: boolean;
  styles?: readonly Style[];
}

export const kindOf = (section: string): Kind => {
  const kind = KINDS.find((k) => registry[k].section.name === section);
  if (kind === undefined) throw new Error(`no kind has the section ${section}`);
  return kind;
};
export const identityOf = (section: string, spec: unknown): string =>
  (registry[kindOf(section)] as KindModule<Kind>).identity(spec as never);

// ---------------------------------------------------------------------------------------------
// The overlay: per entry, nothing, a no-op, a field moved to it, a decoy in the base it
// overrides, a base field it sets to null (not managed), or the whole entry (a new identity)

const IDENTITY: Record<string, string[]> = {
  topics: ["key"],
  notificationGroups: ["key"],
  tenants: ["identifier"],
  layouts: ["identifier"],
  workflows: ["key", "identifier"],
  overrides: ["workflow", "tenant"],
  branding: [],
};
/** Required by the schema (beyond the identity): never left to the overlay alone, never null. */
const REQUIRED: Record<string, string[]> = {
  topics: ["name"],
  notificationGroups: ["name"],
  tenants: ["name"],
};
const flip = (v: Json | undefined) => v !== true;
const color = () => "#123456";
/** Valid values the base may hold for a field the overlay then overrides (valid alone, too). */
const DECOYS: Record<string, Record<string, (v: Json | undefined) => Json>> = {
  topics: { name: () => "Decoy name" },
  notificationGroups: { name: () => "Decoy" },
  tenants: { name: () => "Decoy", data: () => ({ decoy: true }) },
  layouts: {
    name: () => "Decoy",
    description: () => "decoy",
    content: () => "<p>decoy</p>{{{body}}}",
    variables: () => [],
    isDefault: () => false,
  },
  workflows: {
    name: () => "Decoy",
    description: () => "decoy",
    active: flip,
    critical: flip,
    tags: () => ["decoy"],
    data: () => ({ decoy: 1 }),
    steps: () => [],
  },
  overrides: { active: flip },
  branding: {
    color,
    fontColor: color,
    contentBackground: color,
    fontFamily: () => "Decoy",
    logo: () => "https://example.com/decoy.png",
    direction: (v) => (v === "rtl" ? "ltr" : "rtl"),
  },
};

interface Split {
  base: Obj | undefined;
  overlay: Obj | undefined;
}

function splitEntry(rng: Rng, section: string, entry: Obj, referenced: boolean): Split {
  const identity: Obj = {};
  for (const field of IDENTITY[section] ?? []) if (entry[field] !== undefined) identity[field] = entry[field];
  if (section === "workflows" && identity.key !== undefined && rng() < 0.5) delete identity.identifier;
  const fixed = new Set([...(IDENTITY[section] ?? []), ...(REQUIRED[section] ?? [])]);
  const decoys = DECOYS[section] ?? {};
  const op = rng();
  const present = Object.keys(entry).filter((f) => !(IDENTITY[section] ?? []).includes(f));
  if (op < 0.25) return { base: entry, overlay: undefined };
  // AVOID: `branding: {}` (no identity fields, so the no-op entry is empty): the schema refuses an
  // empty branding, in the base and in an overlay alike.
  if (op < 0.35) return { base: entry, overlay: section === "branding" ? undefined : identity };
  if (op < 0.45) {
    const same = present.filter(() => rng() < 0.5);
    const overlay = { ...identity, ...Object.fromEntries(same.map((f) => [f, entry[f] as Json])) };
    return { base: entry, overlay: Object.keys(overlay).length > 0 ? overlay : undefined };
  }
  if (op < 0.55 && !referenced && section !== "branding") return { base: undefined, overlay: entry };
  const base: Obj = { ...entry };
  const overlay: Obj = { ...identity };
  for (const field of shuffled(rng, [...present, ...Object.keys(decoys)]).slice(0, 2)) {
    if (field in overlay) continue;
    const value = entry[field];
    const decoy = decoys[field];
    const channels =
      value !== null && typeof value === "object" && !Array.isArray(value) && field === "preferenceSettings";
    if (channels) {
      // Channel by channel: the base holds some (or their opposites), the overlay the rest.
      const given = Object.entries(value as Obj);
      const inBase = given.filter(() => rng() < 0.5);
      base[field] = Object.fromEntries(inBase.map(([c, on]) => [c, rng() < 0.5 ? on : !on]));
      overlay[field] = Object.fromEntries(
        given.filter(([c, on]) => base[field] && (base[field] as Obj)[c] !== on),
      );
      if (rng() < 0.3) overlay[field] = value;
    } else if (value === undefined) {
      if (decoy === undefined || fixed.has(field)) continue;
      base[field] = decoy(undefined);
      overlay[field] = null;
    } else if (decoy !== undefined && rng() < 0.5) {
      base[field] = decoy(value);
      overlay[field] = value;
    } else if (!fixed.has(field)) {
      delete base[field];
      overlay[field] = value;
    }
  }
  // An emptied branding is left out of the base (the overlay's is then a new one).
  const emptied = section === "branding" && Object.keys(base).length === 0;
  return { base: emptied ? undefined : base, overlay: Object.keys(overlay).length > 0 ? overlay : undefined };
}

/** Identities other entries name: never moved to the overlay alone (the base must validate). */
function referencedIdentities(meaning: Meaning): Set<string> {
  const out = new Set<string>();
  for (const [section, entries] of meaning.sections)
    for (const e of entries) {
      if (section === "workflows") {
        if (typeof e.notificationGroup === "string") out.add(`notificationGroups ${e.notificationGroup}`);
        for (const step of (e.steps ?? []) as Obj[]) {
          const layout = (step.template as Obj | undefined)?.layout;
          if (typeof layout === "string") out.add(`layouts ${layout}`);
        }
      }
      if (section === "overrides") {
        out.add(`workflows ${e.workflow as string}`);
        out.add(`tenants ${e.tenant as string}`);
      }
    }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The arrangement

export function arrange(meaning: Meaning, seed: number, options: Options): Arrangement {
  const rng = rngOf(seed);
  const w = newWriting(rng, options.varChance, options.fileChance);
  const styles = options.styles ?? STYLES;
  const min = options.minIncluded ?? 0;
  const count = min + Math.floor(rng() * (options.maxIncluded - min + 1));
  const paths = [ROOT];
  const reserve = (path: string) => {
    w.files[path] = "";
    paths.push(path);
    return path;
  };
  for (let i = 0; i < count; i++) reserve(freshPath(w, 1 + Math.floor(rng() * 2), ".yaml"));
  const parent = paths.map((_, i) => (i === 0 ? -1 : Math.floor(rng() * i)));
  const overlayPaths: string[] = [];
  if (options.overlay)
    for (let i = 1 + Math.floor(rng() * 2); i > 0; i--) {
      overlayPaths.push(reserve(freshPath(w, Math.floor(rng() * 2), ".yaml", `env/${ENV}`)));
    }

  // Which entries go where: the base's spread over the base files, the overlay's over its files.
  const placements: { path: string; section: string; entry: Obj; identity: string; over: boolean }[] = [];
  const referenced = referencedIdentities(meaning);
  const all: [string, Obj][] = meaning.sections.flatMap(([s, es]) => es.map((e): [string, Obj] => [s, e]));
  if (meaning.branding !== undefined) all.push(["branding", meaning.branding]);
  for (const [section, entry] of all) {
    const identity = identityOf(section, entry);
    const split: Split = options.overlay
      ? splitEntry(rng, section, entry, referenced.has(`${section} ${identity}`))
      : { base: entry, overlay: undefined };
    if (split.base !== undefined)
      placements.push({
        path: pick(rng, paths.slice(0, count + 1)),
        section,
        entry: split.base,
        identity,
        over: false,
      });
    if (split.overlay !== undefined)
      placements.push({ path: pick(rng, overlayPaths), section, entry: split.overlay, identity, over: true });
  }

  // Each file's tree: its sections in a random order, its entries shuffled.
  const trees = new Map<string, Obj>(paths.map((p) => [p, {}]));
  const placed = new Map<string, Placed>();
  for (const p of shuffled(rng, placements)) {
    const tree = trees.get(p.path) as Obj;
    const written = writeEntry(w, p.section, p.entry, p.path);
    let at = p.section;
    if (p.section === "branding") tree.branding = written;
    else {
      if (tree[p.section] === undefined) tree[p.section] = [];
      const list = tree[p.section] as Json[];
      at = `${p.section}[${list.length}]`;
      list.push(written);
    }
    const key = `${p.section} ${p.identity}`;
    if (p.over || !placed.has(key))
      placed.set(key, { section: p.section, identity: p.identity, file: p.path, at });
  }
  const root = trees.get(ROOT) as Obj;
  const header: Obj = { version: 1 };
  const patternFor = (from: string, to: string, siblings: string[]) => {
    const folder = folderOf(to);
    const alone = folder !== "" && siblings.filter((p) => folderOf(p) === folder).length === 1;
    const pattern =
      alone && rng() < 0.5
        ? `${posix.relative(folderOf(from), folder)}/*.yaml`
        : posix.relative(folderOf(from), to);
    return !pattern.startsWith("..") && rng() < 0.3 ? `./${pattern}` : pattern;
  };
  paths.slice(0, count + 1).forEach((from, i) => {
    const children = paths.filter((_, c) => parent[c] === i && c <= count);
    if (children.length === 0) return;
    const patterns = shuffled(rng, children).map((to) => patternFor(from, to, paths));
    // A file included twice (by its path and its folder's glob, say) is read once.
    if (rng() < 0.2) patterns.push(patternFor(from, pick(rng, children), paths));
    const tree = trees.get(from) as Obj;
    (i === 0 ? header : tree).include =
      patterns.length === 1 && rng() < 0.5 ? (patterns[0] as string) : patterns;
  });
  if (options.overlay)
    header.environments = {
      [ENV]: { include: shuffled(rng, overlayPaths).map((to) => patternFor(ROOT, to, paths)) },
    };
  const ordered = shuffled(rng, [...Object.entries(header), ...Object.entries(root)]);
  trees.set(ROOT, Object.fromEntries(ordered));

  // Emitted, and what the loader must mask: every value a variable gives, in every file it reads.
  const emittedStyles = new Map<string, Style>();
  const lines = new Map<string, Emitted["lines"]>();
  const sensitive = new Set<string>();
  for (const [path, tree] of trees) {
    const style = pick(rng, styles);
    const emitted = emit(tree, style, rng);
    // An included file with nothing in it may be empty (no YAML document at all).
    if (path !== ROOT && Object.keys(tree).length === 0 && rng() < 0.5) emitted.text = "";
    w.files[path] = emitted.text;
    emittedStyles.set(path, style);
    lines.set(path, emitted.lines);
    visitStrings(tree, (s) => {
      for (const v of interpolated(s, w.vars).used) if (v !== "true" && v !== "false") sensitive.add(v);
    });
  }
  return {
    files: w.files,
    vars: w.vars,
    ...(options.overlay ? { env: ENV } : {}),
    yaml: loadOrder(paths.slice(0, count + 1), parent, trees).concat(
      overlayOrder(overlayPaths, trees.get(ROOT) as Obj),
    ),
    trees,
    styles: emittedStyles,
    lines,
    placed: [...placed.values()],
    sensitive: [...sensitive].sort(),
    writing: w,
  };
}

/** Depth first, each file's includes in the order it lists them (a folder glob: its one file). */
function loadOrder(paths: string[], parent: number[], trees: Map<string, Obj>): string[] {
  const out: string[] = [];
  const visit = (i: number) => {
    const path = paths[i] as string;
    if (out.includes(path)) return;
    out.push(path);
    const include = (i === 0 ? (trees.get(ROOT) as Obj).include : (trees.get(path) as Obj).include) ?? [];
    for (const pattern of (Array.isArray(include) ? include : [include]) as string[]) {
      const target = posix.normalize(posix.join(folderOf(path), pattern));
      const c = paths.findIndex(
        (p, j) =>
          parent[j] === i &&
          (p === target || (target.endsWith("/*.yaml") && folderOf(p) === folderOf(target))),
      );
      if (c >= 0) visit(c);
    }
  };
  visit(0);
  return out;
}

function overlayOrder(overlayPaths: string[], root: Obj): string[] {
  const include = ((root.environments as Obj | undefined)?.[ENV] as Obj | undefined)?.include as
    | string[]
    | undefined;
  const found = (include ?? []).map((pattern) => {
    const target = posix.normalize(pattern);
    const glob = target.endsWith("/*.yaml");
    return overlayPaths.find((p) => p === target || (glob && folderOf(p) === folderOf(target))) as string;
  });
  return [...new Set(found)];
}

export function visitStrings(value: Json, each: (s: string) => void): void {
  if (typeof value === "string") each(value);
  else if (Array.isArray(value)) for (const v of value) visitStrings(v, each);
  else if (value !== null && typeof value === "object")
    for (const v of Object.values(value)) visitStrings(v, each);
}

/** Write one file's tree again (after a fault was put in it), in a style that knows its lines. */
export function rewrite(arrangement: Arrangement, path: string, rng: Rng): void {
  const style = arrangement.styles.get(path) === "json" ? "json" : "block";
  const emitted = emit(arrangement.trees.get(path) as Obj, style, rng);
  arrangement.files[path] = emitted.text;
  arrangement.lines.set(path, emitted.lines);
}

export { rngOf };
