// The JSON Schemas compiled ahead of time (scripts/bundle.mjs): Ajv's standalone code generation
// with the CLI's own configuration (createAjv in src/schemas.ts), one CommonJS file per schema,
// and a module that stands in for src/schema-validators.ts in the bundle and loads each file the
// first time its schema is used. So a command loads only the validators it uses: a plan reads
// the state schema, not the 700 KB of all seven, and the config worker only the config's.
// test/schemas/precompiled.test.ts holds them equal to the run-time compile.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import standaloneModule from "ajv/dist/standalone/index.js";

const standaloneCode = standaloneModule.default ?? standaloneModule;
const require = createRequire(import.meta.url);

/** The folder, beside the module that loads them, holding the validator files. */
export const VALIDATORS_DIR = "validators";
const RUNTIME = "ucs2length.cjs";

/** One schema's validator: its standalone CommonJS code, needing only the runtime file beside it. */
function validatorFile(name, createAjv, schemaOf) {
  const ajv = createAjv({ code: { source: true, esm: false } });
  const code = standaloneCode(ajv, ajv.compile(schemaOf(name))).replaceAll(
    'require("ajv/dist/runtime/ucs2length")',
    `require("./${RUNTIME}")`,
  );
  if (code.replaceAll(`require("./${RUNTIME}")`, "").includes("require("))
    throw new Error(`precompile: ${name}'s validator needs a runtime module not provided`);
  return code;
}

/** The files of VALIDATORS_DIR: `NAME.cjs` for each schema, and the one runtime helper they use. */
export function precompiledValidatorFiles({ createAjv, SCHEMA_NAMES, schemaOf }) {
  const files = new Map(
    SCHEMA_NAMES.map((name) => [`${name}.cjs`, validatorFile(name, createAjv, schemaOf)]),
  );
  files.set(RUNTIME, readFileSync(require.resolve("ajv/dist/runtime/ucs2length.js"), "utf8"));
  return files;
}

/** The source of the stand-in module: `precompiled(name)` loads a schema's file on first use. */
export function precompiledSchemasModule({ SCHEMA_NAMES }) {
  return [
    'import { createRequire } from "node:module";',
    "const require = createRequire(import.meta.url);",
    `export const PRECOMPILED_NAMES = ${JSON.stringify(SCHEMA_NAMES)};`,
    "export function precompiled(name) {",
    `  return PRECOMPILED_NAMES.includes(name) ? require(\`./${VALIDATORS_DIR}/\${name}.cjs\`) : undefined;`,
    "}",
    "",
  ].join("\n");
}
