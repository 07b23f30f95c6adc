// THIRD-PARTY-NOTICES.md for the bundle: every package from node_modules whose code a build's
// chunks hold, with its version, licence and licence text, so the notices the MIT and ISC
// licences ask for ship with the published tarball (scripts/bundle.mjs writes it).
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The package folder (the innermost node_modules/NAME or node_modules/@scope/NAME) of a module id. */
function packageDirOf(id) {
  const path = id.replaceAll("\\", "/");
  const at = path.lastIndexOf("/node_modules/");
  if (at === -1) return undefined;
  const [first, second] = path.slice(at + "/node_modules/".length).split("/");
  if (first === undefined) return undefined;
  const name = first.startsWith("@") && second !== undefined ? `${first}/${second}` : first;
  return `${path.slice(0, at)}/node_modules/${name}`;
}

async function licenceText(dir) {
  const files = (await readdir(dir))
    .filter((f) => /^(licen[cs]e|copying)([-.][a-z0-9.-]*)?$/i.test(f))
    .sort();
  return files.length === 0 ? undefined : (await readFile(join(dir, files[0]), "utf8")).trim();
}

/** `builds`: rolldown build results; `extra`: packages used without being bundled as modules. */
export async function thirdPartyNotices(builds, extra = []) {
  const dirs = new Set(extra.map((name) => `${root}node_modules/${name}`.replaceAll("\\", "/")));
  for (const build of builds)
    for (const chunk of build.output)
      if (chunk.type === "chunk")
        for (const id of chunk.moduleIds) {
          const dir = packageDirOf(id);
          if (dir !== undefined) dirs.add(dir);
        }
  const entries = [];
  for (const dir of dirs) {
    const pkg = JSON.parse(await readFile(join(dir, "package.json"), "utf8"));
    // A package.json of a sub-folder ({"type": "module"}) names no package: skip to the real one.
    if (typeof pkg.name !== "string") continue;
    entries.push({
      name: pkg.name,
      version: pkg.version,
      license: pkg.license,
      text: await licenceText(dir),
    });
  }
  const unique = new Map(entries.map((e) => [`${e.name}@${e.version}`, e]));
  const sorted = [...unique.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const parts = [
    "# Third-party notices",
    "",
    "notiform's bundle (dist/bundle/) carries code from these packages, under their licences:",
    "",
  ];
  for (const entry of sorted) {
    parts.push(`## ${entry.name} ${entry.version} (${entry.license ?? "licence not stated"})`, "");
    parts.push(
      entry.text ?? `The package ships no licence file; its package.json states: ${entry.license}.`,
      "",
    );
  }
  return `${parts.join("\n")}`;
}
