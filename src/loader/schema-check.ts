// Schema validation of each file's data against schemas/notiform.schema.json (ajv, draft
// 2020-12, compiled once, all errors), translated into plain messages at the offending value:
// no validator jargon reaches the user.
import type { ErrorObject } from "ajv/dist/2020.js";
import { didYouMean } from "../config/did-you-mean.js";
import { positionAt, type YamlFile } from "../config/yaml-file.js";
import type { Problem } from "../errors.js";
import { KINDS, registry } from "../kinds/registry.js";
import { validatorOf } from "../schemas.js";

/**
 * `sensitive`: values from the environment, never quoted cut short in a message. `overlay`: the
 * file is an environment's include, layered over the base: its entries may leave out required
 * fields (the base gives them; checked after layering) and may set a field to null (not managed
 * in that environment).
 */
export function checkSchema(
  file: YamlFile,
  data: unknown,
  problems: Problem[],
  sensitive: ReadonlySet<string> = new Set(),
  overlay = false,
): boolean {
  const validate = validatorOf("notiform");
  if (validate(data)) return true;
  const seen = new Set<string>();
  let reported = false;
  for (const error of validate.errors ?? []) {
    // A property name's own failure (its pattern) is told once, by the propertyNames error.
    if (error.propertyName !== undefined) continue;
    if (overlay && allowedInOverlay(error)) continue;
    reported = true;
    const problem = toProblem(file, error, sensitive);
    const id = `${problem.pos.line}:${problem.pos.col}:${problem.message}`;
    if (seen.has(id)) continue;
    seen.add(id);
    problems.push(problem);
  }
  return !reported;
}

/** Config sections that hold one mapping (branding), not a list of entries: the registry says which. */
const SINGLE_SECTIONS: ReadonlySet<string> = new Set(
  KINDS.filter((kind) => registry[kind].section.shape === "single").map(
    (kind) => registry[kind].section.name,
  ),
);

/** How a schema refuses a null where a value is expected: a type, a list of values, one value. */
const NULL_REFUSALS: ReadonlySet<string> = new Set(["type", "enum", "const"]);

/** An entry's missing required field, or a field of an entry (or a channel) set to null. */
function allowedInOverlay(error: ErrorObject): boolean {
  const segments = segmentsOf(error.instancePath);
  const single = typeof segments[0] === "string" && SINGLE_SECTIONS.has(segments[0]);
  if (!single && typeof segments[1] !== "number") return false;
  const depth = single ? 1 : 2;
  if (error.keyword === "required") return segments.length === depth;
  if (error.data !== null || !NULL_REFUSALS.has(error.keyword)) return false;
  // Only what layering leaves out (merge.ts, withoutNulls): a field of the entry, or one channel
  // of its preferenceSettings. A null deeper down (a step's name) would reach the server as null.
  return (
    segments.length === depth + 1 ||
    (segments.length === depth + 2 && segments[depth] === "preferenceSettings")
  );
}

function segmentsOf(instancePath: string): (string | number)[] {
  if (instancePath === "") return [];
  return instancePath
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** topics[1].name */
export function fieldPath(segments: (string | number)[]): string {
  let out = "";
  for (const s of segments) out += typeof s === "number" ? `[${s}]` : out === "" ? s : `.${s}`;
  return out;
}

/** Values this short are not masked (src/mask.ts): naming them hides nothing. */
const MIN_SECRET_LENGTH = 4;

function describeValue(value: unknown, sensitive: ReadonlySet<string>): string {
  if (value === null || value === undefined) return "nothing";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  // A long value holding one from the environment is not quoted: cut at 57 characters, the
  // masker could no longer recognise it (a whole one is quoted, and masked on output).
  if (
    typeof value === "string" &&
    value.length > 60 &&
    [...sensitive].some((s) => s.length >= MIN_SECRET_LENGTH && value.includes(s))
  )
    return "a value from the environment (not shown)";
  if (typeof value === "string")
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  return `${typeof value === "boolean" ? "" : `${typeof value} `}${String(value)}`;
}

const ARTICLE: Record<string, string> = {
  string: "a string",
  boolean: "true or false",
  number: "a number",
  integer: "a whole number",
  object: "a mapping",
  array: "a list",
};

function toProblem(file: YamlFile, error: ErrorObject, sensitive: ReadonlySet<string>): Problem {
  const segments = segmentsOf(error.instancePath);
  const where = fieldPath(segments);
  const label = where === "" ? "the file" : where;
  const base = { severity: "error" as const, rule: "schema", field: where };
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "additionalProperties": {
      const property = String(params.additionalProperty);
      if (property === "<<")
        return {
          ...base,
          field: fieldPath([...segments, property]),
          message: `${label}: YAML merge keys ("<<: *anchor") are not supported: config files are YAML 1.2, which has none; write the fields out, or alias a whole value ("preferenceSettings: *anchor")`,
          pos: positionAt(file, [...segments, property], true),
        };
      const known = Object.keys(
        (error.parentSchema as { properties?: object } | undefined)?.properties ?? {},
      );
      return {
        ...base,
        field: fieldPath([...segments, property]),
        message: `unknown property "${property}" in ${label}${didYouMean(property, known)}`,
        pos: positionAt(file, [...segments, property], true),
      };
    }
    case "required":
      return {
        ...base,
        message: `${label}: missing required field "${String(params.missingProperty)}"`,
        pos: positionAt(file, segments),
      };
    case "type": {
      const types = String(params.type)
        .split(",")
        .map((t) => ARTICLE[t] ?? t)
        .join(" or ");
      return {
        ...base,
        message: `${label}: must be ${types}, got ${describeValue(error.data, sensitive)}`,
        pos: positionAt(file, segments),
      };
    }
    case "pattern": {
      const custom = (error.parentSchema as { "x-message"?: string } | undefined)?.["x-message"];
      return {
        ...base,
        message: `${label}: ${custom ?? `must match ${String(params.pattern)}`}, got ${describeValue(error.data, sensitive)}`,
        pos: positionAt(file, segments),
      };
    }
    case "minLength":
      return { ...base, message: `${label}: must not be empty`, pos: positionAt(file, segments) };
    case "maxLength":
      return {
        ...base,
        message: `${label}: must be at most ${String(params.limit)} characters`,
        pos: positionAt(file, segments),
      };
    case "const":
      return {
        ...base,
        message: `${label}: must be ${JSON.stringify(params.allowedValue)}, got ${describeValue(error.data, sensitive)}`,
        pos: positionAt(file, segments),
      };
    case "enum": {
      const allowed = (params.allowedValues as unknown[]).map(String);
      const got = typeof error.data === "string" ? didYouMean(error.data, allowed) : "";
      return {
        ...base,
        message: `${label}: must be one of ${allowed.join(", ")}, got ${describeValue(error.data, sensitive)}${got}`,
        pos: positionAt(file, segments),
      };
    }
    case "minProperties":
      return {
        ...base,
        message: `${label}: must set at least ${String(params.limit)} field${params.limit === 1 ? "" : "s"}, got none`,
        pos: positionAt(file, segments),
      };
    case "maxProperties": {
      // `{ file: PATH }` stands alone (a dependent schema of `file`): name the field it is about.
      const alone = /\/dependentSchemas\/([^/]+)\/maxProperties$/.exec(error.schemaPath)?.[1];
      return {
        ...base,
        message:
          alone !== undefined && params.limit === 1
            ? `${label}: with "${alone}" nothing else may be given (the rest belongs in that file)`
            : `${label}: must have at most ${String(params.limit)} fields`,
        pos: positionAt(file, segments),
      };
    }
    case "uniqueItems":
      return { ...base, message: `${label}: lists the same value twice`, pos: positionAt(file, segments) };
    case "format":
      return {
        ...base,
        message: `${label}: must be a valid ${String(params.format)}, got ${describeValue(error.data, sensitive)}`,
        pos: positionAt(file, segments),
      };
    case "propertyNames": {
      const name = String(params.propertyName);
      return {
        ...base,
        field: fieldPath([...segments, name]),
        message: `${label}: the name ${JSON.stringify(name)} may only use letters, digits, "-", "_" and "."`,
        pos: positionAt(file, [...segments, name], true),
      };
    }
    default: {
      // A keyword without words of its own here (`not`) says what the schema's x-message says.
      const custom = (error.parentSchema as { "x-message"?: string } | undefined)?.["x-message"];
      return {
        ...base,
        message: `${label}: ${custom ?? error.message ?? "is not valid"}`,
        pos: positionAt(file, segments),
      };
    }
  }
}
