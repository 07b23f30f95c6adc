// A fast path for the plain YAML that config files are made of: block mappings and sequences,
// plain and single-line quoted scalars, one-line flow collections of scalars, comments. It builds
// the very same `yaml` AST (nodes, values, start offsets, line starts) the library would, about
// ten times faster, because the library's general parser dominates loading large configs.
// It must never guess: on anything outside that subset (anchors, tags, block or multi-line
// scalars, tabs, a lone CR, null values, floats, duplicate keys, any syntax error) it returns
// undefined and the caller parses with the library, which also reports every error. A
// differential test (test/config/fast-yaml.test.ts) holds it to the library's results.
import { Document, LineCounter, Pair, Scalar, YAMLMap, YAMLSeq } from "yaml";
import { setDataKey } from "../canonical.js";

type Node = Scalar | YAMLMap | YAMLSeq;

interface Line {
  /** Column of the content (0-based): the indentation. */
  indent: number;
  /** Offset of the content's first character. */
  start: number;
  /** The content, without indentation and without the line break. */
  text: string;
}

/** Thrown inside the fast path to give up; never escapes this module. */
/** An indentation no config reaches below the nesting limit: the fast path leaves it alone. */
const DEEP_INDENT = 100;

class GiveUp {}
const GIVE_UP = new GiveUp();

function giveUp(): never {
  throw GIVE_UP;
}

const KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const INT = /^[-+]?[0-9]+$/;
const BOOLEANS = new Map([
  ["true", true],
  ["True", true],
  ["TRUE", true],
  ["false", false],
  ["False", false],
  ["FALSE", false],
]);
const NULLS = new Set(["~", "null", "Null", "NULL"]);
/** The core schema's floats (yaml's schema/core/float.js: float and floatExp), read with parseFloat. */
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
/** The core schema's remaining number forms: left to the library. */
const OTHER_NUMBERS = /^(?:0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
/**
 * Characters the library may treat specially (control characters, byte order marks, a CR not
 * ending a line), and the spaces JavaScript's trim removes but YAML keeps as content (only space
 * and tab are white space to YAML): a no-break space ending a plain name is part of the name.
 */
const UNUSUAL =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff\ufffe\uffff]|\r(?!\n)/;
/** First characters a plain scalar may start with here; anything else (indicators, ".") gives up. */
const PLAIN_START = /^[A-Za-z0-9_/$(+-]/;

/** The document, or undefined when the text is outside the subset (then parse it with the library). */
export function parseSimpleYaml(text: string): { doc: Document.Parsed; lines: LineCounter } | undefined {
  if (text.includes("\t") || UNUSUAL.test(text)) return undefined;
  const lines = significantLines(text);
  if (lines === undefined || lines.length === 0 || lines[0]?.indent !== 0) return undefined;
  // Deeply nested text goes to the library, whose document the depth limit checks (yaml-file.ts).
  if (lines.some((line) => line.indent >= DEEP_INDENT)) return undefined;
  try {
    const parser = new BlockParser(lines);
    const contents = parser.parseMap(0);
    if (parser.index !== lines.length) return undefined;
    const doc = new Document() as unknown as Document.Parsed;
    doc.contents = contents as unknown as Document.Parsed["contents"];
    doc.range = [0, text.length, text.length];
    const counter = new LineCounter();
    counter.addNewLine(0);
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) counter.addNewLine(i + 1);
    return { doc, lines: counter };
  } catch (error) {
    if (error === GIVE_UP) return undefined;
    throw error;
  }
}

/** Non-blank, non-comment lines; undefined for document markers and directives. */
function significantLines(text: string): Line[] | undefined {
  const out: Line[] = [];
  let lineStart = 0;
  while (lineStart <= text.length) {
    let end = text.indexOf("\n", lineStart);
    if (end === -1) end = text.length;
    const next = end + 1;
    if (text.charCodeAt(end - 1) === 13) end -= 1; // CRLF: the CR is not content
    let indent = 0;
    while (text.charCodeAt(lineStart + indent) === 32) indent += 1;
    const start = lineStart + indent;
    if (start < end && text[start] !== "#") {
      if (indent === 0 && /^(---|\.\.\.|%)/.test(text.slice(start, start + 3))) return undefined;
      out.push({ indent, start, text: text.slice(start, end).trimEnd() });
    }
    lineStart = next;
  }
  return out;
}

class BlockParser {
  index = 0;
  private readonly lines: Line[];
  /** A line standing in for the rest of a `- key: value` line: the mapping inside the item. */
  private pending: Line | undefined;

  constructor(lines: Line[]) {
    this.lines = lines;
  }

  private current(): Line | undefined {
    return this.pending ?? this.lines[this.index];
  }

  private advance(): void {
    if (this.pending !== undefined) this.pending = undefined;
    else this.index += 1;
  }

  parseMap(indent: number): YAMLMap {
    const map = new YAMLMap();
    const seen = new Set<string>();
    let first = true;
    for (let line = this.current(); line !== undefined && line.indent === indent; line = this.current()) {
      if (line.text.startsWith("-")) giveUp();
      const colon = line.text.indexOf(":");
      if (colon <= 0) giveUp();
      const keyText = line.text.slice(0, colon);
      if (!isPlainKey(keyText) || seen.has(keyText)) giveUp();
      seen.add(keyText);
      const after = line.text.slice(colon + 1);
      if (after !== "" && after[0] !== " ") giveUp();
      const key = plainScalar(keyText, line.start);
      if (first) map.range = [line.start, line.start, line.start];
      first = false;
      const rest = after.trimStart();
      this.advance();
      let value: Node;
      if (rest === "" || rest.startsWith("#")) {
        value = this.parseNested(indent);
      } else {
        value = inlineValue(rest, line.start + colon + 1 + (after.length - rest.length));
        const next = this.current();
        if (next !== undefined && next.indent > indent) giveUp(); // a multi-line plain scalar
      }
      map.items.push(new Pair(key, value));
    }
    if (first) giveUp();
    const next = this.current();
    if (next !== undefined && next.indent > indent) giveUp();
    return map;
  }

  /** The block value of `key:` with nothing after it: deeper lines, or a sequence at the same indent. */
  private parseNested(indent: number): Node {
    const next = this.current();
    if (next === undefined) giveUp(); // `key:` alone is null
    if (next.indent > indent)
      return next.text.startsWith("-") ? this.parseSeq(next.indent) : this.parseMap(next.indent);
    if (next.indent === indent && isSeqItem(next.text)) return this.parseSeq(indent);
    return giveUp();
  }

  private parseSeq(indent: number): YAMLSeq {
    const seq = new YAMLSeq();
    for (
      let line = this.current();
      line !== undefined && line.indent === indent && isSeqItem(line.text);
      line = this.current()
    ) {
      if (seq.items.length === 0) seq.range = [line.start, line.start, line.start];
      const rest = line.text.slice(1).trimStart();
      if (rest === "" || rest.startsWith("#") || rest.startsWith("-")) giveUp();
      const offset = line.start + (line.text.length - rest.length);
      const column = indent + (offset - line.start);
      if (startsMapping(rest)) {
        this.advance();
        this.pending = { indent: column, start: offset, text: rest };
        seq.items.push(this.parseMap(column));
      } else {
        this.advance();
        seq.items.push(inlineValue(rest, offset));
        const next = this.current();
        if (next !== undefined && next.indent > indent) giveUp();
      }
    }
    const next = this.current();
    if (next !== undefined && next.indent > indent) giveUp();
    return seq;
  }
}

/** A key that the library reads as this very string (not a boolean, null or number). */
function isPlainKey(text: string): boolean {
  return text.length <= 1024 && KEY.test(text) && !BOOLEANS.has(text) && !NULLS.has(text);
}

function isSeqItem(text: string): boolean {
  return text === "-" || text.startsWith("- ");
}

/** `key: ...` or `key:` at the start of an item. */
function startsMapping(text: string): boolean {
  const colon = text.indexOf(":");
  return (
    colon > 0 && isPlainKey(text.slice(0, colon)) && (colon === text.length - 1 || text[colon + 1] === " ")
  );
}

/** A value on the rest of a line: a quoted or plain scalar, or a one-line flow collection. */
function inlineValue(text: string, offset: number): Node {
  const first = text[0];
  if (first === "{" || first === "[") {
    const flow = new FlowParser(text, offset);
    const node = flow.parseCollection();
    flow.expectEnd();
    return node;
  }
  if (first === '"' || first === "'") {
    const { scalar, end } = quotedScalar(text, 0, offset);
    checkTrailing(text.slice(end));
    return scalar;
  }
  if (first === "-" && (text.length === 1 || text[1] === " ")) giveUp(); // a sequence cannot start here
  const hash = text.indexOf(" #");
  const raw = (hash === -1 ? text : text.slice(0, hash)).trimEnd();
  if (raw.includes(": ") || raw.endsWith(":")) giveUp();
  return plainScalar(raw, offset);
}

function checkTrailing(rest: string): void {
  const trimmed = rest.trimStart();
  if (trimmed !== "" && !(trimmed.startsWith("#") && trimmed.length < rest.length)) giveUp();
}

function plainScalar(raw: string, offset: number): Scalar {
  if (raw === "" || !PLAIN_START.test(raw) || NULLS.has(raw)) giveUp();
  let value: string | number | boolean = raw;
  const bool = BOOLEANS.get(raw);
  if (bool !== undefined) value = bool;
  else if (INT.test(raw)) value = Number.parseInt(raw, 10);
  // A 24-hex id such as 6500000000000000000000e1 is a float to YAML: read it as the library
  // does; the loader takes such ids back as the text written (scalar.source).
  else if (FLOAT.test(raw)) value = Number.parseFloat(raw);
  else if (OTHER_NUMBERS.test(raw)) giveUp();
  const scalar = new Scalar(value);
  scalar.range = [offset, offset + raw.length, offset + raw.length];
  scalar.source = raw;
  scalar.type = Scalar.PLAIN;
  return scalar;
}

/** A quoted scalar that opens at text[at] and closes on the same line. */
function quotedScalar(text: string, at: number, offset: number): { scalar: Scalar; end: number } {
  const quote = text[at];
  let value: string;
  let end: number;
  if (quote === "'") {
    let i = at + 1;
    let out = "";
    for (;;) {
      const close = text.indexOf("'", i);
      if (close === -1) giveUp();
      out += text.slice(i, close);
      if (text[close + 1] === "'") {
        out += "'";
        i = close + 2;
      } else {
        end = close + 1;
        break;
      }
    }
    value = out;
  } else {
    let i = at + 1;
    for (;;) {
      const c = text[i];
      if (c === undefined) giveUp();
      if (c === "\\") {
        // Only the escapes YAML and JSON read the same way.
        if (!/^(["\\/bfnrt]|u[0-9a-fA-F]{4})/.test(text.slice(i + 1, i + 6))) giveUp();
        i += 2;
      } else if (c === '"') {
        break;
      } else {
        i += 1;
      }
    }
    end = i + 1;
    // No control characters reach here (UNUSUAL), so JSON reads the escapes exactly as YAML does.
    value = JSON.parse(text.slice(at, end)) as string;
  }
  const scalar = new Scalar(value);
  scalar.range = [offset + at, offset + end, offset + end];
  scalar.source = value;
  scalar.type = quote === "'" ? Scalar.QUOTE_SINGLE : Scalar.QUOTE_DOUBLE;
  return { scalar, end };
}

/** `{ a: b, c: d }` or `[a, b]` of scalars, on one line. */
class FlowParser {
  private i = 0;
  private readonly text: string;
  private readonly offset: number;

  constructor(text: string, offset: number) {
    this.text = text;
    this.offset = offset;
  }

  private skipSpaces(): void {
    while (this.text[this.i] === " ") this.i += 1;
  }

  expectEnd(): void {
    checkTrailing(this.text.slice(this.i));
  }

  parseCollection(): YAMLMap | YAMLSeq {
    const open = this.text[this.i];
    const close = open === "{" ? "}" : "]";
    const node = open === "{" ? new YAMLMap() : new YAMLSeq();
    node.flow = true;
    const start = this.offset + this.i;
    this.i += 1;
    const seen = new Set<string>();
    for (;;) {
      this.skipSpaces();
      if (this.text[this.i] === close) break;
      if (node instanceof YAMLMap) {
        const keyStart = this.i;
        const colon = this.text.indexOf(":", keyStart);
        if (colon === -1 || this.text[colon + 1] !== " ") giveUp();
        const keyText = this.text.slice(keyStart, colon);
        if (!isPlainKey(keyText) || seen.has(keyText)) giveUp();
        seen.add(keyText);
        this.i = colon + 1;
        this.skipSpaces();
        node.items.push(new Pair(plainScalar(keyText, this.offset + keyStart), this.scalar()));
      } else {
        node.items.push(this.scalar());
      }
      this.skipSpaces();
      const c = this.text[this.i];
      if (c === ",") {
        this.i += 1;
        this.skipSpaces();
        if (this.text[this.i] === close || this.text[this.i] === ",") giveUp(); // trailing or empty entry
      } else if (c !== close) {
        giveUp();
      }
    }
    this.i += 1;
    node.range = [start, this.offset + this.i, this.offset + this.i];
    return node;
  }

  private scalar(): Scalar {
    const c = this.text[this.i];
    if (c === '"' || c === "'") {
      const { scalar, end } = quotedScalar(this.text, this.i, this.offset);
      this.i = end;
      return scalar;
    }
    const start = this.i;
    while (this.i < this.text.length && !",}]".includes(this.text[this.i] ?? "")) this.i += 1;
    const raw = this.text.slice(start, this.i).trimEnd();
    if (/[[{#:]/.test(raw)) giveUp();
    return plainScalar(raw, this.offset + start);
  }
}

/**
 * The JS value of a tree this fast path built, as the library's toJS gives it, several times
 * faster: such a tree holds only maps with plain keys, sequences and scalars (no aliases, tags,
 * merge keys, nulls or duplicate keys), so none of toJS's general machinery is needed. Values
 * are read as they are now, after interpolation may have rewritten scalars.
 */
export function plainValue(node: unknown): unknown {
  if (node instanceof Scalar) return node.value;
  if (node instanceof YAMLSeq) return node.items.map(plainValue);
  if (node instanceof YAMLMap) {
    const out: Record<string, unknown> = {};
    for (const pair of node.items as Pair[]) {
      // The loader refuses a key "__proto__", and the copy must not be its victim first.
      setDataKey(out, (pair.key as Scalar).value as string, plainValue(pair.value));
    }
    return out;
  }
  return null;
}
