// Reading and writing the state file. Writes are atomic (temp file in the same directory,
// fsync, rename) so an interrupted apply leaves either the old or the new file, never half.
// A corrupt file, or one that belongs to another API URL, organization or environment, is a
// clear error: it is never silently replaced, because it may be the only record of group ids.
import { randomBytes } from "node:crypto";
import { open, readdir, readFile, readlink, realpath, rename, unlink } from "node:fs/promises";
import { basename, dirname, isAbsolute, join } from "node:path";
import { sortKeysDeep } from "../canonical.js";
import { NotiformError } from "../errors.js";
import { escapeRegExp } from "../escape-regexp.js";
import { fileErrorReason } from "../file-errors.js";
import { MAX_DOCUMENT_NESTING, nestsDeeperThan } from "../nesting.js";
import { withTempFile } from "../temp-files.js";
import { emptyState, STATE_FORMAT_VERSION, type StateFile, withNullPrototypes } from "./model.js";
import { checkStateShape } from "./state-schema.js";

/** Default path: beside the root config, one file per environment. */
export function defaultStatePath(rootFile: string, environment: string | undefined): string {
  const name = environment === undefined ? "notiform.state.json" : `notiform.${environment}.state.json`;
  return join(dirname(rootFile), name);
}

/**
 * Read the state file; `target` undefined: take the file's own target (offline commands). A
 * target with a seal (the run's URL sealed under its key) is what the returned state records.
 */
export async function readState(path: string, target: StateFile["target"] | undefined): Promise<StateFile> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      if (target === undefined) throw new NotiformError("STATE_INVALID", `there is no state file at ${path}`);
      return emptyState(target);
    }
    throw new NotiformError(
      "STATE_INVALID",
      `cannot read the state file ${path}: ${(error as Error).message}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new NotiformError(
      "STATE_INVALID",
      `the state file ${path} is not valid JSON (${(error as Error).message})`,
      {
        hint: "Restore it from git (it is meant to be committed); notiform will not overwrite a corrupt state file.",
      },
    );
  }
  if (nestsDeeperThan(parsed)) {
    throw new NotiformError(
      "STATE_INVALID",
      `the state file ${path} nests values more than ${MAX_DOCUMENT_NESTING} levels deep: no state notiform writes does`,
      {
        hint: "Restore it from git (it is meant to be committed); notiform will not overwrite a corrupt state file.",
      },
    );
  }
  const problems = checkStateShape(parsed);
  if (problems.length > 0) {
    const version = (parsed as { formatVersion?: unknown } | null)?.formatVersion;
    const detail =
      version !== undefined && version !== STATE_FORMAT_VERSION
        ? typeof version === "number"
          ? `format version ${String(version)} is not supported (this notiform reads ${STATE_FORMAT_VERSION})`
          : `formatVersion must be the number ${STATE_FORMAT_VERSION}, not ${JSON.stringify(version)}`
        : problems.slice(0, 3).join("; ");
    throw new NotiformError(
      "STATE_INVALID",
      `the state file ${path} is not a notiform state file: ${detail}`,
      {
        hint: "Restore it from git; notiform will not overwrite a state file it cannot read.",
      },
    );
  }
  const state = withNullPrototypes(parsed as StateFile);
  const mismatches = target === undefined ? [] : describeMismatch(state.target, target);
  if (mismatches.length > 0) {
    throw new NotiformError("STATE_FOREIGN", `the state file ${path} belongs to ${mismatches.join(", ")}`, {
      hint: "Use the state file of this target (--state FILE), or select the matching --env / --api-url.",
    });
  }
  // The run's seal (its URL under its key) replaces the file's: the next write records it.
  if (target?.apiUrlSeal !== undefined) state.target = { ...state.target, apiUrlSeal: target.apiUrlSeal };
  return state;
}

/**
 * A state file records the server environment it was applied against: with a key that reaches
 * another one (a Development and a Production key on one URL and organization), it is refused
 * before anything is read or written, so neither environment overwrites the other's ids.
 */
export function checkStateEnvironment(
  path: string,
  state: StateFile,
  environment: { id: string; name: string } | undefined,
): void {
  const recorded = state.serverEnvironment;
  if (recorded === undefined || environment === undefined || recorded.id === environment.id) return;
  throw new NotiformError(
    "STATE_FOREIGN",
    `the state file ${path} belongs to the ${recorded.name} environment (${recorded.id}), but the API key reaches ${environment.name} (${environment.id})`,
    {
      hint: "Give each environment its own state file: select it with --env (notiform.ENV.state.json), or pass --state FILE. Nothing was changed.",
    },
  );
}

function describeMismatch(found: StateFile["target"], expected: StateFile["target"]): string[] {
  const out: string[] = [];
  if (normalizeUrl(found.apiUrl) !== normalizeUrl(expected.apiUrl))
    out.push(`API URL ${found.apiUrl}, not ${expected.apiUrl}`);
  if (found.organization !== expected.organization)
    out.push(`organization "${found.organization}", not "${expected.organization}"`);
  if (found.environment !== expected.environment)
    out.push(`environment ${found.environment ?? "(none)"}, not ${expected.environment ?? "(none)"}`);
  return out;
}

/**
 * The one form a target URL is recorded and compared in: what the client sends requests to
 * (surrounding blanks dropped, scheme and host lower-cased, default port and trailing slashes
 * left out), so `" http://HOST:80/"` and `http://host` are the same target.
 */
export function normalizeUrl(url: string): string {
  const trimmed = url.trim();
  try {
    const parsed = new URL(trimmed);
    return `${parsed.origin}${parsed.pathname.replace(/\/+$/, "")}`;
  } catch {
    return trimmed.replace(/\/+$/, "");
  }
}

/** Serialize deterministically: sorted keys, two-space indent, trailing newline. */
export function serializeState(state: StateFile): string {
  // No creates in flight, no secret held: those sections are left out, so a file without them
  // reads as it always did.
  const { intents, heldSecrets, secretValues, ...rest } = state;
  const settled: StateFile = { ...rest };
  if (intents !== undefined && Object.keys(intents).length > 0) settled.intents = intents;
  if (heldSecrets !== undefined && Object.keys(heldSecrets).length > 0) settled.heldSecrets = heldSecrets;
  if (secretValues !== undefined && secretValues.length > 0) settled.secretValues = secretValues;
  return `${JSON.stringify(sortKeysDeep(settled), null, 2)}\n`;
}

/**
 * Write `content` to `path` atomically: a temporary file beside it, synced, then renamed over.
 * Any failure (a full disk, a read-only directory) removes the temporary file and is reported as
 * FILE_WRITE_FAILED naming the file and the cause; the old file is then untouched. A symbolic
 * link at `path` is written through: its target is replaced, the link stays.
 */
export async function writeFileAtomic(path: string, content: string): Promise<void> {
  const target = await realTarget(path);
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString("hex")}.tmp`);
  // (The name is what leftTempPattern recognises.)
  try {
    await withTempFile(temp, async () => {
      const handle = await open(temp, "w", 0o644);
      try {
        await handle.writeFile(content, "utf8");
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, target);
    });
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    const code = (error as NodeJS.ErrnoException).code;
    throw new NotiformError("FILE_WRITE_FAILED", `could not write ${path}: ${fileErrorReason(error)}`, {
      cause: error,
      hint:
        code === "ENOSPC"
          ? "The disk is full; the previous file, if any, is unchanged."
          : "Choose a path this run can write to; the previous file, if any, is unchanged.",
    });
  }
}

/** The names writeFileAtomic gives the temporary files beside `target`. */
function leftTempPattern(target: string): RegExp {
  return new RegExp(`^\\.${escapeRegExp(basename(target))}\\.[0-9a-f]{12}\\.tmp$`);
}

/**
 * Remove the temporary files a write to `target` left when its run was killed outright (kill -9,
 * a lost machine: no handler ran). Only for a caller that knows no other run writes `target`:
 * the lock's taker, once it judged the previous holder gone. Returns how many it removed.
 */
export async function removeLeftTemps(target: string): Promise<number> {
  const pattern = leftTempPattern(target);
  let names: string[];
  try {
    names = await readdir(dirname(target));
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names.filter((n) => pattern.test(n))) {
    await unlink(join(dirname(target), name)).then(
      () => removed++,
      () => undefined,
    );
  }
  return removed;
}

/** The file a path finally names, following symbolic links (the path itself when it does not exist yet). */
export async function realTarget(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    // A dangling link: write where it points, so the link keeps naming the state.
    try {
      const link = await readlink(path);
      return isAbsolute(link) ? link : join(dirname(path), link);
    } catch {
      return path;
    }
  }
}
