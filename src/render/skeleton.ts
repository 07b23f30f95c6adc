// Compiling a Handlebars template costs far more than rendering it (about a millisecond here), and
// a config's templates often differ only in their literal text ("Order {{orderId}} (workflow 7)").
// So a parsed template is split into its skeleton, where each piece of literal text is replaced by
// a raw lookup of that text in the render's @data, and the texts; templates with the same skeleton
// share one compiled function, and each render passes its own texts. Output is unchanged: literal
// text and a raw mustache both append their string as it is, and standalone-line and `~` stripping
// already happened in the parser, on the texts themselves. Templates with partials or decorators
// are compiled as they are (their compile-time errors carry positions of their own), and so are
// templates that print a helper's options (`{{json}}`), which hold the @data and the position.

/** The @data key the texts are passed under; no template of the server's names it. */
export const TEXTS_KEY = "__notiformTexts";

type TemplateAst = hbs.AST.Program;
type AstNode = { type?: unknown; loc?: unknown } & Record<string, unknown>;

export interface Skeleton {
  /** The skeleton's shape without positions: equal keys compile to the same function. */
  key: string;
  texts: string[];
  /** The skeleton's tree, a copy (the parsed tree is not touched); made only to compile a new key. */
  tree(): TemplateAst;
}

function textLookup(index: number, loc: unknown): AstNode {
  return {
    type: "MustacheStatement",
    path: {
      type: "PathExpression",
      data: true,
      depth: 0,
      parts: [TEXTS_KEY, String(index)],
      original: `@${TEXTS_KEY}.${index}`,
      loc,
    },
    params: [],
    escaped: false,
    strip: { open: false, close: false },
    loc,
  };
}

const UNSUPPORTED = new Set(["PartialStatement", "PartialBlockStatement", "Decorator", "DecoratorBlock"]);

/**
 * `json` called with no argument prints the helper's options: its @data (the skeleton's texts
 * would show there) and its position in the source (the shared function's first template's).
 * Such a template is compiled as it is, so it prints what the server prints.
 */
function printsOptions(node: AstNode): boolean {
  if (node.type !== "MustacheStatement" && node.type !== "BlockStatement" && node.type !== "SubExpression")
    return false;
  const path = node.path as { type?: unknown; original?: unknown } | undefined;
  return (
    path?.type === "PathExpression" && path.original === "json" && (node.params as unknown[]).length === 0
  );
}

/**
 * The skeleton of a parsed template, or undefined when it must be compiled as it is. The key (JSON
 * of the skeleton without `loc`) is written by a walk that allocates no node: most texts of a
 * config share a few skeletons, so the copy is made only for a key not compiled yet.
 */
export function skeletonOf(ast: TemplateAst): Skeleton | undefined {
  const texts: string[] = [];
  let unsupported = false;
  let key = "";
  const write = (node: unknown): void => {
    if (Array.isArray(node)) {
      key += "[";
      for (let index = 0; index < node.length; index += 1) {
        if (index > 0) key += ",";
        write(node[index]);
      }
      key += "]";
      return;
    }
    if (node === null || typeof node !== "object") {
      key += JSON.stringify(node) ?? "null";
      return;
    }
    const current = node as AstNode;
    if (UNSUPPORTED.has(current.type as string) || printsOptions(current)) unsupported = true;
    // A comment renders nothing; its text need not tell skeletons apart.
    if (current.type === "CommentStatement") {
      key += `{"type":"CommentStatement","strip":${JSON.stringify(current.strip) ?? "null"}}`;
      return;
    }
    if (current.type === "ContentStatement") {
      texts.push(String(current.value));
      key += `{"text":${texts.length - 1}}`;
      return;
    }
    key += "{";
    let first = true;
    for (const name in current) {
      const value = current[name];
      if (name === "loc" || value === undefined || typeof value === "function") continue;
      key += `${first ? "" : ","}${JSON.stringify(name)}:`;
      first = false;
      write(value);
    }
    key += "}";
  };
  write(ast);
  if (unsupported) return undefined;
  return { key, texts, tree: () => skeletonTree(ast) };
}

/** The copy of `ast` whose literal texts are lookups of @data texts, numbered in source order. */
function skeletonTree(ast: TemplateAst): TemplateAst {
  let count = 0;
  const copy = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(copy);
    if (node === null || typeof node !== "object") return node;
    const current = node as AstNode;
    if (current.type === "CommentStatement")
      return { type: current.type, strip: current.strip, loc: current.loc };
    if (current.type === "ContentStatement") {
      count += 1;
      return textLookup(count - 1, current.loc);
    }
    const out: AstNode = {};
    for (const name in current) {
      const value = current[name];
      out[name] = name === "loc" || typeof value !== "object" || value === null ? value : copy(value);
    }
    return out;
  };
  return copy(ast) as TemplateAst;
}
