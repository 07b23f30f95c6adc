// Writes a preview site to its folder, whole or not at all: the files go to a new folder beside it,
// which then takes the old one's place, so a reader (or --serve) never sees half a site, and a
// failed write leaves the previous site as it was. The folder is marked as a preview site; an
// existing folder without the mark (someone's own files) that is not empty is never replaced.

import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { mkdir, readdir, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { NotiformError } from "../errors.js";

/** The file that marks a folder as one notiform preview wrote (and may replace). */
export const SITE_MARK = ".notiform-preview";

export async function writeSite(
  out: string,
  shown: string,
  files: Iterable<[string, string]>,
): Promise<void> {
  await checkReplaceable(out, shown);
  const parent = dirname(out);
  const stamp = `${process.pid}-${Date.now().toString(36)}`;
  const fresh = join(parent, `.${basename(out)}.new-${stamp}`);
  const old = join(parent, `.${basename(out)}.old-${stamp}`);
  try {
    await mkdir(fresh, { recursive: true });
    // Synchronous: thousands of small files go faster one after another than as as many promises
    // queued on libuv's four threads, and nothing else runs meanwhile.
    writeFileSync(
      join(fresh, SITE_MARK),
      "This folder is written by `notiform preview`, which replaces it whole.\n",
    );
    const folders = new Set<string>();
    for (const [path, text] of files) {
      const folder = dirname(path);
      if (!folders.has(folder)) {
        mkdirSync(join(fresh, folder), { recursive: true });
        folders.add(folder);
      }
      writeFileSync(join(fresh, path), text);
    }
    const had = existsSync(out);
    if (had) await rename(out, old);
    await rename(fresh, out);
    if (had) await rm(old, { recursive: true, force: true });
  } catch (error) {
    await rm(fresh, { recursive: true, force: true });
    if (error instanceof NotiformError) throw error;
    throw new NotiformError(
      "FILE_WRITE_FAILED",
      `cannot write the preview to ${shown}: ${(error as Error).message}`,
      {
        hint: "Check that the folder's parent exists and is writable, or choose another --out.",
        cause: error,
      },
    );
  }
}

/** Adds files (screenshots) to a site already written. */
export async function addToSite(out: string, files: ReadonlyMap<string, Buffer>): Promise<void> {
  for (const [path, bytes] of files) {
    await mkdir(dirname(join(out, path)), { recursive: true });
    await writeFile(join(out, path), bytes);
  }
}

async function checkReplaceable(out: string, shown: string): Promise<void> {
  if (!existsSync(out) || existsSync(join(out, SITE_MARK))) return;
  let entries: string[];
  try {
    entries = await readdir(out);
  } catch {
    throw new NotiformError(
      "FILE_EXISTS",
      `cannot write the preview to ${shown}: it exists and is not a folder`,
      {
        hint: "Choose another --out.",
      },
    );
  }
  if (entries.length > 0)
    throw new NotiformError(
      "FILE_EXISTS",
      `cannot write the preview to ${shown}: the folder holds files notiform did not write (no ${SITE_MARK} in it)`,
      { hint: "Choose another --out, or empty the folder: notiform replaces its preview folder whole." },
    );
}
