// ${VAR} and ${VAR:-default} in string values, done on the YAML tree so every problem keeps its
// position. `$${` writes a literal `${`. An unset variable without a default is an error at the
// value. Values taken from the environment are collected as sensitive (masked in all outputs).
// A value of a true/false field (active, critical, a channel) that is exactly one ${VAR}
// reference and comes out as true/false becomes a boolean, so flags can come from the
// environment (`active: ${ENABLE_DIGEST:-false}`); elsewhere it stays text. "true" and "false"
// are never recorded as sensitive. The same walk keeps unquoted all-digit ids
// (tenant: 650000000000000000000001) as the text written.
import { isPair, isScalar, visit } from "yaml";
import type { Problem } from "../errors.js";
import { positionOfNode, type YamlFile } from "./yaml-file.js";

const REFERENCE = /\$\$\{|\$\{([^}]*)\}/g;
const NAME = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s;

/** Fields that take true/false: only there does a whole-value ${VAR} become a boolean. */
const BOOLEAN_FIELDS = new Set(["active", "critical", "email", "sms", "in_app", "chat", "push"]);

/** Fields whose values are text even when they look like numbers (ids such as 650000000000000000000001). */
const TEXT_FIELDS = new Set([
  "key",
  "name",
  "id",
  "tenant",
  "workflow",
  "description",
  "organization",
  "notificationGroup",
]);

export function interpolateFile(
  file: YamlFile,
  vars: Readonly<Record<string, string | undefined>>,
  sensitive: Set<string>,
  problems: Problem[],
): void {
  if (file.doc === undefined) return;
  // One walk over the tree does both jobs: it is the hot path for large configs.
  visit(file.doc, {
    Pair(_key, pair) {
      // YAML reads an unquoted 650000000000000000000001 as the number 6.5e+23. For fields that
      // are text, take the number's source text instead, so ids need no quotes.
      const value = pair.value;
      if (isScalar(value) && typeof value.value === "number" && typeof value.source === "string") {
        const name = isScalar(pair.key) ? String(pair.key.value) : "";
        if (TEXT_FIELDS.has(name)) value.value = value.source;
      }
    },
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
          // "true"/"false" hide nothing, and masking them would garble every JSON output.
          if (value !== "true" && value !== "false") sensitive.add(value);
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
      const field = isPair(parent) && isScalar(parent.key) ? String(parent.key.value) : "";
      const wholeReference = /^\$\{[^}]*\}$/.test(source);
      if (wholeReference && BOOLEAN_FIELDS.has(field) && (result === "true" || result === "false"))
        node.value = result === "true";
      else node.value = result;
    },
  });
}
