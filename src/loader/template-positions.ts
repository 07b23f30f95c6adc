// Where a position inside a template lies in the files the user edits: inside the template file
// for a `{ file: PATH }` text, or in the YAML file for an inline string. A single-line string maps
// exactly (past its opening quote); a literal block scalar (`|`) maps line by line below its
// header at the content's indentation; other multi-line forms (folded `>`, multi-line quoted or
// plain strings) fold lines, so a position past their first line is reported at the value's start.

import { readFile } from "node:fs/promises";
import { isMap, isPair, isScalar, isSeq, type Node, Scalar } from "yaml";
import { at, type YamlFile } from "../config/yaml-file.js";
import type { Position } from "../errors.js";

/** The YAML node at `path` (section first), or undefined. */
export function nodeAt(file: YamlFile, path: readonly (string | number)[]): Node | undefined {
  let node: unknown = file.doc?.contents;
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find(
        (p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(segment),
      );
      node = pair?.value;
    } else if (isSeq(node) && typeof segment === "number") node = node.items[segment];
    else return undefined;
  }
  return (node ?? undefined) as Node | undefined;
}

/** A file's text, read once per check run (only for block scalars that hold a problem). */
export type SourceReader = (file: YamlFile) => Promise<string | undefined>;

export function sourceReader(): SourceReader {
  const texts = new Map<string, Promise<string | undefined>>();
  return (file) => {
    let text = texts.get(file.path);
    if (text === undefined) {
      text = readFile(file.path, "utf8").catch(() => undefined);
      texts.set(file.path, text);
    }
    return text;
  };
}

/** The YAML position of line:col (1-based) of the string value `node` holds. */
export async function yamlPosition(
  file: YamlFile,
  node: Node | undefined,
  inside: { line: number; col: number } | undefined,
  read: SourceReader,
): Promise<Position> {
  const start = node?.range?.[0] ?? 0;
  const startPos = at(file, start);
  if (inside === undefined || !isScalar(node)) return startPos;
  const type = (node as Scalar).type;
  if (type === Scalar.BLOCK_LITERAL) {
    const indent = await blockIndent(file, start, read);
    if (indent === undefined) return startPos;
    return { file: file.rel, line: startPos.line + inside.line, col: indent + inside.col };
  }
  if (inside.line !== 1) return startPos;
  const quoted = type === Scalar.QUOTE_DOUBLE || type === Scalar.QUOTE_SINGLE ? 1 : 0;
  if (type === Scalar.BLOCK_FOLDED) return startPos;
  return { file: file.rel, line: startPos.line, col: startPos.col + quoted + inside.col - 1 };
}

/** The indentation of a block scalar's content: its first non-blank line's, below the header at `offset`. */
async function blockIndent(file: YamlFile, offset: number, read: SourceReader): Promise<number | undefined> {
  const text = await read(file);
  if (text === undefined) return undefined;
  const lines = text.slice(offset).split(/\r?\n/).slice(1);
  const first = lines.find((line) => line.trim() !== "");
  return first === undefined ? undefined : first.length - first.trimStart().length;
}
