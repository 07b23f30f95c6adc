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
import { thirdPartyNotices } from "./third-party-notices.mjs";

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
const cli = await build({
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
      // yargs guesses its program's version at start-up by walking up from its own folder to a
      // package.json, or, once bundled (no node_modules in its path), from the working
      // directory: every run read the user's directory and each one above it (in a /tmp of
      // thousands of entries, 12 ms). Start it at notiform's own package.json instead (the chunk is dist/bundle/NAME.js).
      name: "yargs-package-root",
      transform(code, id) {
        if (!id.replaceAll("\\", "/").endsWith("/yargs/lib/platform-shims/esm.mjs")) return null;
        const from = "mainFilename: mainFilename || process.cwd(),";
        if (!code.includes(from))
          throw new Error("bundle: yargs's platform shim changed; see yargs-package-root");
        return code.replace(
          from,
          'mainFilename: mainFilename || fileURLToPath(new URL("../../package.json", import.meta.url)),',
        );
      },
    },
    {
      // fdir (under tinyglobby) loads picomatch from node_modules at start-up, if present, for
      // its glob() API, which tinyglobby never calls (it filters with its own, bundled matcher):
      // a second copy read from disk on every run in a checkout, a failed lookup elsewhere.
      name: "fdir-no-optional-picomatch",
      transform(code, id) {
        if (!/\/fdir\/dist\/index\.mjs$/.test(id.replaceAll("\\", "/"))) return null;
        const from =
          /try \{\s*__require\.resolve\("picomatch"\);\s*pm = __require\("picomatch"\);\s*\} catch \{\}/;
        if (!from.test(code))
          throw new Error("bundle: fdir's optional picomatch changed; see fdir-no-optional-picomatch");
        return code.replace(from, "");
      },
    },
    {
      // undici's HTTP/2 client loads node:http2 when undici loads (9 ms of CPU before the first
      // request, a third of undici's load), though it only runs on a connection that agreed on
      // h2, which undici offers only with allowH2, which the transport never sets (its TLS
      // offers http/1.1 alone). The bundle carries a stand-in that says so if ever called.
      name: "undici-without-http2",
      load(id) {
        if (!/\/undici\/lib\/dispatcher\/client-h2\.js$/.test(id.replaceAll("\\", "/"))) return null;
        return 'module.exports = function connectH2() { throw new Error("notiform is built without undici\'s HTTP/2 client (allowH2 is never set)"); };';
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

const vendor = await build({
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

// The packages whose code the bundle carries (and Ajv, whose runtime helper the validators use),
// with their licence texts: their licences ask that the notice travel with every copy.
await writeFile(`${out}/THIRD-PARTY-NOTICES.md`, await thirdPartyNotices([cli, vendor], ["ajv"]));
