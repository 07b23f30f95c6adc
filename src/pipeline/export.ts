// The export stage: read everything live, write it as config files (and the templates they
// name) with the state file the exported config needs. Refuses to overwrite any file unless
// `force`, checking all before writing one; writes only inside --dir, through no link
// (export-files.ts); values from the environment are written back as their ${VAR} references
// and credentials never.
import { existsSync } from "node:fs";
import { realpath } from "node:fs/promises";
import { basename, dirname, join, relative, resolve } from "node:path";
import { StateRecorder } from "../apply/state-recorder.js";
import { NotiformError } from "../errors.js";
import {
  type KnownSecrets,
  REDACTED,
  redactSecretValues,
  StandIns,
  scrubExport,
  variablesOf,
} from "../export-secrets.js";
import { exportDocuments, exportHeader } from "../kinds/export-live.js";
import { readLive } from "../kinds/read-live.js";
import { describeKind, KINDS } from "../kinds/registry.js";
import { DEFAULT_API_KEY_ENV } from "../loader/defaults.js";
import { protector } from "../secrets/keyed-digest.js";
import { withStateLock } from "../state/lock.js";
import { emptyState, type StateFile } from "../state/model.js";
import { defaultStatePath, readState } from "../state/state-store.js";
import type { RunArgs, RunContext } from "./context.js";
import { definesEnvironment, isShared, layoutForEnvironment } from "./export-environment.js";
import { inspectExportTargets, makeExportDir, writeExportFile } from "./export-files.js";
import { exportYaml } from "./export-yaml.js";
import { environmentOption } from "./prepare-plan.js";
import {
  openSession,
  openSessionOnDefaults,
  openSessionOptionalConfig,
  organizationOf,
  type Session,
} from "./session.js";

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
  const dir = resolve(context.cwd, args.dir);
  const session = await openExportSession(args, context, dir);
  try {
    const live = await readLive(session.client, session.desired, organizationOf(session), {
      everything: true,
      ...environmentOption(session),
    });
    const known = knownSecrets(session, context);
    // Values from the environment are swapped for stand-ins while the documents are made, so no
    // key or file name is made of one and no template file holds one (StandIns).
    const standIns = StandIns.of(known.variables);
    const hidden = standIns === undefined ? live : standIns.hide(live);
    // Then the secrets the config no longer names, which the server still holds (the state's).
    const held = await heldSecretsOf(session);
    const withheld = redactSecretValues(hidden, held.secretValues ?? [], session.keyed);
    if (withheld > 0)
      context.note(
        `warning: ${withheld} value${withheld === 1 ? "" : "s"} the server holds held a value from the environment when last applied, which the config no longer names (the state file's secretValues); written as ${REDACTED}: set ${withheld === 1 ? "it" : "them"} in the config, with \${VAR}, before applying this export\n`,
      );
    const exported = exportDocuments(hidden);
    const { notExported, counts } = exported;
    const made =
      standIns === undefined
        ? { documents: exported.files, textFiles: exported.textFiles }
        : standIns.inline(exported.files, exported.textFiles);
    const scrubbed = scrubExport(made.documents, known, standIns);
    const { warnings, references } = scrubbed;
    const leftOut =
      standIns === undefined ? exported.leftOut : exported.leftOut.map((m) => standIns.referenced(m));
    for (const warning of [...leftOut, ...warnings]) context.note(`warning: ${warning}\n`);
    const rootPath = join(dir, "notiform.yaml");
    const layout =
      args.env === undefined
        ? undefined
        : layoutForEnvironment(scrubbed.files, args.env, rootPath, join(args.dir, "notiform.yaml"), {
            // The key variable this run used, when not the default: the next run uses it too.
            ...(session.desired.apiKeyEnv !== DEFAULT_API_KEY_ENV
              ? { apiKeyEnv: session.desired.apiKeyEnv }
              : {}),
          });
    const files = layout?.files ?? scrubbed.files;
    // The state file the exported config needs (group ids by key): without it, a group renamed
    // right after export would plan as a second group. It records the API URL read, the default
    // of the next run (resolveApiUrl).
    const statePath = defaultStatePath(rootPath, args.env ?? session.desired.environment);
    const textFiles =
      layout?.writesBase === false
        ? new Map<string, string>()
        : scrubTextFiles(made.textFiles, known, context);
    // Every name checked before one is written: inside --dir, through no link (export-files.ts).
    // The state file and its lock are written by the state store, and the root rewritten for an
    // environment: checked here all the same (only the new files may not exist yet).
    const fresh = [...files.keys(), ...textFiles.keys(), basename(statePath)];
    const names = [
      ...fresh,
      `${basename(statePath)}.lock`,
      ...(layout?.rootText !== undefined ? ["notiform.yaml"] : []),
    ];
    const root = existsSync(dir) ? await realpath(dir) : undefined;
    const targets = root === undefined ? new Map() : await inspectExportTargets(root, names, args.dir);
    const existing = fresh.filter((name) => targets.get(name) === "file");
    if (existing.length > 0 && !args.force) {
      throw new NotiformError("FILE_EXISTS", `refusing to overwrite ${existing.join(", ")} in ${args.dir}`, {
        hint: "Choose another --dir, or pass --force to overwrite.",
      });
    }
    await makeExportDir(dir, args.dir);
    const real = root ?? (await realpath(dir));
    const header = exportHeader(schemaReference(dir));
    // Templates first: a YAML file is never written naming a text file that is not there yet.
    for (const [name, text] of textFiles) await writeExportFile(real, name, text, args.dir);
    // The root last (below): an interrupted export never leaves a root naming files not written.
    const rootDocument = layout?.rootText === undefined ? files.get("notiform.yaml") : undefined;
    for (const [name, document] of files) {
      if (name === "notiform.yaml" && rootDocument !== undefined) continue;
      const path = join(dir, name);
      const own = dirname(path) === dir ? header : exportHeader(schemaReference(dirname(path)));
      await writeExportFile(real, name, `${own}${exportYaml(document)}`, args.dir);
    }
    // Last: the root names the other files only once they are there.
    if (rootDocument !== undefined)
      await writeExportFile(real, "notiform.yaml", `${header}${exportYaml(rootDocument)}`, args.dir);
    if (layout?.rootText !== undefined)
      await writeExportFile(real, "notiform.yaml", layout.rootText, args.dir);
    await withStateLock(statePath, { command: "notiform export" }, async () => {
      const secrets = [...session.desired.sensitive, ...known.credentials.map((c) => c.value)];
      const recorder = new StateRecorder(
        // What the server holds of secrets the config no longer names stays recorded.
        {
          ...emptyState({ ...session.stateTarget, environment: args.env ?? session.target.environment }),
          ...held,
        },
        statePath,
        protector(secrets, session.keyed),
      );
      // The state file keeps names as keyed digests: the values themselves, not their stand-ins.
      const state = standIns === undefined ? exported.state : standIns.reveal(exported.state);
      for (const change of state) await recorder.record(change);
      await recorder.persist();
    });
    // A later environment writes only its own kinds: the summary counts what was written.
    const summary = KINDS.filter(
      (kind) => counts[kind] > 0 && (layout?.writesBase !== false || !isShared(kind)),
    )
      .map((kind) => `${counts[kind]} ${describeKind(kind, counts[kind])}`)
      .join(", ");
    const written = [...files.keys(), ...(layout?.rootText !== undefined ? ["notiform.yaml"] : [])];
    const promoted =
      layout?.writesBase === false
        ? `The base (workflows, layouts, notification groups, branding) was left as it is: ${args.env} receives it by promotion; \`notiform plan --env ${args.env}\` lists what differs.\n`
        : "";
    return (
      (references > 0
        ? `Wrote ${references} value(s) that came from the environment back as their \${VAR} references.\n`
        : "") +
      `Exported ${summary || "nothing"} to ${args.dir}: ${[...written, basename(statePath)].join(", ")}${textFiles.size > 0 ? ` and ${textFiles.size} template file${textFiles.size === 1 ? "" : "s"}` : ""}\n` +
      (notExported.length > 0 ? `Not exported: ${notExported.join("; ")}.\n` : "") +
      promoted
    );
  } finally {
    await session.close();
  }
}

/**
 * Plain export: the --config file when there is one, else defaults. With --env NAME: the config
 * in the export directory when it defines NAME (its key variable and URL), else the --config
 * file when it does, else defaults for NAME (NOTIFORM_API_KEY; the URL from the flag,
 * NOTIFORM_API_URL or NAME's state file in the directory).
 */
function openExportSession(args: ExportArgs, context: RunContext, dir: string): Promise<Session> {
  if (args.env === undefined) return openSessionOptionalConfig(args, context);
  const rootPath = join(dir, "notiform.yaml");
  if (existsSync(rootPath) && definesEnvironment(rootPath, args.env))
    return openSession({ ...args, config: relative(context.cwd, rootPath) }, context, undefined, {
      guard: false,
    });
  const configPath = resolve(context.cwd, args.config);
  if (existsSync(configPath) && definesEnvironment(configPath, args.env))
    return openSession(args, context, undefined, { guard: false });
  return openSessionOnDefaults(args, context, rootPath, args.env);
}

/**
 * The session's state file's record of what the server holds of values from the environment
 * (heldSecrets, secretValues); nothing when it has none, or cannot be read for this target (its
 * digests would be under another key: they would match nothing).
 */
async function heldSecretsOf(session: Session): Promise<Pick<StateFile, "heldSecrets" | "secretValues">> {
  try {
    const { heldSecrets, secretValues } = await readState(session.statePath, session.stateTarget);
    return {
      ...(heldSecrets !== undefined && Object.keys(heldSecrets).length > 0 ? { heldSecrets } : {}),
      ...(secretValues !== undefined && secretValues.length > 0 ? { secretValues } : {}),
    };
  } catch {
    return {};
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
