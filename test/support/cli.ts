// The one set-up of a CLI test: the emulator in-process on port 0 (seeded from
// examples/emulator-seed.yaml unless told otherwise), a throwaway config folder from a map of
// files, the emulator's keys in a minimal environment (PATH, HOME, NO_COLOR=1 and the keys: no
// inherited NOTIFORM_* variable), the built CLI (bin/notiform.js) spawned there against the
// emulator (or on a pseudo-terminal), its JSON output parsed, and everything stopped and removed
// afterwards. A kind's CLI test is then a page of assertions:
//
//   const cliTest = cliTests();                       // closes what each test started
//   const { cli, json, emulator } = await cliTest({ config: CONFIG, flavor: "real" });
//   const plan = await json("plan", "--env", "development");
import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, expect } from "vitest";
import { type EmulatorHandle, type EmulatorOptions, startEmulator } from "../../src/emulator/index.js";
import { type SchemaName, validatorOf } from "../../src/schemas.js";
import { BIN } from "./bin.js";
import { type PtyRun, runOnPty } from "./pty.js";

export { BIN };
export const SEED = "examples/emulator-seed.yaml";

export const WORKFLOW_SHIPPED = "64f1c0ffee0000000000a001";
export const WORKFLOW_RESET = "64f1c0ffee0000000000a002";
export const TENANT_1 = "650000000000000000000001";
export const TENANT_2 = "650000000000000000000002";

/** The start most CLI tests share: the guard, two topics and one notification group. */
export const ACME_BASE = `version: 1
organization: Acme Inc
topics:
  - key: order-updates
    name: Order updates
  - key: newsletter
    name: Newsletter
notificationGroups:
  - key: billing
    name: Billing
`;

/**
 * A `workflows:` section with the one workflow the promote and layout tests share: order-shipped,
 * one email step (email-customer). `content` is YAML as written ("\"<p>..</p>\"" or "{ file: x }").
 */
export function orderShippedByEmail(template: {
  subject: string;
  content: string;
  layout?: string;
  contentType?: "editor" | "customHtml";
}): string {
  return `workflows:
  - identifier: order-shipped
    name: Order shipped
    steps:
      - name: email-customer
        type: email
        template:
          subject: "${template.subject}"
          content: ${template.content}
${template.layout === undefined ? "" : `          layout: ${template.layout}\n`}${template.contentType === undefined ? "" : `          contentType: ${template.contentType}\n`}`;
}

// ---------------------------------------------------------------------------------------------
// Running the CLI as a child process

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd: string;
  env?: Record<string, string | undefined>;
  /** Written to the child's stdin, then stdin is closed. */
  input?: string;
  /** Called once the child is spawned, e.g. to signal it. */
  onSpawn?: (child: ChildProcess) => void;
}

/** The built CLI, the way users and CI run it: a minimal environment, stdout and stderr apart. */
export function runCli(args: string[], options: CliOptions): Promise<CliResult> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? "", NO_COLOR: "1", HOME: options.cwd };
  for (const [name, value] of Object.entries(options.env ?? {})) if (value !== undefined) env[name] = value;
  return runProcess(process.execPath, [BIN, ...args], { ...options, env });
}

/** Any command as a child process: exactly `env` as its environment, stdout and stderr captured. */
export function runProcess(
  command: string,
  args: string[],
  options: Omit<CliOptions, "env"> & { env: Record<string, string> },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: "pipe" });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
    // A child that exits before reading its input (a shell failing at once) closes the pipe
    // first: that is its answer, not an error of the test.
    child.stdin.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") reject(error);
    });
    child.stdin.end(options.input ?? "");
    options.onSpawn?.(child);
  });
}

/** An onSpawn that sends SIGKILL once `when()` holds (polled every millisecond). */
export function killWhen(when: () => boolean): NonNullable<CliOptions["onSpawn"]> {
  return (child) => {
    const timer = setInterval(() => {
      if (when()) {
        child.kill("SIGKILL");
        clearInterval(timer);
      }
    }, 1);
    child.on("close", () => clearInterval(timer));
  };
}

// ---------------------------------------------------------------------------------------------
// A config folder

/** A throwaway directory holding a config, so CLI tests never write into the repository. */
export interface Workspace {
  dir: string;
  write(name: string, content: string): Promise<void>;
  read(name: string): Promise<string>;
  path(name: string): string;
  /** Removes the directory and everything in it. */
  remove(): Promise<void>;
}

export async function createWorkspace(files: Record<string, string> = {}): Promise<Workspace> {
  const dir = await mkdtemp(join(tmpdir(), "notiform-test-"));
  const workspace: Workspace = {
    dir,
    // Nested names ("teams/a.yaml") get their directories.
    write: async (name, content) => {
      await mkdir(dirname(join(dir, name)), { recursive: true });
      await writeFile(join(dir, name), content);
    },
    read: (name) => readFile(join(dir, name), "utf8"),
    path: (name) => join(dir, name),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
  for (const [name, content] of Object.entries(files)) await workspace.write(name, content);
  return workspace;
}

// ---------------------------------------------------------------------------------------------
// The emulator, a config folder and the CLI together

/** The keys the emulator's seed holds, as the environment variables name them. */
export interface SeedKeys {
  development: string;
  production: string;
}

/** The default environment: the default variable and the per-environment ones of the examples. */
export function defaultKeys(keys: SeedKeys): Record<string, string> {
  return {
    NOTIFORM_API_KEY: keys.development,
    NOTIFORM_API_KEY_DEVELOPMENT: keys.development,
    NOTIFORM_API_KEY_PRODUCTION: keys.production,
  };
}

/**
 * The start of a config whose two environments read their keys from the per-environment variables
 * (NOTIFORM_API_KEY_DEVELOPMENT, NOTIFORM_API_KEY_PRODUCTION): version, organization, environments.
 * With `apiUrl` (a recipe's config, run without --api-url), each environment names the server and
 * the server environment its key must reach.
 */
export function twoEnvironmentsConfig(organization: string, apiUrl?: string): string {
  const environment = (name: string, server: string) =>
    apiUrl === undefined
      ? `  ${name}:\n    apiKeyEnv: NOTIFORM_API_KEY_${name.toUpperCase()}\n`
      : `  ${name}:\n    apiUrl: ${apiUrl}\n    apiKeyEnv: NOTIFORM_API_KEY_${name.toUpperCase()}\n    serverEnvironment: ${server}\n`;
  return `version: 1
organization: ${organization}
environments:
${environment("development", "Development")}${environment("production", "Production")}`;
}

/** A fresh organization with a Development and a Production key, and what a test needs of it. */
export interface TwoEnvironments {
  keys: SeedKeys;
  /** The config's start (twoEnvironmentsConfig): the kinds follow. */
  header: string;
  /** For cliTest: no seed file, the real flavor, the two keys, only the per-environment variables. */
  options: Pick<CliTestOptions, "seedFile" | "flavor" | "seed" | "env">;
}

/**
 * A fresh organization (what the server holds on sign-up, nothing of examples/) named
 * `organization`, reached through the two environments' own variables, no default key:
 *
 *   const FRESH = twoEnvironments("Fresh Inc");
 *   const CONFIG = `${FRESH.header}workflows: ...`;
 *   const { cli } = await cliTest({ ...FRESH.options, config: CONFIG });
 */
export function twoEnvironments(organization: string): TwoEnvironments {
  const keys = { development: "nf_dev_fresh_key", production: "nf_prod_fresh_key" };
  return {
    keys,
    header: twoEnvironmentsConfig(organization),
    options: {
      seedFile: null,
      flavor: "real",
      seed: {
        organization: { name: organization },
        apiKeys: [
          { key: keys.development, environment: "development" },
          { key: keys.production, environment: "production" },
        ],
      },
      env: () => ({
        NOTIFORM_API_KEY_DEVELOPMENT: keys.development,
        NOTIFORM_API_KEY_PRODUCTION: keys.production,
      }),
    },
  };
}

export interface CliTestOptions extends Omit<EmulatorOptions, "port" | "seedFile"> {
  /** notiform.yaml's text (shorthand for files["notiform.yaml"]). */
  config?: string;
  /** The config folder: path -> text. */
  files?: Record<string, string>;
  /** The seed file; null: none (a `seed` alone, e.g. a fresh organization). Default SEED. */
  seedFile?: string | null;
  /** The variables the CLI sees beside PATH, HOME and NO_COLOR (default: defaultKeys). */
  env?: (keys: SeedKeys) => Record<string, string | undefined>;
}

export interface RunOptions {
  /** Variables added to (or, undefined, removed from) the test's environment for this run. */
  env?: Record<string, string | undefined>;
  input?: string;
  onSpawn?: CliOptions["onSpawn"];
  /** Another API URL than the emulator's; null: no --api-url (validate, resolve: offline commands). */
  url?: string | null;
  /** Another folder than the test's config folder. */
  cwd?: string;
}

export interface CliTest {
  emulator: EmulatorHandle;
  workspace: Workspace;
  /** The environment every run gets (keys included). */
  env: Record<string, string | undefined>;
  /** notiform ARGS in the config folder against the emulator (`--api-url` added). */
  cli(...args: string[]): Promise<CliResult>;
  /** The same with more say over the run. */
  run(args: string[], options?: RunOptions): Promise<CliResult>;
  /** notiform ARGS on a pseudo-terminal (a person at a terminal: prompts, progress, Ctrl-C). */
  onTerminal(args: string[], options?: Pick<RunOptions, "env" | "url">): PtyRun;
  /**
   * notiform ARGS --output json: the parsed stdout (checked against the published schema when
   * `schema` is given) with the run's result; fails the test, with stderr, when stdout is not JSON.
   */
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies by path
  json(args: string[], options?: RunOptions & { schema?: SchemaName }): Promise<CliResult & { value: any }>;
  /** The server as the dashboard (or a script) uses it: one request with a key (default Development's). */
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies by path
  call(method: string, path: string, body?: unknown, key?: string): Promise<any>;
  /** Stops the emulator and removes the config folder. */
  close(): Promise<void>;
}

export async function startCliTest(options: CliTestOptions = {}): Promise<CliTest> {
  const { config, files, seedFile, env: envOf, ...emulatorOptions } = options;
  const emulator = await startEmulator({
    ...emulatorOptions,
    ...(seedFile === null ? {} : { seedFile: seedFile ?? SEED }),
    port: 0,
  });
  const workspace = await createWorkspace({
    ...(config === undefined ? {} : { "notiform.yaml": config }),
    ...files,
  });
  const keys = { development: emulator.apiKey, production: emulator.productionApiKey ?? "" };
  const env = (envOf ?? defaultKeys)(keys);
  const urlArgs = (url: string | null | undefined) =>
    url === null ? [] : ["--api-url", url ?? emulator.url];
  const run = (args: string[], more: RunOptions = {}) =>
    runCli([...args, ...urlArgs(more.url)], {
      cwd: more.cwd ?? workspace.dir,
      env: { ...env, ...more.env },
      ...(more.input === undefined ? {} : { input: more.input }),
      ...(more.onSpawn === undefined ? {} : { onSpawn: more.onSpawn }),
    });
  const terminals: PtyRun[] = [];
  const onTerminal: CliTest["onTerminal"] = (args, more = {}) => {
    const merged: Record<string, string> = {};
    for (const [name, value] of Object.entries({ ...env, ...more.env }))
      if (value !== undefined) merged[name] = value;
    const pty = runOnPty([...args, ...urlArgs(more.url)], {
      cwd: workspace.dir,
      env: merged,
    });
    terminals.push(pty);
    return pty;
  };
  const json: CliTest["json"] = async (args, more = {}) => {
    const result = await run([...args, "--output", "json"], more);
    let value: unknown;
    try {
      value = JSON.parse(result.stdout);
    } catch {
      expect.fail(`notiform ${args.join(" ")} printed no JSON (exit ${result.code}): ${result.stderr}`);
    }
    if (more.schema !== undefined) {
      const validate = validatorOf(more.schema);
      expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
    }
    return { ...result, value };
  };
  const call: CliTest["call"] = async (method, path, body, key = emulator.apiKey) => {
    const response = await fetch(`${emulator.url}${path}`, {
      method,
      headers: { authorization: `ApiKey ${key}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return response.json();
  };
  return {
    emulator,
    workspace,
    env,
    cli: (...args) => run(args),
    run,
    onTerminal,
    json,
    call,
    close: async () => {
      for (const pty of terminals) pty.child.stdin?.end();
      await emulator.close();
      await workspace.remove();
    },
  };
}

/**
 * Registers an afterEach that closes every CLI test started in the test that just ran, and
 * returns the function that starts them. Call it once at the top of a test file.
 */
export function cliTests(): (options?: CliTestOptions) => Promise<CliTest> {
  const started: CliTest[] = [];
  afterEach(async () => {
    const closing = started.splice(0);
    await Promise.all(closing.map((test) => test.close()));
  });
  return async (options) => {
    const test = await startCliTest(options);
    started.push(test);
    return test;
  };
}
