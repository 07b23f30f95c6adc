// The export stage: read everything live, write it as config files (and the templates they
// name) with the state file the exported config needs. Refuses to overwrite any file unless
// `force`, checking all before writing one; writes only inside --dir, through no link
// (export-files.ts); values from the environment are written back as their ${VAR} references
// and credentials never.
import { existsSync } from "node:fs";
import { mkdir, realpath } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { stringify } from "yaml";
import { StateRecorder } from "../apply/state-recorder.js";
import { NotiformError } from "../errors.js";
import { type KnownSecrets, scrubExport, variablesOf } from "../export-secrets.js";
import { exportDocuments, exportHeader } from "../kinds/export-live.js";
import { readLive } from "../kinds/read-live.js";
import { describeKind, KINDS } from "../kinds/registry.js";
import { protector } from "../secrets/keyed-digest.js";
import { withStateLock } from "../state/lock.js";
import { emptyState } from "../state/model.js";
import { defaultStatePath } from "../state/state-store.js";
import type { RunArgs, RunContext } from "./context.js";
import { inspectExportTargets, writeExportFile } from "./export-files.js";
import { environmentOption } from "./prepare-plan.js";
import { openSessionOptionalConfig, organizationOf, type Session } from "./session.js";

export interface ExportArgs extends RunArgs {
  dir: string;
  force: boolean;
}

/**
 * Export into `args.dir`; `schemaReference(dir)` is what the files' first line points editors
 * at. Resolves with the closing summary for the person running it.
 */
export async function runExport(
  args: ExportArgs,
  context: RunContext,
  schemaReference: (dir: string) => string,
): Promise<string> {
  const session = await openSessionOptionalConfig(args, context);
  try {
    const live = await readLive(session.client, session.desired, organizationOf(session), {
      everything: true,
      ...environmentOption(session),
    });
    const exported = exportDocuments(live);
    const { notExported, counts } = exported;
    const { files, warnings, references } = scrubExport(exported.files, knownSecrets(session, context));
    for (const warning of [...exported.leftOut, ...warnings]) context.note(`warning: ${warning}\n`);
    const dir = resolve(context.cwd, args.dir);
    // The state file the exported config needs (group ids by key): without it, a group renamed
    // right after export would plan as a second group.
    const statePath = defaultStatePath(join(dir, "notiform.yaml"), session.desired.environment);
    const textFiles = scrubTextFiles(exported.textFiles, knownSecrets(session, context), context);
    // Every name checked before one is written: inside --dir, through no link (export-files.ts).
    // The state file and its lock are written by the state store: checked here all the same.
    const names = [...files.keys(), ...textFiles.keys(), basename(statePath), `${basename(statePath)}.lock`];
    const root = existsSync(dir) ? await realpath(dir) : undefined;
    const targets = root === undefined ? new Map() : await inspectExportTargets(root, names, args.dir);
    const existing = names.filter((name) => targets.get(name) === "file" && !name.endsWith(".lock"));
    if (existing.length > 0 && !args.force) {
      throw new NotiformError("FILE_EXISTS", `refusing to overwrite ${existing.join(", ")} in ${args.dir}`, {
        hint: "Choose another --dir, or pass --force to overwrite.",
      });
    }
    await mkdir(dir, { recursive: true });
    const real = root ?? (await realpath(dir));
    const header = exportHeader(schemaReference(dir));
    // Templates first: a YAML file is never written naming a text file that is not there yet.
    for (const [name, text] of textFiles) await writeExportFile(real, name, text, args.dir);
    for (const [name, document] of files)
      await writeExportFile(real, name, `${header}${stringify(document, { lineWidth: 0 })}`, args.dir);
    await withStateLock(statePath, { command: "notiform export" }, async () => {
      const secrets = [
        ...session.desired.sensitive,
        ...knownSecrets(session, context).credentials.map((c) => c.value),
      ];
      const recorder = new StateRecorder(
        emptyState(session.target),
        statePath,
        protector(secrets, session.keyed),
      );
      for (const change of exported.state) await recorder.record(change);
      await recorder.persist();
    });
    const summary = KINDS.filter((kind) => counts[kind] > 0)
      .map((kind) => `${counts[kind]} ${describeKind(kind, counts[kind])}`)
      .join(", ");
    return (
      (references > 0
        ? `Wrote ${references} value(s) that came from the environment back as their \${VAR} references.\n`
        : "") +
      `Exported ${summary || "nothing"} to ${args.dir}: ${[...files.keys(), basename(statePath)].join(", ")}${textFiles.size > 0 ? ` and ${textFiles.size} template file${textFiles.size === 1 ? "" : "s"}` : ""}\n` +
      (notExported.length > 0 ? `Not exported: ${notExported.join("; ")}.\n` : "")
    );
  } finally {
    await session.close();
  }
}

/** The secrets export must not write: the key, partner tokens, and the config's interpolated values. */
function knownSecrets(session: Session, context: RunContext): KnownSecrets {
  const apiKey = context.env[session.desired.apiKeyEnv] ?? "";
  const tokens = (session.organization.partnerConfigurations ?? []).map((p) => p.accessToken);
  return {
    credentials: [
      { label: `the API key (${session.desired.apiKeyEnv})`, value: apiKey },
      ...tokens.map((value) => ({ label: "a partner access token", value })),
    ],
    variables: variablesOf(session.desired.sensitive, context.env),
  };
}

/**
 * Template text holding a credential (the key, a partner token) is not written: its text in the
 * file is replaced and the user is told which file, never the value.
 */
function scrubTextFiles(
  files: ReadonlyMap<string, string>,
  secrets: KnownSecrets,
  context: RunContext,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, text] of files) {
    let clean = text;
    for (const { label, value } of secrets.credentials) {
      if (value.length < 4 || !clean.includes(value)) continue;
      clean = clean.split(value).join("(removed by notiform export)");
      context.note(`warning: ${name} held ${label}; it was removed from the file\n`);
    }
    out.set(name, clean);
  }
  return out;
}
