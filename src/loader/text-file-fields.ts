// Which values of a config file may be `{ file: PATH }`: each kind's declared text fields
// (KindModule.textFileFields, inside one entry), placed under the kind's section; and the data
// fields that may be `{ file: PATH }` of JSON or YAML (KindModule.dataFileFields).

import type { TextFieldPath } from "../config/text-file-ref.js";
import type { KindModule } from "../kinds/kind.js";
import type { Kind } from "../kinds/kinds.js";
import { KINDS, registry } from "../kinds/registry.js";

let fields: TextFieldPath[] | undefined;
let dataFields: TextFieldPath[] | undefined;

/** Every kind's text fields that may be `{ file: PATH }`, as paths from the top of a file. */
export function textFileFields(): TextFieldPath[] {
  fields ??= placed((module) => module.textFileFields ?? []);
  return fields;
}

/** Every kind's data fields that may be `{ file: PATH }` of JSON or YAML, from the top of a file. */
export function dataFileFields(): TextFieldPath[] {
  dataFields ??= placed((module) => module.dataFileFields ?? []);
  return dataFields;
}

function placed(declared: (module: KindModule<Kind>) => readonly TextFieldPath[]): TextFieldPath[] {
  return KINDS.flatMap((kind) => {
    const module = registry[kind] as KindModule<Kind>;
    const { section } = module;
    const entry = section.shape === "list" ? [section.name, "*"] : [section.name];
    return declared(module).map((path) => [...entry, ...path]);
  });
}
