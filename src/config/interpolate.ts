// ${VAR} and ${VAR:-default} in string values, done on the YAML tree so every problem keeps its
// position. `$${` writes a literal `${`. An unset variable without a default is an error at the
// value. Values taken from the environment are collected as sensitive (masked in all outputs).
// A value of a field the schema says is true/false (active, critical, a channel) that is exactly
// one ${VAR} reference and comes out as true/false becomes a boolean, so flags can come from the
// environment (`active: ${ENABLE_DIGEST:-false}`); elsewhere it stays text. "true" and "false"
// are never recorded as sensitive. The same walk keeps an unquoted number in a field the schema
// says is text (tenant: 650000000000000000000001) as the text written. Which fields those are is
// decided by the field's path in the schema, never by its name alone: `data: {id: 42}` is free-form
// and keeps its number. And it refuses what JSON cannot hold, which would reach the server changed:
// a tag such as !!set or !!timestamp, a list or mapping as a key, NaN, infinities, an integer past
// 2^53 (rule yaml-value).
import { isCollection, isMap, isScalar, isSeq, type Pair, type Scalar } from "yaml";
import type { Problem } from "../errors.js";
import { fieldTypeAt, isIdentityAt } from "./field-types.js";
import { positionOfNode, type YamlFile } from "./yaml-file.js";

const REFERENCE = /\$\$\{|\$\{([^}]*)\}/g;

/** The rule of a YAML value JSON cannot hold: the file is not read further (tree.ts). */
export const YAML_VALUE = "yaml-value";

/** Explicit tags that keep a value JSON can hold. */
const CORE_TAGS: ReadonlySet<string> = new Set(
  ["str", "int", "float", "bool", "null", "map", "seq"].map((name) => `tag:yaml.org,2002:${name}`),
);
const NAME = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s;

export function interpolateFile(
  file: YamlFile,
  vars: Readonly<Record<string, string | undefined>>,
  sensitive: Set<string>,
  problems: Problem[],
): void {
  if (file.doc === undefined) return;
  // One hand-written walk over the tree does both jobs, carrying the key path as it goes: it is
  // the hot path for large configs, and the library's generic visit cost several times more.
  const path: string[] = [];
  // The same path with list indices, for a problem's field ("tenants[0].data.big").
  const at: (string | number)[] = [];
  const walk = (node: unknown, pair: Pair | undefined): void => {
    if (isMap(node)) {
      unsupportedTag(node);
      for (const item of node.items) {
        if (!isScalar(item.key)) {
          // JSON has text keys only: the library would make "[ a ]" of it, with a process warning.
          if (isCollection(item.key))
            refuse(item.key, "a mapping key must be a plain value, not a list or a mapping");
        } else keepNumberSource(item, item.key);
        const named = isScalar(item.key);
        if (named) {
          path.push(String((item.key as Scalar).value));
          at.push(String((item.key as Scalar).value));
        }
        walk(item.value, item);
        if (named) {
          path.pop();
          at.pop();
        }
      }
    } else if (isSeq(node)) {
      unsupportedTag(node);
      path.push("*");
      node.items.forEach((item, index) => {
        at.push(index);
        walk(item, undefined);
        at.pop();
      });
      path.pop();
    } else if (isScalar(node)) {
      if (!unsupportedTag(node)) unrepresentableNumber(node);
      interpolateScalar(node, pair);
    }
    // Aliases point at nodes walked where they are defined.
  };

  // What JSON cannot hold would reach the server changed (a set as {}, .nan as null, a 20-digit
  // integer rounded): refused at the value instead (rule yaml-value, which stops the file's load).
  // The field a problem here names ("tenants[0].data.big"), when below the top.
  const fieldHere = (): { field?: string } => {
    const field = at
      .map((part) => (typeof part === "number" ? `[${part}]` : `.${part}`))
      .join("")
      .slice(1);
    return field === "" ? {} : { field };
  };
  const refuse = (node: unknown, message: string) => {
    problems.push({
      severity: "error",
      rule: YAML_VALUE,
      message,
      pos: positionOfNode(file, node),
      ...fieldHere(),
    });
  };
  const unsupportedTag = (node: { tag?: string | undefined }): boolean => {
    const tag = node.tag;
    if (tag === undefined || CORE_TAGS.has(tag)) return false;
    refuse(
      node,
      `YAML tag ${tag.replace("tag:yaml.org,2002:", "!!")} is not supported: write plain mappings, lists, text, numbers and true/false`,
    );
    return true;
  };
  const unrepresentableNumber = (node: Scalar) => {
    const value = node.value;
    if (typeof value !== "number" || Number.isSafeInteger(value)) return;
    if (Number.isFinite(value) && !Number.isInteger(value)) return;
    refuse(
      node,
      `${typeof node.source === "string" ? node.source : String(value)} cannot be sent as a number exactly (JSON numbers cannot hold it): quote it to send it as text`,
    );
  };

  // YAML reads an unquoted 650000000000000000000001 as the number 6.5e+23. For fields that are
  // text, take the number's source text instead, so ids need no quotes.
  const keepNumberSource = (pair: Pair, key: Scalar) => {
    const value = pair.value;
    if (isScalar(value) && typeof value.value === "number" && typeof value.source === "string") {
      path.push(String(key.value));
      if (fieldTypeAt(path) === "string") value.value = value.source;
      path.pop();
    }
  };

  const interpolateScalar = (node: Scalar, pair: Pair | undefined) => {
    if (typeof node.value !== "string" || !node.value.includes("${")) return;
    const source = node.value;
    let failed = false;
    const fromEnvironment: string[] = [];
    const result = source.replace(REFERENCE, (match, inner: string | undefined) => {
      if (match === "$${") return "${";
      const parsed = NAME.exec(inner ?? "");
      if (!parsed) {
        problems.push({
          severity: "error",
          rule: "interpolation",
          message: `"${match}" is not a valid reference: use \${NAME} or \${NAME:-default}`,
          pos: positionOfNode(file, node),
          ...fieldHere(),
        });
        failed = true;
        return match;
      }
      const [, name = "", fallback] = parsed;
      if (fallback?.includes("${")) {
        problems.push({
          severity: "error",
          rule: "interpolation",
          message: `"${match}}" nests a reference in its default, which is not supported: give a plain default`,
          pos: positionOfNode(file, node),
          ...fieldHere(),
        });
        failed = true;
        return match;
      }
      // Only the variables themselves: `constructor` or `toString` is no variable of any environment.
      const value = Object.hasOwn(vars, name) ? vars[name] : undefined;
      if (value !== undefined) {
        // "true"/"false" hide nothing, and masking them would garble every JSON output.
        if (value !== "true" && value !== "false") sensitive.add(value);
        fromEnvironment.push(name);
        return value;
      }
      if (fallback !== undefined) return fallback;
      problems.push({
        severity: "error",
        rule: "interpolation",
        message: `environment variable ${name} is not set and has no default (write \${${name}:-default} to give one)`,
        pos: positionOfNode(file, node),
        ...fieldHere(),
      });
      failed = true;
      return match;
    });
    if (failed) return;
    if (fromEnvironment.length > 0 && isIdentityAt(path)) {
      const here = fieldHere();
      problems.push({
        severity: "error",
        rule: "interpolation",
        message: `${here.field ?? "this value"}: a key, identifier or reference to one cannot come from the environment (\${${fromEnvironment[0]}}): it names the resource in the state file, plans and exported file names, where no value from the environment may be written. Write it in the file (one per environment: in that environment's overlay)`,
        pos: positionOfNode(file, node),
        ...here,
      });
      return;
    }
    const wholeReference = /^\$\{[^}]*\}$/.test(source);
    // The path ends with the pair's key here (walk pushed it): the field's own path.
    if (
      wholeReference &&
      (result === "true" || result === "false") &&
      pair !== undefined &&
      isScalar(pair.key) &&
      fieldTypeAt(path) === "boolean"
    )
      node.value = result === "true";
    else node.value = result;
  };

  walk(file.doc.contents, undefined);
}
