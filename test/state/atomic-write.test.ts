// The state file is replaced, never rewritten in place: a reader (or a crash) sees the old file
// whole or the new file whole. Written in place, the old file's contents would change under an
// open handle; replaced by rename, the handle keeps the old contents and the path the new.
import { open, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeFileAtomic } from "../../src/state/state-store.js";
import { createWorkspace } from "../support/cli.js";

describe("writeFileAtomic", () => {
  it("replaces the file by rename: an open handle still reads the old contents whole", async () => {
    const ws = await createWorkspace({});
    const path = join(ws.dir, "notiform.state.json");
    await writeFile(path, '{"old": true}\n');
    const handle = await open(path, "r");
    try {
      await writeFileAtomic(path, '{"new": true, "longer": "than the old one"}\n');
      expect(await handle.readFile("utf8")).toBe('{"old": true}\n');
      expect(await readFile(path, "utf8")).toBe('{"new": true, "longer": "than the old one"}\n');
    } finally {
      await handle.close();
    }
  });
});
