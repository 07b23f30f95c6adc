// Reading one config file: YAML with source positions kept, duplicate keys and syntax errors
// reported as problems at their line and column, and helpers to find where any value sits.
// It never guesses an encoding: bytes that are not UTF-8 are an error at the first bad byte,
// not silently turned into replacement characters.
import { isUtf8 } from "node:buffer";
import {
  type Document,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  parseAllDocuments,
  Scalar,
  visit,
} from "yaml";
import { readBoundedFile } from "../bounded-file.js";
import type { Position, Problem } from "../errors.js";
import { excessiveAlias, MAX_ALIAS_EXPANSION } from "./alias-budget.js";
import { displayPath } from "./display-path.js";
import { parseSimpleYaml } from "./fast-yaml.js";

export interface YamlFile {
  /** Absolute path. */
  path: string;
  /** Path relative to cwd, forward slashes: what messages show. */
  rel: string;
  doc: Document.Parsed | undefined;
  lines: LineCounter;
  /** The file holds no YAML document at all (empty, or only whitespace). */
  empty: boolean;
  /** Parsed by the fast path (fast-yaml.ts): its values are read with plainValue. */
  fast: boolean;
}

export async function readYamlFile(path: string, cwd: string, problems: Problem[]): Promise<YamlFile> {
  const rel = displayPath(path, cwd);
  const lines = new LineCounter();
  const file: YamlFile = { path, rel, doc: undefined, lines, empty: false, fast: false };
  const read = await readBoundedFile(path);
  if (!read.ok) {
    problems.push({
      severity: "error",
      rule: "file",
      message: `${rel} ${read.reason === "does not exist" ? "cannot be read" : read.reason}`,
      pos: { file: rel, line: 1, col: 1 },
    });
    return file;
  }
  const bytes = read.bytes;
  const text = bytes.toString("utf8");
  if (!isUtf8(bytes)) {
    problems.push({
      severity: "error",
      rule: "encoding",
      message: `${rel} is not valid UTF-8 text: save it as UTF-8`,
      pos: positionInText(rel, text, text.indexOf("\uFFFD")),
    });
    return file;
  }
  // Most config files are plain YAML that the fast path reads ~10x faster; everything else
  // (and every error) goes through the library.
  const fast = parseSimpleYaml(text);
  if (fast !== undefined) {
    file.doc = fast.doc;
    file.lines = fast.lines;
    file.fast = true;
    refusePrototypeKeys(file, text, problems);
    return file;
  }
  const docs = parseAllDocuments(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: true });
  const list = Array.isArray(docs) ? docs : [];
  file.empty = list.length === 0;
  if (list.length > 1) {
    const second = list[1];
    problems.push({
      severity: "error",
      rule: "yaml-syntax",
      message: "a config file must hold one YAML document, not several (remove the `---` separator)",
      pos: at(file, second?.range?.[0] ?? 0),
    });
  }
  const doc = list[0];
  if (doc === undefined) return file;
  // The parser may report one mistake many times (each unclosed bracket of a line): once is enough.
  const said = new Set<string>();
  for (const error of [...doc.errors, ...doc.warnings]) {
    const [line, col] = error.linePos?.[0] ? [error.linePos[0].line, error.linePos[0].col] : [1, 1];
    const problem: Problem = {
      severity: error.name === "YAMLWarning" ? "warning" : "error",
      rule: "yaml-syntax",
      message: yamlMessage(error.code, error.message, text.slice(error.pos[0], error.pos[0] + 200)),
      pos: { file: rel, line, col },
    };
    // The parser reports an unclosed quote where the file ends; the quote that opened it is
    // what the user has to find.
    const opening = error.code === "MISSING_CHAR" ? openingQuoteBefore(doc, error.pos[0]) : undefined;
    if (opening !== undefined) {
      problem.pos = at(file, opening.offset);
      problem.message = `YAML: the quoted value that starts here has no closing ${opening.quote}`;
    }
    const key = `${problem.pos.line}:${problem.pos.col}:${problem.severity}:${problem.message}`;
    if (said.has(key)) continue;
    said.add(key);
    problems.push(problem);
  }
  if (doc.errors.length > 0) return file;
  // YAML 1.1 reads `NO` as false, `0777` as 511 and `1:20` as 80: a config means what it says.
  if (doc.directives?.yaml.version !== undefined && doc.directives.yaml.version !== "1.2") {
    problems.push({
      severity: "error",
      rule: "yaml-syntax",
      message: `YAML: %YAML ${doc.directives.yaml.version} is not supported (it reads NO as false and 0777 as 511): remove the directive; config files are YAML 1.2`,
      pos: { file: rel, line: 1, col: 1 },
    });
    return file;
  }
  const deep = tooDeep(doc);
  if (deep !== undefined) {
    problems.push({
      severity: "error",
      rule: "yaml-syntax",
      message: `YAML: values are nested more than ${MAX_NESTING} levels deep here; refusing to load the file`,
      pos: positionOfNode(file, deep),
    });
    return file;
  }
  // The fast path never accepts an alias, so only the library's documents can hold one.
  const bomb = excessiveAlias(doc);
  if (bomb !== undefined) {
    problems.push({
      severity: "error",
      rule: "yaml-syntax",
      message: `YAML: the aliases in this file expand into more than ${MAX_ALIAS_EXPANSION} values; refusing to load it`,
      pos: positionOfNode(file, bomb),
    });
    return file;
  }
  file.doc = doc;
  refusePrototypeKeys(file, text, problems);
  return file;
}

/**
 * A mapping key `__proto__` is refused wherever it appears. Once the YAML becomes objects, such a
 * key is set as the object's prototype by any copy that assigns it, so a plan (and its masking)
 * could show a value without it while apply sent it: the plan and apply must never differ. No
 * server field of this API has that name. The parsed key is what is checked: a double-quoted key
 * may spell it with escapes (`"\x5f_proto__"`, `"__proto\u005f_"`). The text is only a filter: a
 * file holding neither the name nor any backslash cannot spell it, and is not walked.
 */
function refusePrototypeKeys(file: YamlFile, text: string, problems: Problem[]): void {
  if (file.doc === undefined || !(text.includes("__proto__") || text.includes("\\"))) return;
  visit(file.doc, {
    Pair(_key, pair) {
      if (isScalar(pair.key) && String(pair.key.value) === "__proto__")
        problems.push({
          severity: "error",
          rule: "reserved-key",
          message:
            "the key `__proto__` is not allowed (it would be read as an object's prototype, not as data)",
          pos: positionOfNode(file, pair.key),
        });
    },
  });
}

/**
 * How deep mappings and sequences may nest. Every later step walks values recursively, and a few
 * thousand levels overflow the stack (an internal error instead of a message); no config needs
 * more than a handful. The walk here is iterative, so it cannot overflow itself.
 */
export const MAX_NESTING = 64;

/** The first collection nested deeper than MAX_NESTING, or undefined. */
function tooDeep(doc: Document.Parsed): Node | undefined {
  const stack: [unknown, number][] = [[doc.contents, 1]];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const [node, depth] = entry;
    if (!isMap(node) && !isSeq(node)) continue;
    if (depth > MAX_NESTING) return node as Node;
    for (const item of node.items as unknown[]) {
      if (isPair(item)) {
        stack.push([item.key, depth + 1]);
        stack.push([item.value, depth + 1]);
      } else stack.push([item, depth + 1]);
    }
  }
  return undefined;
}

/** The last quoted scalar that starts before `offset` and runs up to it: an unclosed quote. */
function openingQuoteBefore(
  doc: Document.Parsed,
  offset: number,
): { offset: number; quote: string } | undefined {
  let found: { offset: number; quote: string } | undefined;
  visit(doc, {
    Scalar(_key, node) {
      const quoted = node.type === Scalar.QUOTE_DOUBLE || node.type === Scalar.QUOTE_SINGLE;
      const range = node.range;
      if (
        quoted &&
        range &&
        range[0] < offset &&
        range[1] >= offset &&
        (found === undefined || range[0] > found.offset)
      ) {
        found = { offset: range[0], quote: node.type === Scalar.QUOTE_DOUBLE ? '"' : "'" };
      }
    },
  });
  return found;
}

function positionInText(file: string, text: string, offset: number): Position {
  const before = text.slice(0, Math.max(0, offset));
  const lineStart = before.lastIndexOf("\n") + 1;
  return { file, line: before.split("\n").length, col: offset - lineStart + 1 };
}

function yamlMessage(code: string, message: string, token: string): string {
  // The parser's own stack ran out: only nesting thousands of levels deep does that.
  if (code === "RESOURCE_EXHAUSTION")
    return `YAML: values are nested far more than ${MAX_NESTING} levels deep; refusing to load the file`;
  if (code === "DUPLICATE_KEY") {
    const key = /^["']?([^"':\n]+)/.exec(token)?.[1]?.trim();
    return key
      ? `duplicate key "${key}": each key may appear once per mapping`
      : "duplicate key: each key may appear once per mapping";
  }
  // The library's message carries " at line L, column C:" and a code frame; the position is ours.
  const first = (message.split("\n")[0] ?? message).replace(/ at line \d+, column \d+:?$/, "");
  return `YAML: ${first}`;
}

/** The position of a byte offset in a file. */
export function at(file: YamlFile, offset: number): Position {
  const { line, col } = file.lines.linePos(offset);
  return { file: file.rel, line, col };
}

export function positionOfNode(file: YamlFile, node: unknown): Position {
  const range = (node as { range?: [number, number, number] } | null)?.range;
  return at(file, range?.[0] ?? 0);
}

/** Where the value at `path` starts; falls back to the nearest ancestor that exists. */
export function positionAt(file: YamlFile, path: (string | number)[], pointAtKey = false): Position {
  let node: unknown = file.doc?.contents;
  let best: unknown = node;
  for (const [index, segment] of path.entries()) {
    if (isMap(node)) {
      const pair = node.items.find(
        (p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(segment),
      );
      if (!pair) break;
      if (pointAtKey && index === path.length - 1) return positionOfNode(file, pair.key);
      node = pair.value;
    } else if (isSeq(node) && typeof segment === "number") {
      node = node.items[segment];
    } else {
      break;
    }
    if (node === undefined || node === null) break;
    best = node;
  }
  return positionOfNode(file, best as Node | undefined);
}
