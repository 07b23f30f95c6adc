// What the bundle carries of undici (scripts/bundle.mjs; global-setup builds dist/): the pool
// in a chunk of its own, which a run loads when its client is created, and
// without undici's HTTP/2 client, whose node:http2 cost start-up time and is never used (the
// transport never sets allowH2, so no connection agrees on h2).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const CHUNK = join(import.meta.dirname, "..", "..", "dist", "bundle", "undici-pool.js");

describe("the bundled undici", () => {
  it("is a chunk of its own that loads no node:http2", () => {
    expect(existsSync(CHUNK)).toBe(true);
    const script = `await import(${JSON.stringify(pathToFileURL(CHUNK).href)});
      process.stdout.write(JSON.stringify(process.moduleLoadList.filter((name) => name.includes("http2"))));`;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toEqual([]);
  });
});
