// The JSON Schemas compiled ahead of time, as the source of a module that stands in for
// src/schema-validators.ts in the bundle (scripts/bundle.mjs): Ajv's standalone code generation
// with the CLI's own configuration (createAjv in src/schemas.ts), one validator per schema, each
// in its own scope. test/schemas/precompiled.test.ts holds them equal to the run-time compile.
import standaloneModule from "ajv/dist/standalone/index.js";

const standaloneCode = standaloneModule.default ?? standaloneModule;

/** One schema's validator as an expression: its standalone code, run once in its own scope. */
function validatorExpression(name, createAjv, schemaOf) {
  const ajv = createAjv({ code: { source: true, esm: true } });
  const code = standaloneCode(ajv, ajv.compile(schemaOf(name)));
  const exported = /export const validate = (\w+);\s*export default \1;/.exec(code);
  if (exported === null) throw new Error(`precompile: unexpected standalone code for ${name}`);
  const body = code
    .replace(exported[0], "")
    .replaceAll('require("ajv/dist/runtime/ucs2length").default', "ucs2length");
  if (body.includes("require("))
    throw new Error(`precompile: ${name}'s validator needs a runtime module not provided`);
  return `(() => {${body}\nreturn ${exported[1]};})()`;
}

/** The module's source: `export const PRECOMPILED = new Map([[name, validate], ...])`. */
export function precompiledSchemasModule({ createAjv, SCHEMA_NAMES, schemaOf }) {
  return [
    'import ucs2lengthModule from "ajv/dist/runtime/ucs2length.js";',
    "const ucs2length = ucs2lengthModule.default ?? ucs2lengthModule;",
    "export const PRECOMPILED = new Map([",
    ...SCHEMA_NAMES.map(
      (name) => `  [${JSON.stringify(name)}, ${validatorExpression(name, createAjv, schemaOf)}],`,
    ),
    "]);",
    "",
  ].join("\n");
}
