// `notiform emulator`: run the bundled API emulator until SIGINT/SIGTERM, then close it (saving
// --data) and exit 0. It never prints API keys or access tokens: it names the seed file that
// holds the keys instead.

import { relative, resolve } from "node:path";
import { exposureWarning } from "../../emulator/exposure.js";
import { NotiformError } from "../../errors.js";
import { packageFile } from "../../package-files.js";
import { defineCommand } from "../command.js";
import { VERBOSE_OPTIONS } from "../common.js";
import { EXIT } from "../exit-codes.js";
import { waitForStopSignal } from "../interrupts.js";
import { integerFlag, numberFlag } from "../numeric-flags.js";

/** Longest added latency or jitter accepted (ms): beyond it every request would time out. */
const MAX_DELAY_MS = 600_000;

const BUNDLED_SEED = packageFile("examples", "emulator-seed.yaml");

const EPILOG = `Seed file (YAML or JSON, schema: schemas/seed.schema.json):
  organization: {name, _id?, partnerConfigurations?}
  apiKeys: [{key, environment: development|production}]
  environments:
    development: {topics, notificationGroups, workflows, tenants, overrides,
                  blueprints, executionDetails, subscribers, generate: {topics, tenants, workflows}}
    production: {...}
The seed holds what the API cannot create; ids are 24 hex characters. Faults are seeded
(--fault-seed) so runs repeat. The keys are never printed: read them from the seed.
Details: docs/emulator.md`;

export const emulatorCommand = defineCommand({
  command: "emulator",
  describe: "Run the bundled Notification Management API emulator (for demos, tests and rehearsals)",
  builder: (yargs) =>
    yargs
      .options(VERBOSE_OPTIONS)
      .option("port", {
        type: "number",
        default: 4010,
        describe: "Port to listen on (0: any free port)",
        coerce: integerFlag("port", 0, 65_535),
      })
      .option("host", { type: "string", default: "127.0.0.1", describe: "Address to listen on" })
      .option("seed", {
        type: "string",
        describe: "Seed file (default: the bundled examples/emulator-seed.yaml)",
      })
      .option("data", { type: "string", describe: "Keep the state in this JSON file between runs" })
      .option("latency", {
        type: "number",
        default: 0,
        describe: "Added latency per response (ms)",
        coerce: integerFlag("latency", 0, MAX_DELAY_MS),
      })
      .option("jitter", {
        type: "number",
        default: 0,
        describe: "Random +/- latency (ms)",
        coerce: integerFlag("jitter", 0, MAX_DELAY_MS),
      })
      .option("error-rate", {
        type: "number",
        default: 0,
        describe: "Share of requests answered 500/502/503/504 (0-1)",
        coerce: numberFlag("error-rate", 0, 1),
      })
      .option("drop-rate", {
        type: "number",
        default: 0,
        describe: "Share of connections dropped before handling (0-1)",
        coerce: numberFlag("drop-rate", 0, 1),
      })
      .option("lost-response-rate", {
        type: "number",
        default: 0,
        describe: "Share of writes handled, then dropped without an answer (0-1)",
        coerce: numberFlag("lost-response-rate", 0, 1),
      })
      .option("rate-limit", {
        type: "number",
        describe: "Requests per second before answering 429 with Retry-After",
        coerce: integerFlag("rate-limit", 1, 1_000_000),
      })
      .option("fault-seed", {
        type: "number",
        default: 1,
        describe: "Seed of the fault generator",
        coerce: integerFlag("fault-seed", 0, 2 ** 32 - 1),
      })
      .option("strict-spec", {
        type: "boolean",
        default: false,
        describe: "Serve only the spec's 17 endpoints (no extensions)",
      })
      .option("flavor", {
        choices: ["spec", "real"] as const,
        default: "spec" as const,
        describe: "Answer as the spec says, or as real servers do where they differ",
      })
      .epilog(EPILOG),
  run: async (args, context) => {
    const seedFile = args.seed !== undefined ? resolve(context.cwd, args.seed) : BUNDLED_SEED;
    // Loaded here, not with the CLI: only this command runs the emulator (100 KB every other
    // command would parse at start-up).
    const { loadSeedFile, startEmulator } = await import("../../emulator/index.js");
    const seed = await loadSeedFile(seedFile);
    const exposed = exposureWarning(args.host);
    if (exposed !== undefined) context.terminal.err(exposed);
    const emulator = await startEmulator({
      port: args.port,
      host: args.host,
      seed,
      ...(args.data !== undefined ? { dataFile: resolve(context.cwd, args.data) } : {}),
      latencyMs: args.latency,
      jitterMs: args.jitter,
      errorRate: args["error-rate"],
      dropRate: args["drop-rate"],
      lostResponseRate: args["lost-response-rate"],
      ...(args["rate-limit"] !== undefined ? { rateLimit: { perSecond: args["rate-limit"] } } : {}),
      faultSeed: args["fault-seed"],
      strictSpec: args["strict-spec"],
      flavor: args.flavor,
    }).catch((error: unknown) => {
      throw listenError(error, args.host, args.port);
    });
    const organization = seed.organization?.name ?? "Emulated Organization";
    const seedName = args.seed ?? relative(context.cwd, seedFile);
    context.terminal.err(
      `notiform emulator listening on ${emulator.url} (organization ${organization}; keys from ${seedName})\n`,
    );
    await waitForStopSignal();
    await emulator.close();
    context.terminal.err("notiform emulator stopped\n");
    return EXIT.ok;
  },
});

/** A busy or forbidden port is an ordinary mistake, not a bug: name it and say what to do. */
function listenError(error: unknown, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "EADDRINUSE") {
    return new NotiformError(
      "PORT_UNAVAILABLE",
      `cannot listen on ${host}:${port}: the port is already in use`,
      {
        hint: "Stop what holds it (another emulator?), or choose another --port (--port 0 picks a free one).",
        cause: error,
      },
    );
  }
  if (code === "EACCES" || code === "EADDRNOTAVAIL") {
    return new NotiformError(
      "PORT_UNAVAILABLE",
      `cannot listen on ${host}:${port}: ${code === "EACCES" ? "permission denied" : "no such local address"}`,
      {
        hint: "Choose a port above 1023 and an address of this machine (--host 127.0.0.1).",
        cause: error,
      },
    );
  }
  return error;
}
