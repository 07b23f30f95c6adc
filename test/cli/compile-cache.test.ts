// Node 22.1+ keeps the code it compiles between runs (its module compile cache): bin/notiform.js
// turns it on for the main thread, and src/loader/load-beside.ts hands it to the config worker,
// which would otherwise compile the loader, the YAML parser and the schema validator afresh on
// every run. As a process over HTTP against the emulator, on whichever Node runs the suite: `npm
// test` runs this file again on Node 22 and 24 when CI fetched them (scripts/other-nodes.mjs).
import { mkdir, readdir } from "node:fs/promises";
import module from "node:module";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { cliTests } from "../support/cli.js";

const cliTest = cliTests();

/** Whether the running Node has the module compile cache (22.1+). */
const HAS_COMPILE_CACHE =
  typeof (module as { enableCompileCache?: unknown }).enableCompileCache === "function";

/** Each folder under `root` that holds a file, relative to it. */
async function foldersWithFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  const folders = new Set(entries.filter((e) => e.isFile()).map((e) => relative(root, e.parentPath)));
  return [...folders].sort();
}

describe("the module compile cache", () => {
  it(`${HAS_COMPILE_CACHE ? "is kept by both threads of a plan whose config loads on a worker" : "is not asked for on a Node without it"} (${process.version})`, async () => {
    const { emulator, workspace, run } = await cliTest({
      // An include sends the load to the worker, whatever the size.
      config: "version: 1\norganization: Acme Inc\ninclude: [more/*.yaml]\n",
      files: { "more/topics.yaml": "topics:\n  - key: one\n    name: One\n" },
      env: () => ({}),
    });
    // The cache's default folder is in the system's temporary directory: this test's own. Not
    // NODE_COMPILE_CACHE: a worker started with that variable set would use it by itself.
    const tmp = join(workspace.dir, "tmp");
    await mkdir(tmp);
    const plan = await run(["plan", "--verbose"], {
      env: { NOTIFORM_API_KEY: emulator.apiKey, TMPDIR: tmp },
    });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stderr).toContain("config loaded on a worker thread");
    const folders = await foldersWithFiles(join(tmp, "node-compile-cache"));
    if (HAS_COMPILE_CACHE) {
      // The main thread's folder, and the worker's inside it (Node names each by its version and
      // V8 flags, and the transport sets one of those flags before the worker starts).
      expect(folders).toHaveLength(2);
      expect(folders[1]?.startsWith(`${folders[0]}/`)).toBe(true);
    } else {
      expect(folders).toEqual([]);
    }
  });
});
