// No import cycles among src/ files, type-only imports included: a cycle makes load order
// matter and tangles modules that should stand alone.
import { describe, expect, it } from "vitest";
import { graph, importsOf } from "./imports.js";

// Cycles tolerated, each as the sorted list of its files: none. An entry here needs a reason
// beside it; the resource registry is layered so that plan and resources need none.
const ALLOWED_CYCLES: string[][] = [];

/** Strongly connected components with more than one file (or a self-import): the cycles. */
function cycles(edges: Map<string, string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    indices.set(node, index);
    low.set(node, index);
    index += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node) ?? 0, indices.get(next) ?? 0));
    }
    if (low.get(node) === indices.get(node)) {
      const component: string[] = [];
      for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
        onStack.delete(member);
        component.push(member);
        if (member === node) break;
      }
      if (component.length > 1 || (edges.get(node) ?? []).includes(node)) found.push(component.sort());
    }
  };
  for (const node of edges.keys()) if (!indices.has(node)) visit(node);
  return found;
}

const allowed = (component: string[]) =>
  ALLOWED_CYCLES.some((entry) => entry.join("\n") === component.join("\n"));

describe("import cycles", () => {
  it("the parser sees value, type-only, side-effect, re-export and multi-line imports", () => {
    const text = `import { a } from "./a.js";\nimport type { B } from "./b.js";\nimport "./c.js";\nexport * from "./d.js";\nexport { e } from "./e.js";\nimport {\n  f,\n  type G,\n} from "./f.js";\nconst h = await import("./h.js");\n// import { x } from "./commented.js";\n`;
    expect(importsOf(text)).toEqual(["./a.js", "./b.js", "./c.js", "./d.js", "./e.js", "./f.js", "./h.js"]);
  });

  it("the cycle finder reports a two-file cycle and ignores a chain", () => {
    const edges = new Map([
      ["a", ["b"]],
      ["b", ["a", "c"]],
      ["c", []],
    ]);
    expect(cycles(edges)).toEqual([["a", "b"]]);
  });

  it("src/ has none outside the allowlist", () => {
    const edges = graph();
    expect(edges.size).toBeGreaterThan(50);
    expect(cycles(edges).filter((c) => !allowed(c))).toEqual([]);
  });
});
