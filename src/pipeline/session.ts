// Wiring shared by every command that talks to the API: load the config, decide the API URL
// and key, build the client, and check the organization guard before anything read is used
// (plan may start its reads early, while the config loads: they are GETs, and are dropped when
// the guard fails).

import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { displayPath } from "../config/display-path.js";
import type { DesiredState, LoadOptions } from "../config/model.js";
import { ConfigError, NotiformError, type Problem } from "../errors.js";
import type { ApiClient } from "../kinds/client.js";
import { createClient } from "../kinds/client.js";
import type { Organization } from "../kinds/endpoints/wire.js";
import type { ServerEnvironment } from "../kinds/kind.js";
import { unlessUnsupported } from "../kinds/unsupported.js";
import { DEFAULT_API_KEY_ENV, emptyResources } from "../loader/defaults.js";
import { type LoadedOn, loadConfigBeside } from "../loader/load-beside.js";
import type { PlanTarget } from "../plan/model.js";
import { visibleText } from "../sanitize.js";
import { type KeyedDigest, keyedDigest, type Protect, protector } from "../secrets/keyed-digest.js";
import { sealApiUrl } from "../secrets/url-seal.js";
import type { StateFile } from "../state/model.js";
import { defaultStatePath, normalizeUrl } from "../state/state-store.js";
import type { RunArgs, RunContext } from "./context.js";
import { checkedRecordedUrl, DEFAULT_API_URL } from "./recorded-url.js";

export { DEFAULT_API_URL };
export const DEFAULT_CONFIG = "notiform.yaml";

/** The flags of a run that talks to the API. */
export type SessionArgs = RunArgs;

export interface Session {
  desired: DesiredState;
  configWarnings: Problem[];
  client: ApiClient;
  organization: Organization;
  /** The server environment the key reaches; undefined where the server does not say. */
  serverEnvironment?: ServerEnvironment;
  /** API URL, organization name and --env: what the state file records (plans add more: planTargetOf). */
  target: StateFile["target"];
  /** The target with the run's URL sealed under its key: what the state file records (readState, export). */
  stateTarget: StateFile["target"];
  statePath: string;
  /** Keyed digests under this run's API key: what plans and the state file keep of secrets. */
  keyed: KeyedDigest;
  /** What the state file keeps of a value (its keyed digest when it holds an interpolated value). */
  protect: Protect;
  close(): Promise<void>;
}

/** What is wrong with a key that cannot be sent as a header value, or undefined when nothing is. */
export function describeMalformedKey(key: string): string | undefined {
  if (/[\r\n]$/.test(key)) return "ends with a line break (as read from a file?)";
  if (/^\s|\s$/.test(key)) return "starts or ends with whitespace";
  if (/\s/.test(key)) return "contains whitespace";
  // Control characters, and anything outside printable ASCII (a header cannot carry it as is).
  if (/[^\x21-\x7e]/.test(key)) return "contains control or non-ASCII characters";
  return undefined;
}

/**
 * Which URL a run talks to, and so where the API key goes: THE one place that decides it.
 * The operator's setting (--api-url, else NOTIFORM_API_URL) wins. Where the operator set none:
 * the config's `environments.<env>.apiUrl`, else the URL the state file records (the server
 * `export` read, or the last apply wrote to), else the hosted US API. The config and the state
 * file are what a pull request edits: a config URL that differs from the operator's is refused
 * (API_URL_CONFLICT, before any request), never silently used nor silently ignored, and a state
 * file recording another URL is refused by readState (docs/security.md: set the URL in CI). The
 * state file's URL is used only when its seal verifies under the run's key (API_URL_UNSEALED).
 */
export function resolveApiUrl(args: SessionArgs, desired: DesiredState, env: RunContext["env"]): string {
  const operator = args["api-url"] ?? nonEmpty(env.NOTIFORM_API_URL);
  if (operator === undefined) {
    if (desired.apiUrl !== undefined) return normalizeUrl(desired.apiUrl);
    const statePath = args.state ?? defaultStatePath(desired.rootFile, desired.environment);
    return checkedRecordedUrl(statePath, env[desired.apiKeyEnv]);
  }
  const chosen = normalizeUrl(operator);
  if (desired.apiUrl !== undefined && normalizeUrl(desired.apiUrl) !== chosen) {
    const from = args["api-url"] !== undefined ? "--api-url" : "NOTIFORM_API_URL";
    const where = desired.environment !== undefined ? `environments.${desired.environment}.apiUrl` : "apiUrl";
    throw new NotiformError(
      "API_URL_CONFLICT",
      `the config's ${where} (${visibleText(desired.apiUrl)}) differs from ${from} (${visibleText(chosen)}): refusing to send the API key to either`,
      {
        hint: `Make them agree: the config's URL is what a pull request can change, so notiform never lets it outrank ${from}. Nothing was sent.`,
      },
    );
  }
  return chosen;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}

/** The flags that say where the config is (every command that reads one). */
export type ConfigArgs = Pick<SessionArgs, "config" | "env" | "allow-include-outside">;

/** The config a saved plan is checked against: the one it was made from, named again. */
export async function loadDesiredOfSavedPlan(args: ConfigArgs, context: RunContext) {
  return loadDesired(args, context).catch((error: unknown) => {
    if (!(error instanceof NotiformError) || error.code !== "CONFIG_NOT_FOUND") throw error;
    throw new NotiformError("CONFIG_NOT_FOUND", error.message, {
      hint: "A saved plan is applied beside the config it was made from, which apply reads again to check the plan is still current: pass the same --config (and --env) as the plan.",
    });
  });
}

export async function loadDesired(args: ConfigArgs, context: RunContext, onParsed?: LoadOptions["onParsed"]) {
  const options = {
    configPath: args.config,
    ...(args.env !== undefined ? { env: args.env } : {}),
    vars: context.env,
    cwd: context.cwd,
    allowIncludeOutside: args["allow-include-outside"] === true,
  };
  // In this thread, the loader (and the YAML parser) is loaded only when used: a plan loads a
  // large config on a worker, and the commands' start-up does not compile what they never run.
  const loading: Promise<{ desired: DesiredState; warnings: Problem[]; loadedOn?: LoadedOn }> =
    onParsed !== undefined
      ? loadConfigBeside({ ...options, onParsed })
      : import("../loader/index.js").then(({ loadConfig }) => loadConfig(options));
  const result = await loading.catch((error: unknown) => {
    if (error instanceof ConfigError) context.masker.addAll(error.sensitive);
    throw error;
  });
  context.masker.addAll(result.desired.sensitive);
  return result;
}

export function connect(args: SessionArgs, desired: DesiredState, context: RunContext): ApiClient {
  const apiKey = context.env[desired.apiKeyEnv];
  if (apiKey === undefined || apiKey.trim() === "") {
    // Set but empty is its own mistake (often a CI secret that does not exist, or a typo in
    // its name): saying "not set" would send people looking in the wrong place.
    const state = apiKey === undefined ? "is not set" : "is set but empty";
    throw new NotiformError("API_KEY_MISSING", `no API key: the variable ${desired.apiKeyEnv} ${state}`, {
      hint:
        apiKey === undefined
          ? `Export ${desired.apiKeyEnv}=<your API key>. notiform never takes a key from a flag or a file.`
          : `Check where ${desired.apiKeyEnv} gets its value (in CI: that the secret exists under that name and is available to this job).`,
    });
  }
  context.masker.addCredential(apiKey);
  const malformed = describeMalformedKey(apiKey);
  if (malformed !== undefined) {
    // Caught here, before any request: the HTTP layer would refuse the header, which reads as a
    // network failure and is retried. Name the variable, never the value.
    throw new NotiformError(
      "API_KEY_MALFORMED",
      `the API key in ${desired.apiKeyEnv} is malformed: it ${malformed}`,
      {
        hint: `Set ${desired.apiKeyEnv} to the key alone, e.g. export ${desired.apiKeyEnv}="$(tr -d '[:space:]' < keyfile)".`,
      },
    );
  }
  const baseUrl = resolveApiUrl(args, desired, context.env);
  return createClient({
    baseUrl,
    apiKey,
    apiKeyEnv: desired.apiKeyEnv,
    concurrency: args.concurrency,
    ...(args["max-wait"] !== undefined ? { maxWaitMs: args["max-wait"] * 1000 } : {}),
    insecureHttp: args["insecure-http"],
    // HTTPS_PROXY, HTTP_PROXY and NO_PROXY choose the route to the API.
    env: context.env,
    masker: context.masker,
    ...(context.log !== undefined ? { log: context.log } : {}),
    ...(context.onPage !== undefined ? { onPage: context.onPage } : {}),
  });
}

/** A client connected, and the organization and environment asked for, before the config has loaded. */
export interface EarlyConnection {
  client: ApiClient;
  organization: Promise<Organization>;
  environment: Promise<ServerEnvironment | undefined>;
}

/**
 * Without --env the API URL and key do not depend on the config (only an environment sets
 * `apiUrl` or `apiKeyEnv`): connect and ask which organization and environment the key reaches
 * while the config loads (the environment says whether Development-only kinds may be read ahead).
 * Undefined when that is not so, or when the key is missing (the normal path reports it, after
 * any config error).
 */
export function connectEarly(args: SessionArgs, context: RunContext): EarlyConnection | undefined {
  if (args.env !== undefined) return undefined;
  const apiKeyEnv = DEFAULT_API_KEY_ENV;
  const key = context.env[apiKeyEnv];
  if (key === undefined || key === "") return undefined;
  // The root file's place, for the state file beside it (the URL it records: resolveApiUrl).
  const rootFile = resolve(context.cwd, args.config);
  let client: ApiClient;
  try {
    client = connect(args, { apiKeyEnv, rootFile } as DesiredState, context);
  } catch (error) {
    // An unsealed state URL may be outranked by the config's apiUrl: the normal path decides.
    if (error instanceof NotiformError && error.code === "API_URL_UNSEALED") return undefined;
    throw error;
  }
  const organization = client.getCurrentOrganization();
  const environment = currentEnvironment(client);
  // Awaited (and their failure reported) by openSession; never an unhandled rejection meanwhile.
  organization.catch(() => undefined);
  environment.catch(() => undefined);
  return { client, organization, environment };
}

export async function openSession(
  args: SessionArgs,
  context: RunContext,
  loaded?: { desired: DesiredState; warnings: Problem[] },
  options: { guard: boolean } = { guard: true },
  early?: EarlyConnection,
): Promise<Session> {
  const { desired, warnings } = loaded ?? (await loadDesired(args, context));
  // The early connection was made for the URL and key this config resolves to (no environment).
  const usable = early !== undefined && desired.environment === undefined && desired.apiUrl === undefined;
  if (early !== undefined && !usable) await early.client.close();
  const client = usable ? early.client : connect(args, desired, context);
  const keyed = keyedDigest(context.env[desired.apiKeyEnv] ?? "");
  // Both asked at once: neither answer depends on the other.
  const asked = usable
    ? early
    : { organization: client.getCurrentOrganization(), environment: currentEnvironment(client) };
  // Awaited below, the environment after the organization guard; never unhandled meanwhile.
  asked.environment.catch(() => undefined);
  try {
    const organization = await asked.organization;
    for (const partner of organization.partnerConfigurations ?? [])
      context.masker.addCredential(partner.accessToken);
    if (options.guard && desired.organization !== undefined && organization.name !== desired.organization) {
      throw new NotiformError(
        "ORG_MISMATCH",
        `the API key reaches organization "${visibleText(organization.name)}", but the config is for "${visibleText(desired.organization)}"`,
        {
          hint: "Check the key (and --env), or the config's organization guard. Nothing was planned or changed.",
        },
      );
    }
    const serverEnvironment = await asked.environment;
    const guard = desired.serverEnvironment;
    if (
      options.guard &&
      guard !== undefined &&
      serverEnvironment !== undefined &&
      serverEnvironment.name !== guard
    ) {
      throw new NotiformError(
        "ENVIRONMENT_MISMATCH",
        `the API key reaches the ${serverEnvironment.name} environment, but the config${desired.environment !== undefined ? `'s environment ${desired.environment}` : ""} is for ${guard}`,
        {
          hint: "Check the key (and --env), or the config's serverEnvironment guard. Nothing was planned or changed.",
        },
      );
    }
    const apiUrl = resolveApiUrl(args, desired, context.env);
    const statePath = args.state ?? defaultStatePath(desired.rootFile, desired.environment);
    noteUnusedStateFile(args, desired, statePath, context);
    return {
      desired,
      configWarnings: warnings,
      client,
      organization,
      ...(serverEnvironment !== undefined ? { serverEnvironment } : {}),
      target: { apiUrl, organization: organization.name, environment: desired.environment ?? null },
      stateTarget: {
        apiUrl,
        organization: organization.name,
        environment: desired.environment ?? null,
        apiUrlSeal: sealApiUrl(apiUrl, keyed),
      },
      statePath,
      keyed,
      protect: protector(desired.sensitive, keyed),
      close: () => client.close(),
    };
  } catch (error) {
    await client.close();
    throw error;
  }
}

/**
 * A config moved to environments after an export without --env keeps the exported state file
 * (notiform.state.json), which no --env run reads: say so rather than plan as if nothing were
 * known (groups created again, identifiers unresolved), until the environment has its own.
 */
function noteUnusedStateFile(
  args: SessionArgs,
  desired: DesiredState,
  statePath: string,
  context: RunContext,
): void {
  if (args.state !== undefined || desired.environment === undefined || existsSync(statePath)) return;
  const unused = defaultStatePath(desired.rootFile, undefined);
  if (!existsSync(unused)) return;
  context.note(
    `warning: ${displayPath(unused, context.cwd)} is not read with --env ${desired.environment}: this environment's state file is ${displayPath(statePath, context.cwd)}. If it was exported from this environment, rename it (git mv); to add an environment, use \`notiform export --env NAME\`.\n`,
  );
}

/** GET /v1/environments/me where the server serves it (an extension; spec-only servers do not). */
async function currentEnvironment(client: ApiClient): Promise<ServerEnvironment | undefined> {
  const environment = await unlessUnsupported(client.getCurrentEnvironment());
  return environment === undefined ? undefined : { id: environment._id, name: environment.name };
}

/**
 * For commands that work without a config (whoami, export): when the default root file does not
 * exist, run on defaults (key from NOTIFORM_API_KEY, URL from --api-url / NOTIFORM_API_URL).
 * These commands report the organization rather than guard it.
 */
export async function openSessionOptionalConfig(args: SessionArgs, context: RunContext): Promise<Session> {
  const rootFile = resolve(context.cwd, args.config);
  if (args.config === DEFAULT_CONFIG && !existsSync(rootFile))
    return openSessionOnDefaults(args, context, rootFile);
  return openSession(args, context, undefined, { guard: false });
}

/**
 * A session without a config: key from NOTIFORM_API_KEY, URL from --api-url / NOTIFORM_API_URL
 * (or the state file beside `rootFile`), for reporting, not guarding. `environment`: the --env
 * name the run is for (its state file, its target).
 */
export function openSessionOnDefaults(
  args: SessionArgs,
  context: RunContext,
  rootFile: string,
  environment?: string,
): Promise<Session> {
  const desired: DesiredState = {
    apiKeyEnv: DEFAULT_API_KEY_ENV,
    resources: emptyResources(),
    rootFile,
    files: [],
    digest: "",
    sensitive: [],
    ...(environment !== undefined ? { environment } : {}),
  };
  return openSession(args, context, { desired, warnings: [] }, { guard: false });
}

/**
 * Where a plan made in this session applies: the session's target (as the state file records it)
 * with the organization's id and the server environment, where the server tells them.
 */
export function planTargetOf(session: Session): PlanTarget {
  return {
    ...session.target,
    ...(session.organization._id ? { organizationId: session.organization._id } : {}),
    ...(session.serverEnvironment !== undefined
      ? { serverEnvironment: { id: session.serverEnvironment.id, name: session.serverEnvironment.name } }
      : {}),
  };
}

/** The organization as the planner sees it (name, and id when the server sent one). */
export function organizationOf(session: Session): { name: string; id?: string } {
  return {
    name: session.organization.name,
    ...(session.organization._id ? { id: session.organization._id } : {}),
  };
}
