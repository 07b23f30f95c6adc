// `notiform export`: write the live state as config files, to adopt notiform on an existing
// organization. Refuses to overwrite any file unless --force, checking all before writing one.
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { stringify } from "yaml";
import { NotiformError } from "../../errors.js";
import { count, listing } from "../../plural.js";
import { EXPORT_HEADER, exportDocuments } from "../../resources/export-live.js";
import { unlessUnsupported } from "../../resources/read-live.js";
import { writeFileAtomic } from "../../state/state-store.js";
import { defineCommand } from "../command.js";
import { API_OPTIONS, CONFIG_OPTIONS, VERBOSE_OPTIONS } from "../common.js";
import { EXIT } from "../exit-codes.js";
import { openSessionOptionalConfig } from "../session.js";

export const exportCommand = defineCommand({
  command: "export",
  describe: "Write the live state as config files (bootstrap a repository)",
  builder: (yargs) =>
    yargs
      .options(CONFIG_OPTIONS)
      .options(API_OPTIONS)
      .options(VERBOSE_OPTIONS)
      .option("output", {
        alias: "o",
        choices: ["text", "json"] as const,
        default: "text" as const,
        describe: "json: errors as one JSON object on stdout (schemas/error.schema.json)",
      })
      .option("dir", {
        type: "string",
        default: ".",
        describe: "Directory to write notiform.yaml and its includes into",
      })
      .option("force", { type: "boolean", default: false, describe: "Overwrite files that already exist" }),
  run: async (args, context) => {
    const session = await openSessionOptionalConfig(args, context);
    try {
      const { client } = session;
      const [topics, overrides, workflows, notificationGroups] = await Promise.all([
        client.listAllTopics(),
        client.listAllWorkflowOverrides(),
        unlessUnsupported(client.listAllWorkflows()),
        unlessUnsupported(client.listNotificationGroups()),
      ]);
      const { files } = exportDocuments({
        organization: session.organization.name,
        topics,
        overrides,
        workflows,
        notificationGroups,
      });
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
      const notes: string[] = [];
      if (workflows === undefined) notes.push("workflows (the server cannot list them)");
      if (notificationGroups === undefined) notes.push("notification groups (the server cannot list them)");
      context.terminal.err(
        `Exported ${listing([count(topics.length, "topic"), count(overrides.length, "override"), count(workflows?.length ?? 0, "workflow"), count(notificationGroups?.length ?? 0, "notification group")])} to ${args.dir}: ${[...files.keys()].join(", ")}\n` +
          (notes.length > 0 ? `Not exported: ${notes.join("; ")}.\n` : ""),
      );
      return EXIT.ok;
    } finally {
      await session.close();
    }
  },
});
