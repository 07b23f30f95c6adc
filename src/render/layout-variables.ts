// A layout's variables (r4-45, r4-46, r4-48): a required variable missing from the payload (or of
// the wrong type) refuses the render with the server's message; defaults fill in keys the payload
// lacks (the payload always wins). Names under the reserved roots (subscriber, step, branding,
// tenant, preheader, actor) are neither checked nor defaulted: the server supplies those.

import type { Data } from "./context.js";
import { RenderError } from "./render-error.js";
import type { LayoutVariable } from "./types.js";

const RESERVED_ROOTS = new Set(["subscriber", "step", "branding", "tenant", "preheader", "actor"]);

const TYPE_WORDS: Record<string, string> = { String: "Value", Array: "Array", Boolean: "Boolean" };

function isReserved(name: string): boolean {
  return RESERVED_ROOTS.has(name.split(".")[0] ?? name);
}

/** `a.b[0].c` -> ["a", "b", "0", "c"]. */
function pathOf(name: string): string[] {
  return name
    .replace(/\[(\w+)\]/g, ".$1")
    .split(".")
    .filter((part) => part !== "");
}

function valueAt(payload: unknown, name: string): unknown {
  let current = payload;
  for (const part of pathOf(name)) {
    if (current === null || typeof current !== "object" || !Object.hasOwn(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

function isPresent(value: unknown, type: string): boolean {
  if (type === "Array") return Array.isArray(value);
  if (type === "Boolean") return value === true || value === false;
  if (type === "String") return typeof value === "string" || typeof value === "number";
  return value !== null && value !== undefined;
}

/** Throws the server's 400 when a required variable is missing; returns the defaults to fill in. */
export function layoutDefaults(variables: readonly LayoutVariable[], payload: Readonly<Data>): Data {
  const missing = variables
    .filter((variable) => variable.required === true && !isReserved(variable.name))
    .filter((variable) => !isPresent(valueAt(payload, variable.name), variable.type ?? "String"))
    .map((variable) => `${variable.name} (${TYPE_WORDS[variable.type ?? "String"]})`);
  if (missing.length > 0)
    throw new RenderError(
      "payload",
      `payload is missing required key(s) and type(s): ${missing.join(", ")}`,
      {
        field: "layout.variables",
      },
    );
  const defaults: Data = {};
  for (const variable of variables) {
    const value = variable.defaultValue;
    if (value === undefined || value === null || isReserved(variable.name)) continue;
    setPath(defaults, pathOf(variable.name), value);
  }
  return defaults;
}

function setPath(target: Data, path: string[], value: unknown): void {
  if (path.some((part) => part === "__proto__" || part === "constructor" || part === "prototype")) return;
  let current = target;
  path.forEach((part, index) => {
    if (index === path.length - 1) current[part] = value;
    else {
      const next = current[part];
      const child = (typeof next === "object" && next !== null ? next : {}) as Data;
      current[part] = child;
      current = child;
    }
  });
}
