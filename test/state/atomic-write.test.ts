// The state file is replaced, never rewritten in place: a reader (or a crash) sees the old file
// whole or the new file whole. Written in place, the old file's contents would change under an
// open handle; replaced by rename, the handle keeps the old contents and the path the new.
import { spawn } from "node:child_process";
import { open, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
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

/**
 * A child process whose atomic write never finishes (the built module's `open` answers a handle
 * whose write hangs), so its temporary file exists until a signal; with `ownListener` it also
 * stops gracefully on SIGINT (exit 7), as apply and promote do.
 */
function childWriting(dir: string, write: "state" | "export", ownListener: boolean) {
  const module = pathToFileURL(
    join(process.cwd(), write === "state" ? "dist/state/state-store.js" : "dist/pipeline/export-files.js"),
  ).href;
  const call =
    write === "state"
      ? `(await import(${JSON.stringify(module)})).writeFileAtomic(${JSON.stringify(join(dir, "out.json"))}, "{}")`
      : `(await import(${JSON.stringify(module)})).writeExportFile(${JSON.stringify(dir)}, "out.yaml", "x: 1", "out")`;
  const script = `
    import { createRequire, syncBuiltinESMExports } from "node:module";
    const fsp = createRequire(import.meta.url)("node:fs/promises");
    const realOpen = fsp.open;
    fsp.open = async (...args) => {
      const handle = await realOpen(...args);
      return { writeFile: () => new Promise(() => {}), sync: async () => {}, close: () => handle.close() };
    };
    syncBuiltinESMExports();
    setInterval(() => {}, 1000);
    ${ownListener ? 'process.on("SIGINT", () => setTimeout(() => process.exit(7), 20));' : ""}
    await ${call};
  `;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: "ignore" });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.on("exit", (code, signal) => done({ code, signal })),
  );
  return { child, exited };
}

async function temporaryFiles(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => name.endsWith(".tmp"));
}

async function untilTemporaryFile(dir: string): Promise<void> {
  for (let tries = 0; tries < 200; tries += 1) {
    if ((await temporaryFiles(dir)).length > 0) return;
    await new Promise((done) => setTimeout(done, 25));
  }
  throw new Error("the child never started its write");
}

describe("an atomic write stopped by Ctrl-C", () => {
  it.each(["state", "export"] as const)(
    "leaves no temporary file behind, and the run ends by the signal (%s files)",
    async (write) => {
      const ws = await createWorkspace({});
      const { child, exited } = childWriting(ws.dir, write, false);
      await untilTemporaryFile(ws.dir);
      child.kill("SIGINT");
      expect(await exited).toEqual({ code: null, signal: "SIGINT" });
      expect(await readdir(ws.dir)).toEqual([]);
    },
  );

  it("leaves the write alone where the run stops gracefully on the signal itself (apply, promote)", async () => {
    const ws = await createWorkspace({});
    const { child, exited } = childWriting(ws.dir, "state", true);
    await untilTemporaryFile(ws.dir);
    child.kill("SIGINT");
    expect(await exited).toEqual({ code: 7, signal: null });
    // Not removed under the write that the run lets finish (here it never does).
    expect(await temporaryFiles(ws.dir)).toHaveLength(1);
  });
});
