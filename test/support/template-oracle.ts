// The generated template's text and its oracle (see template-grammar.ts): each call's span,
// region and verdict, from Handlebars 4.7's own rules:
//   - a simple name that is a block parameter of an enclosing block's body (lexically: not its
//     {{else}}) is that value, never a call (compiler: classifySexpr, isBlockParam);
//   - a literal callee (`{{"foo" x}}`) is the simple name of its text (transformLiteralToPath);
//   - a call is a name with positional arguments or a hash, or any sub-expression; a bare name
//     that is a helper is a call too (the built-ins at compile time, the server's at run time);
//   - an unknown name called with positional arguments throws (helperMissing with arguments, or
//     `.call` of the payload's non-function value); with only a hash it depends on the payload;
//   - a path (`this.x`, `a.b`, `@root.x`) called with positional arguments throws the same way,
//     unless its first part is a built-in: the compiler then calls that built-in
//     (helperSexpr: knownHelpers[path.parts[0]]), so `{{#this.if x}}…{{/this.if}}` is an `if`;
//   - the hooks (helperMissing, blockHelperMissing) are not in the runtime's helpers: any call throws;
//   - if, unless, each, with and the server's equals called inline or as a sub-expression with
//     positional arguments throw whatever their arguments (no block: options.fn/inverse missing);
//   - `{{> p}}` throws (no partial registered) unless an inline partial may define it;
//     `{{#> p}}fallback{{/p}}` renders its fallback; `{{* name}}` throws unless `inline`;
//   - a hash key given twice keeps its first value: the later values are never evaluated, so a
//     sub-expression there sits in a region that never runs (as in `{{#if false}}`); so do the
//     arguments of a block parameter used as a callee (the value is pushed alone).
import type { BareProbe, CallKind, Generated, Node, Piece, Region, Verdict } from "./template-grammar.js";

/** The server's helpers (src/render/helper-names.ts, restated: the oracle is written apart). */
export const SERVER = [
  "equals",
  "titlecase",
  "uppercase",
  "lowercase",
  "pluralize",
  "dateFormat",
  "groupBy",
  "unique",
  "sortBy",
  "numberFormat",
  "gt",
  "gte",
  "lt",
  "lte",
  "eq",
  "ne",
  "json",
];
/** Handlebars' compile-time known helpers (its built-ins): a path whose first part is one calls it. */
export const BUILT_INS = [
  "if",
  "unless",
  "each",
  "with",
  "lookup",
  "log",
  "helperMissing",
  "blockHelperMissing",
];
type Call = Extract<Node, { k: "mustache" }>["call"];
type Param = Call["params"][number];

const HOOKS = new Set(["helperMissing", "blockHelperMissing"]);
// Helpers that call options.fn or options.inverse whatever their arguments (Handlebars' if,
// unless, each, with; the server's equals): a call without a block passes neither, so it throws.
const BLOCK_ONLY = new Set(["if", "unless", "each", "with", "equals"]);
const KNOWN = new Set([...SERVER, ...BUILT_INS]);
const BUILT_IN = new Set(BUILT_INS);

/** A path's first part, as the compiler keeps it (`this.if` -> if, `../x` -> x, `@root.x` -> root). */
function firstPart(path: string): string | undefined {
  const parts = path
    .replace(/^@/, "")
    .split(/[./]/)
    .filter((part) => part !== "" && part !== "this" && part !== "..");
  return parts[0];
}

/** A literal's truthiness for `if` (Handlebars: falsy, or an empty array, takes the inverse). */
function literalTruth(param: Param | undefined): boolean | undefined {
  if (param?.k !== "lit") return undefined;
  const v = param.v;
  if (v.startsWith('"')) return v.length > 2;
  if (["0", "false", "null", "undefined"].includes(v)) return false;
  return true;
}

class Writer {
  out = "";
  pieces: Piece[] = [];
  broken = false;
  constructor(private readonly probe: BareProbe) {}

  verdict(call: Call, kind: CallKind, scope: ReadonlySet<string>): Verdict {
    const positional = call.params.length;
    const isCall = positional > 0 || call.hash.length > 0 || kind === "sub";
    if (call.callee.k === "path") {
      if (!isCall) return "renders";
      const first = firstPart(call.callee.v);
      if (first !== undefined && BUILT_IN.has(first))
        return HOOKS.has(first)
          ? "fails"
          : positional === 0
            ? this.probe(first, kind)
            : kind !== "block" && BLOCK_ONLY.has(first)
              ? "fails"
              : "depends";
      return positional > 0 ? "fails" : "depends";
    }
    const name = simpleName(call);
    if (scope.has(name)) return "renders";
    if (HOOKS.has(name)) return "fails";
    if (KNOWN.has(name))
      return positional === 0
        ? this.probe(name, kind)
        : kind !== "block" && BLOCK_ONLY.has(name)
          ? "fails"
          : "depends";
    if (!isCall) return "renders";
    return positional > 0 ? "fails" : "depends";
  }

  /** Emit `open + call + close` as one piece, with its sub-expressions as pieces of their own. */
  emitCall(
    open: string,
    call: Call,
    close: string,
    kind: CallKind,
    region: Region,
    scope: ReadonlySet<string>,
  ): Verdict {
    const start = this.out.length;
    const built = callText(call, scope);
    this.out += open + built.text + close;
    const verdict = this.verdict(call, kind, scope);
    this.pieces.push({ start, end: this.out.length, region, verdict, text: open + built.text + close });
    for (const sub of built.subs) {
      const subStart = start + open.length + sub.rel;
      const text = this.out.slice(subStart, subStart + sub.len);
      this.pieces.push({
        start: subStart,
        end: subStart + sub.len,
        region: sub.dropped ? "never" : region,
        verdict: this.verdict(sub.call, "sub", scope),
        text,
      });
    }
    return verdict;
  }

  leaf(text: string, region: Region, verdict: Verdict): void {
    const start = this.out.length;
    this.out += text;
    this.pieces.push({ start, end: this.out.length, region, verdict, text });
  }

  /** A program: its inline partials (`>name` in the scope) serve it all, before and after. */
  nodes(nodes: Node[], region: Region, outer: ReadonlySet<string>): void {
    const inline = nodes.flatMap((node) => (node.k === "inline" ? [`>${node.name}`] : []));
    const scope = inline.length === 0 ? outer : new Set([...outer, ...inline]);
    for (const node of nodes) this.node(node, region, scope);
  }

  node(node: Node, region: Region, scope: ReadonlySet<string>): void {
    switch (node.k) {
      case "text":
        // Two texts in a row are one text: keep them apart from each other's edge rules.
        this.out += node.v;
        return;
      case "comment":
        this.out += node.v;
        return;
      case "broken":
        this.broken = true;
        this.out += node.v;
        return;
      case "mustache": {
        const close = node.form === "{{{" ? "}}}" : node.form === "{{~" ? "~}}" : "}}";
        this.emitCall(node.form, node.call, close, "inline", region, scope);
        return;
      }
      case "raw":
        this.emitCall("{{{{", node.call, "}}}}", "block", region, scope);
        this.out += `${node.text}{{{{/${node.call.callee.v}}}}}`;
        return;
      case "partial":
        this.leaf(`{{> ${node.name}}}`, region, scope.has(`>${node.name}`) ? "renders" : "fails");
        return;
      case "partialBlock":
        this.out += `{{#> ${node.name}}}`;
        this.nodes(node.body, scope.has(`>${node.name}`) ? lower(region) : region, scope);
        this.out += `{{/${node.name}}}`;
        return;
      case "decorator":
        this.leaf(`{{* ${node.name}}}`, region, node.name === "inline" ? "renders" : "fails");
        return;
      case "inline":
        this.leaf(`{{#*inline "${node.name}"}}`, region, "renders");
        this.nodes(node.body, lower(region), scope);
        this.out += "{{/inline}}";
        return;
      case "block":
        this.block(node, region, scope);
        return;
    }
  }

  block(node: Extract<Node, { k: "block" }>, region: Region, scope: ReadonlySet<string>): void {
    const as = node.as.length > 0 ? ` as |${node.as.join(" ")}|` : "";
    this.emitCall("{{#", node.call, `${as}}}`, "block", region, scope);
    const [body, inverse] = this.branches(node.call, region, scope);
    this.nodes(node.body, body, new Set([...scope, ...node.as]));
    if (node.inverse !== undefined) {
      if (node.inverse.chain === undefined) {
        this.out += "{{else}}";
        this.nodes(node.inverse.body, inverse, scope);
      } else {
        // `{{else name args}}…` is a block of its own in the inverse.
        const chained: Extract<Node, { k: "block" }> = {
          k: "block",
          call: node.inverse.chain,
          as: [],
          body: node.inverse.body,
        };
        this.emitCall("{{else ", chained.call, "}}", "block", inverse, scope);
        const [chainBody] = this.branches(chained.call, inverse, scope);
        this.nodes(chained.body, chainBody, scope);
      }
    }
    this.out += `{{/${node.call.callee.v}}}`;
  }

  /** The regions of a block's body and inverse. */
  branches(call: Call, region: Region, scope: ReadonlySet<string>): [Region, Region] {
    const maybe = lower(region);
    if (region === "never" || call.callee.k !== "name" || scope.has(call.callee.v)) return [maybe, maybe];
    const name = call.callee.v;
    if (call.hash.length === 0 && call.params.length === 1) {
      const truth = literalTruth(call.params[0]);
      if ((name === "if" || name === "unless") && truth !== undefined) {
        const taken = (name === "if") === truth;
        return taken ? [region, "never"] : ["never", region];
      }
      if (name === "with" && call.params[0]?.k === "path" && call.params[0].v === "@root")
        return [region, "never"];
    }
    return [maybe, maybe];
  }
}

interface Built {
  text: string;
  /**
   * Each sub-expression's span, relative to the text's start; dropped: Handlebars never
   * evaluates it, being (or being inside) the value of a hash key given earlier in the same hash
   * (the first value is kept; the later ones' code is never emitted) or an argument of a block
   * parameter used as a callee.
   */
  subs: { rel: number; len: number; call: Call; dropped: boolean }[];
}

/** A name or literal callee's simple name (a literal is the name of its text: transformLiteralToPath). */
function simpleName(call: Call): string {
  return call.callee.k === "lit" ? call.callee.v.replace(/^"|"$/g, "") : call.callee.v;
}

function callText(call: Call, scope: ReadonlySet<string>): Built {
  let text = call.callee.v;
  const subs: Built["subs"] = [];
  // A block parameter as the callee is a value, not a call: the compiler pushes the value alone
  // (classifySexpr: simple), so none of its arguments is ever evaluated.
  const value = call.callee.k !== "path" && scope.has(simpleName(call));
  const add = (prefix: string, param: Param, dropped: boolean) => {
    text += prefix;
    if (param.k !== "sub") {
      text += param.v;
      return;
    }
    const inner = callText(param.call, scope);
    const at = text.length;
    subs.push({ rel: at, len: inner.text.length + 2, call: param.call, dropped });
    for (const sub of inner.subs)
      subs.push({ ...sub, rel: at + 1 + sub.rel, dropped: dropped || sub.dropped });
    text += `(${inner.text})`;
  };
  for (const param of call.params) add(" ", param, value);
  const keys = new Set<string>();
  for (const [key, param] of call.hash) {
    add(` ${key}=`, param, value || keys.has(key));
    keys.add(key);
  }
  return { text, subs };
}

function lower(region: Region): Region {
  return region === "never" ? "never" : "maybe";
}

export function serialize(nodes: Node[], probe: BareProbe): Generated {
  const writer = new Writer(probe);
  writer.nodes(nodes, "always", new Set());
  return { template: writer.out, pieces: writer.pieces, broken: writer.broken };
}
