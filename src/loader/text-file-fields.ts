// Which values of a config file may be `{ file: PATH }`: each kind's declared text fields
// (KindModule.textFileFields, inside one entry), placed under the kind's section.

import type { TextFieldPath } from "../config/text-file-ref.js";
import type { KindModule } from "../kinds/kind.js";
import type { Kind } from "../kinds/kinds.js";
import { KINDS, registry } from "../kinds/registry.js";

let fields: TextFieldPath[] | undefined;

/** Every kind's text fields that may be `{ file: PATH }`, as paths from the top of a file. */
export function textFileFields(): TextFieldPath[] {
  fields ??= KINDS.flatMap((kind) => {
    const { section, textFileFields: declared = [] } = registry[kind] as KindModule<Kind>;
    const entry = section.shape === "list" ? [section.name, "*"] : [section.name];
    return declared.map((path) => [...entry, ...path]);
  });
  return fields;
}
