// What each command's --help shows after its options: one or two examples, and the environment
// variables that matter to it (the API key above all: it is never a flag). Text only; main.ts
// hands it to yargs (example, epilogue).

interface CommandHelp {
  examples: [command: string, what: string][];
  /** Names from ENVIRONMENT below. */
  environment: (keyof typeof ENVIRONMENT)[];
}

const ENVIRONMENT = {
  NOTIFORM_API_KEY: "the API key (never a flag, never printed); an environment's apiKeyEnv may name another",
  NOTIFORM_API_URL: "the API base URL when --api-url is not given",
  NO_COLOR: "set to anything: no colour (as --no-color)",
  GITHUB_SHA: "the commit named in --output markdown (as --commit)",
  NOTIFORM_CHROME: "the Chrome/Chromium for --screenshots (else chromium, google-chrome on PATH)",
  HTTPS_PROXY: "the proxy for an https:// API (HTTP_PROXY for http://; either case), as curl reads them",
  NO_PROXY: "hosts reached directly, not through the proxy (either case; docs/networking.md)",
  NODE_EXTRA_CA_CERTS: "a PEM file of certificate authorities to trust too: a server behind a private CA",
} as const;

/** What a command that talks to the API reads: the key, the URL and the way there. */
const API = [
  "NOTIFORM_API_KEY",
  "NOTIFORM_API_URL",
  "HTTPS_PROXY",
  "NO_PROXY",
  "NODE_EXTRA_CA_CERTS",
] as const;

const HELP: Record<string, CommandHelp> = {
  validate: {
    examples: [
      ["$0 validate", "check notiform.yaml and what it includes, offline"],
      ["$0 validate --output json", "every problem as JSON (file, line, column, field)"],
    ],
    environment: [],
  },
  plan: {
    examples: [
      ["$0 plan --env production", "what apply would change in production"],
      [
        "$0 plan --out plan.json --detailed-exitcode",
        "save the plan for `apply plan.json`; exit 2 on changes",
      ],
    ],
    environment: [...API, "NO_COLOR", "GITHUB_SHA"],
  },
  apply: {
    examples: [
      ["$0 apply plan.json", "apply a saved plan (refused if the server moved since)"],
      ["$0 apply --auto-approve", "plan and apply without asking (CI)"],
    ],
    environment: [...API, "NO_COLOR"],
  },
  show: {
    examples: [["$0 show plan.json", "print a saved plan again"]],
    environment: ["NO_COLOR"],
  },
  promote: {
    examples: [
      ["$0 promote --out promotion.json", "preview Development's pending changes, saved for review"],
      ["$0 promote promotion.json", "promote exactly what was reviewed"],
    ],
    environment: [...API, "NO_COLOR"],
  },
  export: {
    examples: [
      ["$0 export --dir infra", "write the live state as notiform.yaml and files under infra/"],
      ["$0 export --dir infra --env production", "add the production environment to that config"],
    ],
    environment: [...API],
  },
  whoami: {
    examples: [["$0 whoami", "which API, organization and environment the key reaches"]],
    environment: [...API],
  },
  resolve: {
    examples: [
      ["$0 resolve notificationGroup/billing --not-created", "the interrupted create did not happen"],
      ["$0 resolve workflow/welcome --id 64f1c0ffee0000000000abcd", "it was created, with this id"],
    ],
    // Offline: the key only keeps a secret-bearing name as its keyed digest.
    environment: ["NOTIFORM_API_KEY"],
  },
  "force-unlock": {
    examples: [["$0 force-unlock", "remove the lock an apply left after a crash"]],
    environment: [],
  },
  preview: {
    examples: [
      ["$0 preview --out notiform-preview", "render every message offline, as a site to open"],
      ["$0 preview --changed --screenshots", "only what the plan changes, before and after, with PNGs"],
    ],
    environment: [...API, "NOTIFORM_CHROME"],
  },
  emulator: {
    examples: [
      ["$0 emulator --port 3000", "serve the API on 127.0.0.1:3000 (its keys are in the seed file it names)"],
      ["$0 emulator --latency 50 --error-rate 0.05", "rehearse against a slow, flaky server"],
    ],
    environment: [],
  },
};

export function examplesOf(command: string): [string, string][] {
  return HELP[command]?.examples ?? [];
}

/** "Environment:" and the variables that matter to the command, or "" for none. */
export function epilogueOf(command: string): string {
  const names = HELP[command]?.environment ?? [];
  if (names.length === 0) return "";
  const width = Math.max(...names.map((name) => name.length));
  return `Environment:\n${names.map((name) => `  ${name.padEnd(width)}  ${ENVIRONMENT[name]}`).join("\n")}`;
}
