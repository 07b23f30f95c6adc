// The bundled CLI validates with schemas compiled at build time (scripts/precompile-schemas.mjs);
// everything else compiles them at run time (src/schemas.ts). Both must say the same of every
// document: valid or not, and the same errors (path, keyword, params, message, and the schema
// excerpts `verbose` adds, which carry our x-message). Checked on the repository's configs, valid
// and invalid, the emulator seed, and generated documents for every schema.
import { readFileSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { ValidateFunction } from "ajv/dist/2020.js";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  precompiledSchemasModule,
  precompiledValidatorFiles,
  VALIDATORS_DIR,
} from "../../scripts/precompile-schemas.mjs";
import { createAjv, SCHEMA_NAMES, type SchemaName, schemaOf } from "../../src/schemas.js";
import { yamlFilesUnder } from "../helpers/yaml-files.js";

const ROOT = join(import.meta.dirname, "..", "..");
// Inside node_modules, so the module's import of Ajv's runtime resolves as in the package.
const DIR = join(ROOT, "node_modules", ".cache", `notiform-precompiled-${process.pid}`);

let precompiled: ReadonlyMap<string, ValidateFunction>;
let names: readonly string[];
const runtime = new Map<SchemaName, ValidateFunction>();

beforeAll(async () => {
  // As the bundle lays them out: the loader module, and one file per schema beside it.
  await mkdir(join(DIR, VALIDATORS_DIR), { recursive: true });
  for (const [name, source] of precompiledValidatorFiles({ createAjv, SCHEMA_NAMES, schemaOf }))
    await writeFile(join(DIR, VALIDATORS_DIR, name), source);
  const file = join(DIR, "validators.mjs");
  await writeFile(file, precompiledSchemasModule({ SCHEMA_NAMES }));
  const loader = await import(pathToFileURL(file).href);
  names = loader.PRECOMPILED_NAMES;
  precompiled = new Map(names.map((name) => [name, loader.precompiled(name)]));
  const ajv = createAjv();
  for (const name of SCHEMA_NAMES) runtime.set(name, ajv.compile(schemaOf(name)));
});

afterAll(async () => {
  await rm(DIR, { recursive: true, force: true });
});

/** What a validator says of a document. */
function verdict(validate: ValidateFunction | undefined, document: unknown) {
  if (validate === undefined) throw new Error("no validator");
  const valid = validate(document);
  return { valid, errors: structuredClone(validate.errors ?? []) };
}

function expectSame(name: SchemaName, document: unknown): boolean {
  const compiledHere = verdict(runtime.get(name), document);
  expect(verdict(precompiled.get(name), document), `${name}: ${JSON.stringify(document)}`).toEqual(
    compiledHere,
  );
  return compiledHere.valid;
}

describe("schemas compiled at build time", () => {
  it("exist for every schema, and only those", () => {
    expect([...names].sort()).toEqual([...SCHEMA_NAMES].sort());
    for (const name of SCHEMA_NAMES) expect(precompiled.get(name)).toBeTypeOf("function");
  });

  it("judge every config of the repository as the run-time compile does, valid and invalid", () => {
    const files = [
      ...yamlFilesUnder(join(ROOT, "test", "fixtures")),
      ...yamlFilesUnder(join(ROOT, "examples")),
    ];
    let valid = 0;
    let invalid = 0;
    for (const file of files) {
      let document: unknown;
      try {
        document = parse(readText(file));
      } catch {
        continue;
      }
      if (expectSame("notiform", document)) valid += 1;
      else invalid += 1;
    }
    // Both outcomes are exercised, not just one.
    expect(valid).toBeGreaterThan(10);
    expect(invalid).toBeGreaterThan(10);
  });

  it("judge the emulator seed, and the seed with its values replaced, the same", () => {
    const seed = parse(readText(join(ROOT, "examples", "emulator-seed.yaml"))) as Record<string, unknown>;
    expect(expectSame("seed", seed)).toBe(true);
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(seed)), fc.jsonValue(), (key, value) => {
        expectSame("seed", { ...seed, [key]: value });
      }),
      { numRuns: 200 },
    );
  });

  it("judge generated documents of every schema the same", () => {
    for (const name of SCHEMA_NAMES) {
      const properties = Object.keys((schemaOf(name) as { properties?: object }).properties ?? {});
      const document = fc.oneof(
        fc.jsonValue(),
        fc.dictionary(fc.constantFrom(...properties, "extra"), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 }),
      );
      fc.assert(
        fc.property(document, (value) => {
          expectSame(name, value);
        }),
        { numRuns: 150 },
      );
    }
  });
});

function readText(path: string): string {
  return readFileSync(path, "utf8");
}
