// Compiling a Handlebars template costs far more than rendering it (about a millisecond here), and
// a config's templates often differ only in their literal text ("Order {{orderId}} (workflow 7)").
// So a parsed template is split into its skeleton, where each piece of literal text is replaced by
// a raw lookup of that text in the render's @data, and the texts; templates with the same skeleton
// share one compiled function, and each render passes its own texts. Output is unchanged: literal
// text and a raw mustache both append their string as it is, and standalone-line and `~` stripping
// already happened in the parser, on the texts themselves. Templates with partials or decorators
// are compiled as they are (their compile-time errors carry positions of their own).

/** The @data key the texts are passed under; no template of the server's names it. */
export const TEXTS_KEY = "__notiformTexts";

type TemplateAst = hbs.AST.Program;
type AstNode = { type?: unknown; loc?: unknown } & Record<string, unknown>;

export interface Skeleton {
  /** The skeleton's shape without positions: equal keys compile to the same function. */
  key: string;
  ast: TemplateAst;
  texts: string[];
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

/** The skeleton of a parsed template, or undefined when it must be compiled as it is. */
export function skeletonOf(ast: TemplateAst): Skeleton | undefined {
  const texts: string[] = [];
  let unsupported = false;
  // The key is written while copying (JSON of the copy without `loc`): a JSON.stringify with a
  // replacer over the copy cost as much as the copy itself, for every distinct text of a preview.
  let key = "";
  const copy = (node: unknown): unknown => {
    if (Array.isArray(node)) {
      key += "[";
      const out = node.map((item, index) => {
        if (index > 0) key += ",";
        return copy(item);
      });
      key += "]";
      return out;
    }
    if (node === null || typeof node !== "object") {
      key += JSON.stringify(node) ?? "null";
      return node;
    }
    const current = node as AstNode;
    if (
      current.type === "PartialStatement" ||
      current.type === "PartialBlockStatement" ||
      current.type === "Decorator" ||
      current.type === "DecoratorBlock"
    )
      unsupported = true;
    // A comment renders nothing; its text need not tell skeletons apart.
    if (current.type === "CommentStatement") {
      key += `{"type":"CommentStatement","strip":${JSON.stringify(current.strip) ?? "null"}}`;
      return { type: current.type, strip: current.strip, loc: current.loc };
    }
    if (current.type === "ContentStatement") {
      texts.push(String(current.value));
      const lookup = textLookup(texts.length - 1, current.loc);
      key += `{"text":${texts.length - 1}}`;
      return lookup;
    }
    const out: AstNode = {};
    key += "{";
    let first = true;
    for (const name in current) {
      const value = current[name];
      if (name === "loc") {
        out[name] = value;
        continue;
      }
      if (value === undefined || typeof value === "function") continue;
      key += `${first ? "" : ","}${JSON.stringify(name)}:`;
      first = false;
      out[name] = copy(value);
    }
    key += "}";
    return out;
  };
  const skeleton = copy(ast) as TemplateAst;
  if (unsupported) return undefined;
  return { key, ast: skeleton, texts };
}
