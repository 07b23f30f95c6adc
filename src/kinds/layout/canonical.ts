// A live layout in the config's terms (the fields a plan compares and an export writes).

import type { JsonObject, JsonValue } from "../../canonical.js";
import type { Layout } from "./wire.js";

/** A layout variable as the config holds it (a real server reads one without defaultValue as ""). */
function variablesOf(layout: Layout): JsonValue[] {
  return (layout.variables ?? []).map((v) => ({
    name: v.name,
    type: v.type ?? "String",
    required: v.required === true,
    defaultValue: (v.defaultValue ?? "") as JsonValue,
  }));
}

export function canonicalLayout(layout: Layout): JsonObject {
  return {
    name: layout.name ?? layout.identifier,
    description: layout.description ?? "",
    content: layout.content ?? "",
    contentType: layout.contentType ?? "customHtml",
    variables: variablesOf(layout),
    isDefault: layout.isDefault === true,
  };
}
