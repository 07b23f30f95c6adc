// Where `notiform export` writes: only inside --dir, never through a symbolic link. The names
// come from the server (layout identifiers, workflow and step names), and the directory may hold
// links: a dangling link made export create its target outside, a linked subdirectory sent
// every layout outside, and --force overwrote a linked file outside. So every path is checked
// component by component with lstat before anything is written (a link anywhere below --dir is
// refused, as is a name that is not a directory or a file where one is expected), and each file
// is written as a temporary file opened with O_NOFOLLOW|O_EXCL in its own directory, checked to
// still be inside --dir, then renamed over the name (a rename replaces a link, never follows it).
// --dir itself is the operator's: it may be a link.

import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { lstat, mkdir, open, realpath, rename, stat, unlink } from "node:fs/promises";
import { dirname, join, sep } from "node:path";
import { NotiformError } from "../errors.js";
import { fileErrorReason } from "../file-errors.js";
import { withTempFile } from "../temp-files.js";

/** What a name inside --dir is now. */
export type ExportTarget = "absent" | "file";

/**
 * Each name's state under `root` (a real path), or a FILE_UNSAFE error naming the first link or
 * misplaced entry found. Nothing is written.
 */
export async function inspectExportTargets(
  root: string,
  names: readonly string[],
  shownDir: string,
): Promise<Map<string, ExportTarget>> {
  const out = new Map<string, ExportTarget>();
  for (const name of names) out.set(name, await inspect(root, name, shownDir));
  return out;
}

async function inspect(root: string, name: string, shownDir: string): Promise<ExportTarget> {
  const parts = name.split("/");
  for (const [index, part] of parts.entries()) {
    if (part === "" || part === "." || part === "..")
      throw unsafe(name, shownDir, "is not a plain relative path");
    const shown = parts.slice(0, index + 1).join("/");
    const info = await lstat(join(root, ...parts.slice(0, index + 1))).catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return undefined;
        throw unsafe(shown, shownDir, `cannot be inspected (${error.code ?? error.message})`);
      },
    );
    if (info === undefined) return "absent";
    if (info.isSymbolicLink())
      throw unsafe(
        shown,
        shownDir,
        "is a symbolic link: export never writes through one (it could lead out of the directory)",
      );
    const last = index === parts.length - 1;
    if (!last && !info.isDirectory())
      throw unsafe(shown, shownDir, "is in the way: a directory is needed there");
    if (last && !info.isFile()) throw unsafe(shown, shownDir, "is in the way: it is not a regular file");
  }
  return "file";
}

/** Write `content` as `name` under `root` (a real path), through no link, atomically. */
export async function writeExportFile(
  root: string,
  name: string,
  content: string,
  shownDir: string,
): Promise<void> {
  const parts = name.split("/");
  const file = parts.pop() ?? "";
  let dir = root;
  for (const part of parts) {
    dir = join(dir, part);
    await mkdir(dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw failed(name, shownDir, error);
    });
    const info = await lstat(dir);
    if (info.isSymbolicLink() || !info.isDirectory())
      throw unsafe(parts.join("/"), shownDir, "became a symbolic link or a file while exporting", false);
  }
  const temp = join(dir, `.${file}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    await withTempFile(temp, async () => {
      const handle = await open(
        temp,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        0o644,
      );
      try {
        await handle.writeFile(content, "utf8");
        await handle.sync();
      } finally {
        await handle.close();
      }
      // A directory swapped for a link between the check and the open: the file landed elsewhere.
      const real = await realpath(dir);
      if (real !== join(root, ...parts) || !(real === root || real.startsWith(`${root}${sep}`)))
        throw unsafe(parts.join("/"), shownDir, "became a symbolic link while exporting", false);
      await rename(temp, join(dir, file));
    });
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    if (error instanceof NotiformError) throw error;
    throw failed(name, shownDir, error as NodeJS.ErrnoException);
  }
}

function unsafe(name: string, shownDir: string, why: string, beforeWriting = true): NotiformError {
  return new NotiformError("FILE_UNSAFE", `refusing to export: ${join(shownDir, name)} ${why}`, {
    hint: `Export into a new directory, or remove the link.${beforeWriting ? " Nothing was written." : " Files written before it are complete; re-run the export."}`,
  });
}

function failed(name: string, shownDir: string, error: NodeJS.ErrnoException): NotiformError {
  return new NotiformError(
    "FILE_WRITE_FAILED",
    `could not write ${join(shownDir, name)}: ${fileErrorReason(error)}`,
    {
      cause: error,
    },
  );
}

/**
 * Create the export directory and any missing parents, one level at a time: a recursive mkdir
 * loops forever under /proc on Node 20, and its errors named no path the user gave.
 */
export async function makeExportDir(dir: string, shownDir: string): Promise<void> {
  const missing: string[] = [];
  for (let at = dir; ; at = dirname(at)) {
    const info = await stat(at).catch((error: NodeJS.ErrnoException) => error);
    if (!(info instanceof Error)) {
      if (!info.isDirectory()) throw cannotCreate(shownDir, { code: "ENOTDIR" } as NodeJS.ErrnoException);
      break;
    }
    if (info.code !== "ENOENT") throw cannotCreate(shownDir, info);
    missing.unshift(at);
    if (dirname(at) === at) break;
  }
  for (const path of missing) {
    await mkdir(path).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw cannotCreate(shownDir, error);
    });
    const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
      throw cannotCreate(shownDir, error);
    });
    if (!info.isDirectory()) throw cannotCreate(shownDir, { code: "EEXIST" } as NodeJS.ErrnoException);
  }
}

function cannotCreate(shownDir: string, error: NodeJS.ErrnoException): NotiformError {
  // Its parent exists (checked first): ENOENT then means no directory can be made there (/proc).
  const reason =
    error.code === "ENOENT" ? "the file system lets no directory be made there" : fileErrorReason(error);
  return new NotiformError("FILE_WRITE_FAILED", `cannot create the export directory ${shownDir}: ${reason}`, {
    cause: error,
    hint: "Choose another --dir. Nothing was written.",
  });
}
