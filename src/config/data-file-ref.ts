// `{ file: PATH }` in place of a value of data (a preview example, its payload or subscriber): a
// kind declares which of its fields may take one (KindModule.dataFileFields, paths inside an
// entry as for text fields), and the loader replaces each reference by the file's parsed content,
// so later stages see plain data. The file is read as `{ file: }` texts are (text-file-ref.ts:
// relative to the YAML file naming it, confined to the project directory, bounded, UTF-8) and
// parsed as YAML, which reads JSON too. The content must be a mapping: anything else, and a file
// that does not parse, is a problem at the reference's `file:` value naming the file and its line.
// References inside a referenced file are not followed (its `{ file: }` stays a plain value).

import { dirname, resolve } from "node:path";
import { isScalar, parseDocument, visit } from "yaml";
import type { Problem } from "../errors.js";
import {
  chargeTextBudget,
  collectFileRefs,
  type FileRefAt,
  fieldText,
  overTextBudget,
  readTextFile,
  type TextFieldPath,
  type TextFileScope,
} from "./text-file-ref.js";
import { positionAt } from "./yaml-file.js";

/** Aliases one data file may expand to: as for config files. */
const MAX_ALIAS_COUNT = 1000;

/**
 * Replace, in `data` (changed in place), every `{ file: PATH }` at one of `fields` by the parsed
 * mapping that file holds. Deeper fields are resolved first, so a field and its parent may both be
 * declared (an example, and its payload) and a referenced file's own references stay untouched.
 */
export async function resolveDataFileRefs(
  scope: TextFileScope,
  data: Record<string, unknown>,
  fields: readonly TextFieldPath[],
  problems: Problem[],
): Promise<void> {
  const deepestFirst = [...fields].sort((a, b) => b.length - a.length);
  for (const field of deepestFirst) {
    const found: FileRefAt[] = [];
    collectFileRefs(data, field, found);
    for (const item of found) {
      if (scope.budget.exceeded) return;
      const target = resolve(dirname(scope.file.path), item.ref.file);
      const read = await readTextFile(item.ref.file, target, scope);
      const pos = positionAt(scope.file, [...item.path, "file"]);
      // Data files count against the same total as text files (text-file-ref.ts).
      const over = "text" in read && chargeTextBudget(scope.budget, read.bytes);
      const parsed = over
        ? { reason: overTextBudget(item.ref.file) }
        : "text" in read
          ? parseData(item.ref.file, read.text)
          : read;
      if ("value" in parsed) (item.holder as Record<string | number, unknown>)[item.key] = parsed.value;
      else
        problems.push({
          severity: "error",
          rule: "data-file",
          message: parsed.reason,
          pos,
          field: fieldText(item.path),
        });
    }
  }
}

/** The mapping a data file holds, or why it cannot be used. */
function parseData(written: string, text: string): { value: Record<string, unknown> } | { reason: string } {
  const doc = parseDocument(text, { prettyErrors: true });
  const error = doc.errors[0];
  if (error !== undefined) {
    const line = error.linePos?.[0].line ?? 1;
    const what = error.message.split("\n")[0]?.replace(/ at line \d+, column \d+:?$/, "") ?? error.code;
    return { reason: `file "${written}" is not valid JSON or YAML (line ${line}): ${what}` };
  }
  // As in config files (yaml-file.ts): a key that copies would read as an object's prototype.
  const reserved = prototypeKeyOffset(doc);
  if (reserved !== undefined) {
    const line = text.slice(0, reserved).split("\n").length;
    return {
      reason: `file "${written}" holds the key __proto__ (line ${line}), which is not allowed (it would be read as an object's prototype, not as data)`,
    };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch {
    return { reason: `file "${written}": its aliases expand into too many values` };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return { reason: `file "${written}" must hold a mapping (a JSON object), not ${describe(value)}` };
  return { value: value as Record<string, unknown> };
}

/** Where the first mapping key `__proto__` (however it is spelled) starts, or undefined. */
function prototypeKeyOffset(doc: ReturnType<typeof parseDocument>): number | undefined {
  let offset: number | undefined;
  visit(doc, {
    Pair(_key, pair) {
      if (isScalar(pair.key) && String(pair.key.value) === "__proto__") {
        offset = pair.key.range?.[0] ?? 0;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return offset;
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return "nothing";
  if (Array.isArray(value)) return "a list";
  return `a ${typeof value}`;
}
