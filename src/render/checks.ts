// Offline template checks and the variables a template reads, from the engine's syntax tree.
// Checks find what fails every render on the server, whatever the payload: a parse error (with
// the engine's message), a partial without a fallback (the server registers none), a helper call
// (a name with arguments, inline, as a block or a sub-expression) that is not one of the server's
// helpers (or a helper called with no arguments where that always throws), a decorator. Any other
// name without arguments is a plain lookup and is never an error (r4-35).

import { didYouMean } from "../config/did-you-mean.js";
import type { Engine, TemplateAst } from "./engine.js";
import { BUILT_IN_HELPERS, KNOWN_HELPERS, SUGGESTED_HELPERS } from "./helper-names.js";
import { RenderError } from "./render-error.js";
import type { TemplatePosition, TemplateProblem } from "./types.js";

type Node = hbs.AST.Node;
type Path = hbs.AST.PathExpression;
type Call = hbs.AST.MustacheStatement | hbs.AST.BlockStatement | hbs.AST.SubExpression;

function positionOf(node: Node | undefined): TemplatePosition | undefined {
  const start = node?.loc?.start;
  return start === undefined ? undefined : { line: start.line, col: start.column + 1 };
}

function problem(rule: string, message: string, at: Node | undefined): TemplateProblem {
  const pos = positionOf(at);
  return pos === undefined ? { severity: "error", rule, message } : { severity: "error", rule, message, pos };
}

function parsed(engine: Engine, text: string): TemplateAst | RenderError {
  try {
    return engine.parse(text);
  } catch (error) {
    if (error instanceof RenderError) return error;
    throw error;
  }
}

const CHILD_KEYS = ["path", "params", "hash", "pairs", "value", "program", "inverse", "body"] as const;

/**
 * What a node sees: the block parameters of the blocks whose body holds it, and the inline
 * partials (`{{#*inline "name"}}…{{/inline}}`, Handlebars' own decorator) its program or an
 * enclosing one defines: the decorator runs when that program starts, so they serve every
 * `{{> name}}` rendered while it runs, before or after the definition.
 */
interface CheckScope {
  blockParams: ReadonlySet<string>;
  partials: ReadonlySet<string>;
}

const TOP: CheckScope = { blockParams: new Set(), partials: new Set() };

/** The name an inline partial block defines, when its argument is a literal. */
function inlineName(node: Node): string | undefined {
  if (node.type !== "DecoratorBlock") return undefined;
  const block = node as unknown as { path: Path; params: Node[] };
  const first = block.params[0] as (Node & { value?: unknown }) | undefined;
  if (block.path.original !== "inline" || first === undefined || !LITERALS.has(first.type)) return undefined;
  return String(first.value);
}

function enter(program: hbs.AST.Program, scope: CheckScope): CheckScope {
  const params = program.blockParams ?? [];
  const inline = program.body.map(inlineName).filter((name) => name !== undefined);
  if (params.length === 0 && inline.length === 0) return scope;
  return {
    blockParams: new Set([...scope.blockParams, ...params]),
    partials: new Set([...scope.partials, ...inline]),
  };
}

/**
 * Call `visit` on every node below `node`, depth first, in source order, with its scope. A block
 * parameter is bound lexically, as the compiler binds it: inside the block's body (its Program),
 * not in the block's own arguments, its {{else}} or anywhere after the block.
 */
function walk(node: unknown, visit: (node: Node, scope: CheckScope) => void, scope: CheckScope = TOP): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, visit, scope);
    return;
  }
  if (typeof node !== "object" || node === null || typeof (node as Node).type !== "string") return;
  const current = node as Node & Record<string, unknown>;
  const inner = current.type === "Program" ? enter(current as unknown as hbs.AST.Program, scope) : scope;
  visit(current, inner);
  for (const key of CHILD_KEYS) {
    const child = current[key];
    if (child !== undefined && child !== null && typeof child === "object") walk(child, visit, inner);
  }
}

function isPath(node: unknown): node is Path {
  return (node as Node | undefined)?.type === "PathExpression";
}

const LITERALS = new Set([
  "StringLiteral",
  "NumberLiteral",
  "BooleanLiteral",
  "UndefinedLiteral",
  "NullLiteral",
]);

/**
 * The path a call's callee is to the compiler: a literal (`{{"foo" x}}`, `{{true x}}`) is the
 * simple name of its text (transformLiteralToPath), so it calls a helper like any name.
 */
function calleePath(node: Node): Path | undefined {
  if (isPath(node)) return node;
  if (!LITERALS.has(node.type)) return undefined;
  const text = String((node as unknown as { original: unknown }).original);
  return {
    type: "PathExpression",
    data: false,
    depth: 0,
    parts: [text],
    original: text,
    loc: node.loc,
  } as Path;
}

/** Handlebars' built-in helpers: the compiler's knownHelpers. */
const BUILT_INS: ReadonlySet<string> = new Set(BUILT_IN_HELPERS);

/** A bare name (`name`, not `this.name`, `../name`, `a.b` or `@name`): what may name a helper. */
function isSimple(path: Path): boolean {
  return !path.data && path.depth === 0 && path.parts.length === 1 && !/^(this|\.)/.test(path.original);
}

/**
 * Names Handlebars keeps as hooks, not helpers: any call of them throws, with arguments or
 * without (`{{helperMissing name}}` included).
 */
const HOOKS: ReadonlySet<string> = new Set(["helperMissing", "blockHelperMissing"]);
/**
 * Helpers that render one of their block's branches: called inline or as a sub-expression (no
 * block, so no options.fn or options.inverse) they throw whatever their arguments.
 */
const BLOCK_ONLY: ReadonlySet<string> = new Set(["if", "unless", "each", "with", "equals"]);

/**
 * The problem with a call, or undefined when it renders. With arguments, the name must be one of
 * the server's helpers. Without positional arguments, a bare name that is a helper is still a
 * call, of the helper with nothing to work on: whether that fails whatever the payload
 * (`{{uppercase}}`, `{{#if}}`, `{{#each}}`) is asked of the engine, which has the server's
 * helpers. Any other name without arguments is a lookup (r4-35), as is a block parameter's name.
 */
function helperProblem(
  engine: Engine,
  call: Call,
  blockParams: ReadonlySet<string>,
  bareFailures: Map<string, string | undefined>,
): TemplateProblem | undefined {
  const path = calleePath(call.path);
  if (path === undefined) return undefined;
  let name = path.original;
  const withArguments = call.params.length > 0;
  if (isSimple(path)) {
    // A block parameter in scope is a value even with arguments: the compiler never calls it.
    if (blockParams.has(name)) return undefined;
  } else {
    const called = withArguments || (call.hash?.pairs.length ?? 0) > 0 || call.type === "SubExpression";
    // A path whose first part is a built-in (`this.if`, `../lookup`), when called, calls that
    // built-in (the compiler's helperSexpr looks its first part up in knownHelpers).
    const first = path.parts[0] ?? "";
    if (!called || !BUILT_INS.has(first))
      return withArguments
        ? problem(
            "template-helper",
            `"${name}" is called with arguments but is not a helper: a path cannot be called`,
            path,
          )
        : undefined;
    name = first;
  }
  if (!KNOWN_HELPERS.has(name))
    return withArguments
      ? problem("template-helper", `Missing helper: "${name}"${didYouMean(name, SUGGESTED_HELPERS)}`, path)
      : undefined;
  if (withArguments && call.type !== "BlockStatement" && BLOCK_ONLY.has(name))
    return problem(
      "template-helper",
      `"${name}" is a block helper: called inline it fails every render (options.fn or options.inverse is not a function); write {{#${name} …}}…{{/${name}}}`,
      path,
    );
  if (withArguments && !HOOKS.has(name)) return undefined;
  const failure = bareCallFailure(engine, name, call.type === "BlockStatement", bareFailures);
  if (failure === undefined) return undefined;
  const how = HOOKS.has(name)
    ? "is Handlebars' own hook, not a helper a template can call"
    : "is a helper, called here with no arguments";
  return problem("template-helper", `"${name}" ${how}, which fails every render: ${failure}`, path);
}

/** The engine's error for a helper called with no arguments (inline or as a block), or undefined. */
function bareCallFailure(
  engine: Engine,
  name: string,
  block: boolean,
  cache: Map<string, string | undefined>,
): string | undefined {
  const text = block ? `{{#${name}}}{{/${name}}}` : `{{${name}}}`;
  if (cache.has(text)) return cache.get(text);
  let failure: string | undefined;
  try {
    engine.render(text, {});
  } catch (error) {
    if (!(error instanceof RenderError)) throw error;
    failure = error.message;
  }
  cache.set(text, failure);
  return failure;
}

/** Per engine: what a bare call of each helper does (the same every time). */
const BARE_FAILURES = new WeakMap<Engine, Map<string, string | undefined>>();

export function checkTemplateWith(engine: Engine, text: string): TemplateProblem[] {
  // Without a mustache a text is all literal: nothing to parse, nothing to report.
  if (!text.includes("{{")) return [];
  const ast = parsed(engine, text);
  if (ast instanceof RenderError) {
    const found: TemplateProblem = { severity: "error", rule: "template-parse", message: ast.message };
    if (ast.at !== undefined) found.pos = ast.at;
    return [found];
  }
  const problems: TemplateProblem[] = [];
  let bareFailures = BARE_FAILURES.get(engine);
  if (bareFailures === undefined) {
    bareFailures = new Map();
    BARE_FAILURES.set(engine, bareFailures);
  }
  walk(ast, (node, scope) => {
    switch (node.type) {
      case "PartialStatement": {
        const name = (node as hbs.AST.PartialStatement).name;
        const label = isPath(name) ? name.original : "(dynamic)";
        if (isPath(name) && scope.partials.has(name.original)) break;
        problems.push(
          problem(
            "template-partial",
            `The partial ${label} could not be found: the server registers no partials (a partial block {{#> ${label}}}…{{/${label}}} renders its fallback)`,
            node,
          ),
        );
        break;
      }
      case "DecoratorBlock":
      case "Decorator": {
        const path = (node as unknown as { path: Path }).path;
        // Handlebars' own decorator: it defines an inline partial and renders nothing.
        if (path.original === "inline") break;
        problems.push(problem("template-helper", `Missing decorator: "${path.original}"`, node));
        break;
      }
      case "MustacheStatement":
      case "BlockStatement":
      case "SubExpression": {
        const found = helperProblem(engine, node as Call, scope.blockParams, bareFailures);
        if (found !== undefined) problems.push(found);
        break;
      }
    }
  });
  return problems;
}

/** Blocks whose body sees a new context: `with` and a section (`{{#name}}`) descend into the value. */
const DESCENDING = new Set(["with"]);
/** Helpers whose body renders with the context they were given (loose equality keeps it, r4-16). */
const KEEPING = new Set(["if", "unless", "equals"]);

interface Scope {
  /** The payload path this scope's context is, or undefined when it is not a payload path (an item, lost). */
  prefix: string | undefined;
  blockParams: readonly string[];
}

function join(prefix: string, parts: readonly string[]): string {
  return [prefix, ...parts].filter((part) => part !== "").join(".");
}

/** The payload path a path expression reads, or undefined when it reads something else. */
function pathRead(path: Path, scopes: readonly Scope[]): string | undefined {
  if (path.data) {
    // `@root.x` reads the payload; other @data (@index, @key, @first) do not.
    return path.parts[0] === "root" && path.parts.length > 1 ? join("", path.parts.slice(1)) : undefined;
  }
  const scope = scopes[scopes.length - 1 - path.depth];
  if (scope === undefined) return undefined;
  if (
    path.depth === 0 &&
    path.parts.length > 0 &&
    scopes.some((s) => s.blockParams.includes(path.parts[0] ?? ""))
  )
    return undefined;
  if (scope.prefix === undefined || path.parts.length === 0) return undefined;
  return join(scope.prefix, path.parts);
}

/** The payload paths a template reads, in first-use order; [] when it does not parse. */
export function templateVariablesWith(engine: Engine, text: string): string[] {
  if (!text.includes("{{")) return [];
  const ast = parsed(engine, text);
  if (ast instanceof RenderError) return [];
  const found = new Set<string>();
  const root: Scope = { prefix: "", blockParams: [] };
  collect(ast, [root], found);
  return [...found];
}

function readValue(node: unknown, scopes: Scope[], found: Set<string>): void {
  if (isPath(node)) {
    const read = pathRead(node, scopes);
    if (read !== undefined) found.add(read);
  } else if ((node as Node | undefined)?.type === "SubExpression") {
    readCall(node as hbs.AST.SubExpression, scopes, found);
  }
}

function readCall(call: Call, scopes: Scope[], found: Set<string>): void {
  const isCall =
    call.params.length > 0 || (call.hash?.pairs.length ?? 0) > 0 || call.type === "SubExpression";
  // A bare helper name calls the helper (with nothing to work on): it reads no variable.
  const helper = isPath(call.path) && isSimple(call.path) && KNOWN_HELPERS.has(call.path.original);
  if (!isCall && !helper) readValue(call.path, scopes, found);
  for (const param of call.params) readValue(param, scopes, found);
  for (const pair of call.hash?.pairs ?? []) readValue(pair.value, scopes, found);
}

function collect(node: unknown, scopes: Scope[], found: Set<string>): void {
  if (Array.isArray(node)) {
    for (const item of node) collect(item, scopes, found);
    return;
  }
  const current = node as (Node & Record<string, unknown>) | undefined;
  if (current === undefined || current === null || typeof current.type !== "string") return;
  switch (current.type) {
    case "Program":
      collect((current as unknown as hbs.AST.Program).body, scopes, found);
      return;
    case "MustacheStatement":
      readCall(current as unknown as hbs.AST.MustacheStatement, scopes, found);
      return;
    case "PartialBlockStatement":
      collect((current as unknown as hbs.AST.PartialBlockStatement).program, scopes, found);
      return;
    case "BlockStatement": {
      const block = current as unknown as hbs.AST.BlockStatement;
      readCall(block, scopes, found);
      const name = isPath(block.path) ? block.path.original : "";
      const first = block.params[0];
      const firstRead = isPath(first) ? pathRead(first, scopes) : undefined;
      const params = block.program?.blockParams ?? [];
      // `../` climbs contexts, not blocks: a block that keeps the context adds no level.
      let inner: Scope[];
      if (KEEPING.has(name) && block.params.length > 0) inner = scopes;
      else if (block.params.length === 0)
        inner = [...scopes, { prefix: pathRead(block.path as Path, scopes), blockParams: params }];
      else if (DESCENDING.has(name)) inner = [...scopes, { prefix: firstRead, blockParams: params }];
      // each (items), the comparison helpers (no context at all, r4-28) and the rest: not the payload.
      else inner = [...scopes, { prefix: undefined, blockParams: params }];
      if (block.program) collect(block.program, inner, found);
      if (block.inverse) collect(block.inverse, scopes, found);
      return;
    }
    default:
      return;
  }
}
