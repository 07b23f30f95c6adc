// GitHub Actions expressions (`${{ ... }}` and `if:`), as far as the recipes use them: context
// paths (`github.event.pull_request.number`, `steps.run.outputs.has-changes`, names may hold `-`),
// string/number/boolean/null literals, `== != && || !`, parentheses, and the status functions.
// Anything else is an error, so a recipe that starts using more fails loudly instead of being
// evaluated wrongly. Semantics follow GitHub's: a missing property is null, `==` on strings ignores
// case, `&&`/`||` return an operand, and null renders as the empty string.

export type Value = string | number | boolean | null | { [key: string]: Value } | Value[];
export type Contexts = Record<string, Value>;
export type JobStatus = "success" | "failure" | "cancelled";

type Token = { kind: "str" | "num" | "id" | "op"; text: string };

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i] ?? "";
    if (/\s/.test(c)) {
      i += 1;
    } else if (c === "'") {
      let text = "";
      i += 1;
      for (;;) {
        if (i >= source.length) throw new Error(`unterminated string in expression: ${source}`);
        if (source[i] === "'" && source[i + 1] === "'") {
          text += "'";
          i += 2;
        } else if (source[i] === "'") {
          i += 1;
          break;
        } else {
          text += source[i];
          i += 1;
        }
      }
      tokens.push({ kind: "str", text });
    } else if (/[0-9]/.test(c)) {
      const match = /^[0-9]+(\.[0-9]+)?/.exec(source.slice(i))?.[0] ?? c;
      tokens.push({ kind: "num", text: match });
      i += match.length;
    } else if (/[A-Za-z_]/.test(c)) {
      const match = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(source.slice(i))?.[0] ?? c;
      tokens.push({ kind: "id", text: match });
      i += match.length;
    } else {
      const op = ["==", "!=", "&&", "||"].find((o) => source.startsWith(o, i)) ?? c;
      if (!["==", "!=", "&&", "||", "!", "(", ")", ".", "[", "]", ","].includes(op))
        throw new Error(`unsupported character ${JSON.stringify(op)} in expression: ${source}`);
      tokens.push({ kind: "op", text: op });
      i += op.length;
    }
  }
  return tokens;
}

const truthy = (value: Value): boolean =>
  !(value === null || value === false || value === 0 || value === "" || Number.isNaN(value));

function looseEqual(a: Value, b: Value): boolean {
  if (typeof a === "string" && typeof b === "string") return a.toLowerCase() === b.toLowerCase();
  if (a === null || b === null) return a === b;
  if (typeof a === "object" || typeof b === "object") return a === b;
  return Number(a) === Number(b);
}

export interface EvalOptions {
  contexts: Contexts;
  /** The status of the job so far, for success(), failure(), always(), cancelled(). */
  status?: JobStatus;
}

export function evaluate(source: string, options: EvalOptions): Value {
  const tokens = tokenize(source);
  let at = 0;
  const peek = () => tokens[at];
  const take = (text?: string): Token => {
    const token = tokens[at];
    if (token === undefined || (text !== undefined && token.text !== text))
      throw new Error(`expected ${text ?? "a value"} at token ${at} of expression: ${source}`);
    at += 1;
    return token;
  };
  const status = options.status ?? "success";

  function call(name: string): Value {
    if (!["always", "success", "failure", "cancelled"].includes(name))
      throw new Error(`unsupported function ${name}() in expression: ${source}`);
    take("(");
    take(")");
    switch (name) {
      case "always":
        return true;
      case "success":
        return status === "success";
      case "failure":
        return status === "failure";
      case "cancelled":
        return status === "cancelled";
      default:
        throw new Error(`unsupported function ${name}() in expression: ${source}`);
    }
  }

  function primary(): Value {
    const token = take();
    if (token.kind === "str") return token.text;
    if (token.kind === "num") return Number(token.text);
    if (token.kind === "op" && token.text === "(") {
      const value = or();
      take(")");
      return value;
    }
    if (token.kind !== "id") throw new Error(`unexpected ${token.text} in expression: ${source}`);
    if (token.text === "true") return true;
    if (token.text === "false") return false;
    if (token.text === "null") return null;
    if (peek()?.text === "(") return call(token.text);
    if (!(token.text in options.contexts))
      throw new Error(`unknown context ${token.text} in expression: ${source}`);
    let value: Value = options.contexts[token.text] ?? null;
    for (;;) {
      let key: string | undefined;
      if (peek()?.text === ".") {
        take(".");
        key = take().text;
      } else if (peek()?.text === "[") {
        take("[");
        key = String(primary());
        take("]");
      } else {
        return value;
      }
      value =
        value !== null && typeof value === "object" && !Array.isArray(value) && Object.hasOwn(value, key)
          ? (value[key] ?? null)
          : null;
    }
  }

  function unary(): Value {
    if (peek()?.text === "!") {
      take("!");
      return !truthy(unary());
    }
    return primary();
  }

  function comparison(): Value {
    const left = unary();
    const op = peek()?.text;
    if (op === "==" || op === "!=") {
      take(op);
      const equal = looseEqual(left, unary());
      return op === "==" ? equal : !equal;
    }
    return left;
  }

  function and(): Value {
    let value = comparison();
    while (peek()?.text === "&&") {
      take("&&");
      const right = comparison();
      value = truthy(value) ? right : value;
    }
    return value;
  }

  function or(): Value {
    let value = and();
    while (peek()?.text === "||") {
      take("||");
      const right = and();
      value = truthy(value) ? value : right;
    }
    return value;
  }

  const value = or();
  if (at !== tokens.length) throw new Error(`unexpected ${tokens[at]?.text} in expression: ${source}`);
  return value;
}

const asText = (value: Value): string =>
  value === null ? "" : typeof value === "object" ? JSON.stringify(value) : String(value);

/** A string with every `${{ expr }}` replaced by its value, as GitHub does before a step runs. */
export function interpolate(text: string, options: EvalOptions): string {
  return text.replace(/\$\{\{([\s\S]*?)\}\}/g, (_, expression: string) =>
    asText(evaluate(expression, options)),
  );
}

/** An `if:` condition: `${{ }}` optional; without a status function it means `success() && (...)`. */
export function condition(source: string | boolean | undefined, options: EvalOptions): boolean {
  if (source === undefined) return (options.status ?? "success") === "success";
  const text = String(source)
    .trim()
    .replace(/^\$\{\{([\s\S]*)\}\}$/, "$1");
  const expression = /\b(always|success|failure|cancelled)\s*\(/.test(text) ? text : `success() && (${text})`;
  return truthy(evaluate(expression, options));
}
