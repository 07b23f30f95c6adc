// What the config schema says a field is, by its path in a file ("topics", "*", "key"): the
// interpolation walk asks it which values are text (an unquoted 650000000000000000000001 stays the
// digits written, not 6.5e+23) and which are true/false (a whole ${VAR} there becomes a boolean).
// Free-form objects (a workflow's `data`) have no field types: their numbers stay numbers.
import { schemaOf } from "../schemas.js";

export type FieldType = "string" | "boolean";

interface SchemaNode {
  type?: FieldType;
  /** A key, identifier or reference to one (`x-identity`): what names a resource. */
  identity?: boolean;
  /** Named properties of an object. */
  properties: Map<string, SchemaNode>;
  /** Array items and additionalProperties (environment names): any segment. */
  any?: SchemaNode;
}

let root: SchemaNode | undefined;

/** The type the config schema gives the value at `path` ("*" for an array index), if any. */
export function fieldTypeAt(path: readonly string[]): FieldType | undefined {
  return nodeAt(path)?.type;
}

/**
 * Whether the value at `path` names a resource (`x-identity` in the schema: a key, an identifier,
 * a reference to one). Such a name is written where no value from the environment may be (the
 * state file, every plan's action ids, exported file names), so it cannot come from one.
 */
export function isIdentityAt(path: readonly string[]): boolean {
  return nodeAt(path)?.identity === true;
}

function nodeAt(path: readonly string[]): SchemaNode | undefined {
  root ??= nodeOf(schemaOf("notiform") as Schema, schemaOf("notiform") as Schema, 0);
  let node: SchemaNode | undefined = root;
  for (const segment of path) {
    if (node === undefined) return undefined;
    node = segment === "*" ? node.any : (node.properties.get(segment) ?? node.any);
  }
  return node;
}

interface Schema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
  $defs?: Record<string, Schema>;
  enum?: unknown[];
  "x-identity"?: boolean;
}

function nodeOf(schema: Schema, document: Schema, depth: number): SchemaNode {
  const resolved = resolve(schema, document);
  const types = Array.isArray(resolved.type) ? resolved.type : [resolved.type];
  const node: SchemaNode = { properties: new Map() };
  const textEnum = Array.isArray(resolved.enum) && resolved.enum.every((v) => typeof v === "string");
  // Only a field that is text and nothing else: `include: 42` (a glob or a list) stays wrong.
  if ((types.length === 1 && types[0] === "string") || textEnum) node.type = "string";
  else if (types.length === 1 && types[0] === "boolean") node.type = "boolean";
  if (resolved["x-identity"] === true) node.identity = true;
  if (depth > 8) return node; // the config schema is shallow; no recursion to follow
  for (const [name, child] of Object.entries(resolved.properties ?? {}))
    node.properties.set(name, nodeOf(child, document, depth + 1));
  if (resolved.items !== undefined) node.any = nodeOf(resolved.items, document, depth + 1);
  else if (typeof resolved.additionalProperties === "object")
    node.any = nodeOf(resolved.additionalProperties, document, depth + 1);
  return node;
}

function resolve(schema: Schema, document: Schema): Schema {
  const ref = schema.$ref;
  if (ref === undefined || !ref.startsWith("#/$defs/")) return schema;
  const target = document.$defs?.[ref.slice("#/$defs/".length)];
  return target === undefined ? schema : resolve(target, document);
}
