// `notiform whoami`: which API URL, organization and environment the key reaches.

import { openSessionOptionalConfig } from "../../pipeline/session.js";
import { visibleText } from "../../sanitize.js";
import { defineCommand } from "../command.js";
import { API_OPTIONS, CONFIG_OPTIONS, VERBOSE_OPTIONS } from "../common.js";
import { EXIT } from "../exit-codes.js";
import { runContext } from "../run-context.js";

export const whoamiCommand = defineCommand({
  command: "whoami",
  describe: "Show the API URL, the organization the key reaches, and the environment",
  builder: (yargs) =>
    yargs
      .options(CONFIG_OPTIONS)
      .options(API_OPTIONS)
      .options(VERBOSE_OPTIONS)
      .option("output", {
        alias: "o",
        choices: ["text", "json"] as const,
        default: "text" as const,
        describe: "Output format",
      }),
  run: async (args, context) => {
    const session = await openSessionOptionalConfig(args, runContext(context, args));
    try {
      const facts = {
        apiUrl: session.target.apiUrl,
        organization: session.organization.name,
        organizationId: session.organization._id ?? null,
        environment: session.target.environment,
        // What the key reaches, where the server says (GET /v1/environments/me); else null.
        serverEnvironment: session.serverEnvironment?.name ?? null,
        serverEnvironmentId: session.serverEnvironment?.id ?? null,
        apiKeyVariable: session.desired.apiKeyEnv,
      };
      if (args.output === "json") context.terminal.out(`${JSON.stringify(facts, null, 2)}\n`);
      else {
        const reached =
          facts.serverEnvironment === null
            ? "(the server does not say)"
            : `${facts.serverEnvironment} (${facts.serverEnvironmentId})`;
        context.terminal.out(
          `API URL:       ${facts.apiUrl}\nOrganization:  ${visibleText(facts.organization)}${facts.organizationId ? ` (${visibleText(facts.organizationId)})` : ""}\nEnvironment:   ${visibleText(reached)}\nConfig env:    ${facts.environment ?? "(none selected)"}\nKey from:      ${facts.apiKeyVariable}\n`,
        );
      }
      return EXIT.ok;
    } finally {
      await session.close();
    }
  },
});
