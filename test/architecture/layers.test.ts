// The layers of src/ (docs/architecture.md): imports run one way, down. A command parses flags,
// calls the pipeline and renders; the pipeline runs the stages; apply, promote and plan work on
// the kinds; each kind's folder holds all of that kind over the transport (api/), the config file
// format (config/) and the state file (state/). The checks read the import graph, type-only
// imports included, so a file that reaches back up fails here before it tangles the code.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KINDS, registry } from "../../src/kinds/registry.js";
import { graph, ROOT } from "./imports.js";

// Longest prefix first. Within one rank, a layer imports only itself.
const LAYERS: [prefix: string, layer: string, rank: number][] = [
  ["src/cli/", "cli", 7],
  ["src/pipeline/", "pipeline", 6],
  ["src/apply/", "apply", 5],
  ["src/promote/", "promote", 5],
  ["src/plan/", "plan", 4],
  ["src/loader/", "loader", 4],
  // The names of the kinds and the types each declares into them: a leaf every layer may name.
  ["src/kinds/kinds.ts", "kind names", 1],
  ["src/kinds/", "kinds", 3],
  ["src/api/", "api", 2],
  ["src/config/", "config", 2],
  ["src/state/", "state", 2],
  ["src/secrets/", "secrets", 2],
  // The bundled server: it speaks the kinds' wire shapes.
  ["src/emulator/", "emulator", 4],
  ["src/schemas/", "shared", 1],
  ["src/", "shared", 1],
];

function layerOf(file: string): { layer: string; rank: number } {
  const found = LAYERS.find(([prefix]) => file === prefix || file.startsWith(prefix));
  if (found === undefined) throw new Error(`no layer for ${file}`);
  return { layer: found[1], rank: found[2] };
}

/** Every import that does not run down: "from -> to". */
function upwardImports(edges: Map<string, string[]>): string[] {
  const bad: string[] = [];
  for (const [from, targets] of edges) {
    const source = layerOf(from);
    for (const to of targets) {
      const target = layerOf(to);
      const down = target.rank < source.rank || target.layer === source.layer;
      if (!down) bad.push(`${from} -> ${to}`);
    }
  }
  return bad;
}

const edges = graph();
const files = [...edges.keys()];
const handWritten = files.filter((file) => !file.startsWith("src/schemas/"));

describe("layers", () => {
  it("the layer check reports an import that runs up and accepts one that runs down", () => {
    const sample = new Map([
      ["src/kinds/topic/index.ts", ["src/plan/model.ts", "src/api/requester.ts"]],
      ["src/api/requester.ts", ["src/kinds/registry.ts", "src/kinds/kinds.ts"]],
    ]);
    expect(upwardImports(sample)).toEqual([
      "src/kinds/topic/index.ts -> src/plan/model.ts",
      "src/api/requester.ts -> src/kinds/registry.ts",
    ]);
  });

  it("every import runs down: cli -> pipeline -> apply/promote/plan/loader -> kinds -> api/config/state", () => {
    expect(edges.size).toBeGreaterThan(100);
    expect(upwardImports(edges)).toEqual([]);
  });

  it("the CLI imports nothing from api/ or kinds/: commands parse flags, call the pipeline and render", () => {
    const reaching = [...edges]
      .filter(([from]) => from.startsWith("src/cli/"))
      .flatMap(([from, targets]) =>
        targets
          .filter((to) => to.startsWith("src/api/") || to.startsWith("src/kinds/"))
          .map((to) => `${from} -> ${to}`),
      );
    expect(reaching).toEqual([]);
  });

  it("the kind names module is a leaf", () => {
    expect(edges.get("src/kinds/kinds.ts")).toEqual([]);
  });

  it("no hand-written source file is over 400 lines", () => {
    const long = handWritten
      .map((file) => [file, readFileSync(join(ROOT, file), "utf8").split("\n").length - 1] as const)
      .filter(([, lines]) => lines > 400);
    expect(long).toEqual([]);
  });

  it("the transport names no kind", () => {
    const names = KINDS.flatMap((kind) => [registry[kind].label.one, registry[kind].label.many]);
    names.push("layout");
    const pattern = new RegExp(`\\b(${names.map((n) => n.replace(/ /g, "[ -]?")).join("|")})\\b`, "i");
    const naming = files
      .filter((file) => file.startsWith("src/api/"))
      .filter((file) => pattern.test(readFileSync(join(ROOT, file), "utf8")));
    expect(naming).toEqual([]);
  });

  it("registry.ts is the only list of kinds: no other file spells three or more kinds as strings", () => {
    const spelled = handWritten
      // A kind's own folder names the kinds it depends on (an override's workflow and tenant).
      .filter((file) => file !== "src/kinds/registry.ts" && !/^src\/kinds\/[^/]+\//.test(file))
      .filter((file) => !file.startsWith("src/emulator/"))
      .filter((file) => {
        const text = readFileSync(join(ROOT, file), "utf8");
        return KINDS.filter((kind) => text.includes(`"${kind}"`)).length >= 3;
      });
    expect(spelled).toEqual([]);
  });
});
