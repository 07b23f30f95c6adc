// Where `plan --out` may write. The plan file is written atomically over whatever the path names,
// so a slip (`--out notiform.yaml`, `--out notiform.state.json`) would replace the config, the
// state or the lock without a word. The files notiform manages are refused outright; any other
// existing file that is not a saved plan is refused unless --force. Checked before any request.
import { existsSync, statSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { NotiformError } from "../errors.js";
import { fileErrorReason } from "../file-errors.js";
import { lockPathOf } from "../state/lock.js";
import { realTarget } from "../state/state-store.js";

export interface ManagedFile {
  path: string;
  /** "the root config file", "the state file", ... */
  role: string;
}

/** The files a run with this config and state path manages. */
export function managedFiles(configPath: string, statePath: string): ManagedFile[] {
  return [
    { path: configPath, role: "the root config file" },
    { path: statePath, role: "the state file" },
    { path: lockPathOf(statePath), role: "the state file's lock" },
  ];
}

export async function checkPlanOut(
  path: string,
  given: string,
  managed: readonly ManagedFile[],
  force: boolean,
): Promise<void> {
  const target = await realTarget(path);
  for (const file of managed) {
    if ((await realTarget(file.path)) === target)
      throw new NotiformError("FILE_EXISTS", `refusing to save the plan to ${given}: it is ${file.role}`, {
        hint: "Choose another --out path, e.g. plan.json. Nothing was planned.",
      });
  }
  const info = await stat(target).catch(() => undefined);
  if (info !== undefined && !info.isFile())
    throw new NotiformError(
      "FILE_EXISTS",
      `cannot save the plan to ${given}: ${info.isDirectory() ? "it is a directory" : "it is not a regular file (a device or a pipe)"}`,
      { hint: "Choose another --out path, e.g. plan.json. Nothing was planned." },
    );
  let text: string;
  try {
    text = await readFile(target, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw new NotiformError("FILE_EXISTS", `cannot save the plan to ${given}: ${fileErrorReason(error)}`, {
      hint: "Choose another --out path, e.g. plan.json. Nothing was planned.",
    });
  }
  if (force || isSavedPlan(text)) return;
  throw new NotiformError(
    "FILE_EXISTS",
    `refusing to save the plan to ${given}: the file exists and is not a notiform plan`,
    {
      hint: "Pass --force to replace it, or choose another --out path. Nothing was planned.",
    },
  );
}

function isSavedPlan(text: string): boolean {
  try {
    const value = JSON.parse(text) as Record<string, unknown> | null;
    return (
      value !== null &&
      typeof value === "object" &&
      typeof value.formatVersion === "number" &&
      Array.isArray(value.actions) &&
      typeof value.configDigest === "string"
    );
  } catch {
    return false;
  }
}

/** `--out` into a directory that does not exist fails before any request (plan, promote). */
export function checkOutputDirectory(path: string, given: string, what: "plan" | "promotion"): void {
  const dir = dirname(path);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new NotiformError(
      "OUTPUT_DIR_MISSING",
      `cannot save the ${what} to ${given}: the directory ${dir} does not exist`,
      {
        hint: `Create the directory first, or choose another --out path. Nothing was ${what === "plan" ? "planned" : "read"}.`,
      },
    );
  }
}
