// Bundles the compiled CLI (dist/, from tsc) into dist/bundle/: one file for the commands and one
// for the config-loading worker, with the runtime dependencies inside. Node loads a few large
// modules much faster than a few hundred small ones: start-up is part of every command's time.
// Modules loaded only on demand (diff, listr2, through createRequire) are bundled on their own
// into dist/bundle/vendor/, and the bundle requires them there: the CLI loads nothing from
// node_modules, so a release (the Action's checkout of a tag, the packed tarball) runs as it is,
// with no install, and package.json lists no run-time dependencies.
// The JSON Schemas are compiled here (precompile-schemas.mjs), one file per schema in
// dist/bundle/validators/, and the bundle replaces dist/schema-validators.js with a module that
// loads each on first use: no run compiles a schema or loads Ajv, nor loads validators it does
// not use.
import { mkdir, rm, writeFile } from "node:fs/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "rolldown";
import {
  precompiledSchemasModule,
  precompiledValidatorFiles,
  VALIDATORS_DIR,
} from "./precompile-schemas.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const out = `${root}dist/bundle`;
const schemas = await import(pathToFileURL(`${root}dist/schemas.js`).href);
const validators = precompiledSchemasModule(schemas);

/** Modules the CLI loads on demand with createRequire, bundled into vendor/NAME.js. */
const ON_DEMAND = ["diff", "listr2"];
const onDemand = new RegExp(`(\\brequire(?:\\$\\d+)?\\()"(${ON_DEMAND.join("|")})"\\)`, "g");

await rm(out, { recursive: true, force: true });
await mkdir(`${out}/${VALIDATORS_DIR}`, { recursive: true });
for (const [name, source] of precompiledValidatorFiles(schemas))
  await writeFile(
    `${out}/${VALIDATORS_DIR}/${name}`,
    source.replace(/\n\/\/# sourceMappingURL=.*\n?$/, "\n"),
  );
await build({
  input: { main: `${root}dist/cli/main.js`, "load-worker": `${root}dist/loader/load-worker.js` },
  platform: "node",
  logLevel: "warn",
  plugins: [
    {
      name: "precompiled-schemas",
      load(id) {
        return id.replaceAll("\\", "/").endsWith("/dist/schema-validators.js") ? validators : null;
      },
    },
    {
      name: "vendored-on-demand",
      renderChunk(code) {
        return code.replace(onDemand, (_, call, name) => `${call}"./vendor/${name}.js")`);
      },
    },
  ],
  output: {
    dir: out,
    format: "esm",
    entryFileNames: "[name].js",
    chunkFileNames: "[name].js",
    sourcemap: false,
  },
});

await build({
  input: Object.fromEntries(ON_DEMAND.map((name) => [name, name])),
  platform: "node",
  logLevel: "warn",
  output: {
    dir: `${out}/vendor`,
    format: "esm",
    entryFileNames: "[name].js",
    chunkFileNames: "[name]-[hash].js",
    sourcemap: false,
  },
});
