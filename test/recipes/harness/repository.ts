// The user's repository as the README has them set it up: notiform pinned as a devDependency
// with the README's install spec (and a lockfile, which `npm ci` and setup-node's cache need),
// the recipes copied to .github/workflows/, and the config under notiform/.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { ROOT, readmeInstallSpec } from "./world.js";

export const RECIPES = join(ROOT, "examples", "github-actions");

export async function userRepository(recipes: string[]): Promise<Record<string, string>> {
  const spec = await readmeInstallSpec();
  const files: Record<string, string> = {
    "package.json": `${JSON.stringify({ name: "notifications", private: true, devDependencies: { notiform: spec } }, null, 2)}\n`,
    "package-lock.json": `${JSON.stringify(
      {
        name: "notifications",
        lockfileVersion: 3,
        requires: true,
        packages: { "": { name: "notifications", devDependencies: { notiform: spec } } },
      },
      null,
      2,
    )}\n`,
    "README.md": "# notifications\n",
  };
  for (const recipe of recipes)
    files[`.github/workflows/${recipe}`] = await readFile(join(RECIPES, recipe), "utf8");
  return files;
}
