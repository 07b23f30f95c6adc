// `notiform export`: write the live state as config files, to adopt notiform on an existing
// organization. Refuses to overwrite any file unless --force, checking all before writing one.
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { stringify } from "yaml";
import { NotiformError } from "../../errors.js";
import { EXPORT_HEADER, exportDocuments } from "../../resources/export-live.js";
import { readLive } from "../../resources/read-live.js";
import { describeKind, KINDS } from "../../resources/registry.js";
import { writeFileAtomic } from "../../state/state-store.js";
import { EXIT } from "../exit-codes.js";
import { environmentOption } from "../prepare-plan.js";
import { openSessionOptionalConfig, organizationOf, type SessionArgs } from "../session.js";
import type { Command } from "./index.js";

interface ExportArgs extends SessionArgs {
  dir: string;
  force: boolean;
}

export const exportCommand: Command = {
  command: "export",
  describe: "Write the live state as config files (bootstrap a repository)",
  builder: (yargs) =>
    yargs
      .option("dir", {
        type: "string",
        default: ".",
        describe: "Directory to write notiform.yaml and its includes into",
      })
      .option("force", { type: "boolean", default: false, describe: "Overwrite files that already exist" }),
  run: async (args: ExportArgs, context) => {
    const session = await openSessionOptionalConfig(args, context);
    try {
      const live = await readLive(session.client, session.desired, organizationOf(session), {
        everything: true,
        ...environmentOption(session),
      });
      const { files, notExported, counts } = exportDocuments(live);
      const dir = resolve(context.cwd, args.dir);
      const existing = [...files.keys()].filter((name) => existsSync(join(dir, name)));
      if (existing.length > 0 && !args.force) {
        throw new NotiformError(
          "FILE_EXISTS",
          `refusing to overwrite ${existing.join(", ")} in ${args.dir}`,
          {
            hint: "Choose another --dir, or pass --force to overwrite.",
          },
        );
      }
      await mkdir(dir, { recursive: true });
      for (const [name, document] of files) {
        await writeFileAtomic(join(dir, name), `${EXPORT_HEADER}${stringify(document, { lineWidth: 0 })}`);
      }
      const exported = KINDS.filter((kind) => counts[kind] > 0)
        .map((kind) => `${counts[kind]} ${describeKind(kind, counts[kind])}`)
        .join(", ");
      context.terminal.err(
        `Exported ${exported || "nothing"} to ${args.dir}: ${[...files.keys()].join(", ")}\n` +
          (notExported.length > 0 ? `Not exported: ${notExported.join("; ")}.\n` : ""),
      );
      return EXIT.ok;
    } finally {
      await session.close();
    }
  },
};
