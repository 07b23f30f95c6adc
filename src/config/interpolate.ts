// ${VAR} and ${VAR:-default} in string values, done on the YAML tree so every problem keeps its
// position. `$${` writes a literal `${`. An unset variable without a default is an error at the
// value. Values taken from the environment are collected as sensitive (masked in all outputs).
// A value that is exactly one ${VAR} reference and comes out as true/false becomes a boolean,
// so flags can come from the environment (`active: ${ENABLE_DIGEST:-false}`).
import { isPair, isScalar, visit } from "yaml";
import type { Problem } from "../errors.js";
import { positionOfNode, type YamlFile } from "./yaml-file.js";

const REFERENCE = /\$\$\{|\$\{([^}]*)\}/g;
const NAME = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s;

/** Fields whose values are text even when they look like numbers (ids such as 650000000000000000000001). */
const TEXT_FIELDS = new Set(["key", "name", "id", "tenant", "workflow", "description", "organization", "notificationGroup"]);

/**
 * YAML reads an unquoted 650000000000000000000001 as the number 6.5e+23. For fields that are
 * text, take the number's source text instead, exactly as written, so ids need no quotes.
 */
export function keepNumbersAsText(file: YamlFile): void {
  if (file.doc === undefined) return;
  visit(file.doc, {
    Pair(_key, pair) {
      const name = isScalar(pair.key) ? String(pair.key.value) : "";
      const value = pair.value;
      if (TEXT_FIELDS.has(name) && isScalar(value) && typeof value.value === "number" && typeof value.source === "string") {
        value.value = value.source;
      }
    },
  });
}

export function interpolateFile(
  file: YamlFile,
  vars: Readonly<Record<string, string | undefined>>,
  sensitive: Set<string>,
  problems: Problem[],
): void {
  if (file.doc === undefined) return;
  visit(file.doc, {
    Scalar(key, node, path) {
      if (key === "key") return; // mapping keys are never interpolated
      const parent = path[path.length - 1];
      if (isPair(parent) && parent.key === node) return;
      if (typeof node.value !== "string" || !node.value.includes("${")) return;
      const source = node.value;
      let failed = false;
      const result = source.replace(REFERENCE, (match, inner: string | undefined) => {
        if (match === "$${") return "${";
        const parsed = NAME.exec(inner ?? "");
        if (!parsed) {
          problems.push({
            severity: "error",
            rule: "interpolation",
            message: `"${match}" is not a valid reference: use \${NAME} or \${NAME:-default}`,
            pos: positionOfNode(file, node),
          });
          failed = true;
          return match;
        }
        const [, name = "", fallback] = parsed;
        const value = vars[name];
        if (value !== undefined) {
          sensitive.add(value);
          return value;
        }
        if (fallback !== undefined) return fallback;
        problems.push({
          severity: "error",
          rule: "interpolation",
          message: `environment variable ${name} is not set and has no default (write \${${name}:-default} to give one)`,
          pos: positionOfNode(file, node),
        });
        failed = true;
        return match;
      });
      if (failed) return;
      if (/^\$\{[^}]*\}$/.test(source) && (result === "true" || result === "false")) node.value = result === "true";
      else node.value = result;
    },
  });
}
