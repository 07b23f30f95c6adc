// Secret hygiene: every command, with --verbose, run with a recognizable API key against an
// emulator whose organization holds a partner access token. Neither may appear in stdout,
// stderr, the saved plan, the state file or the exported files.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmulatorHandle, loadSeedFile, startEmulator } from "../../src/emulator/index.js";
import {
  type CliResult,
  createWorkspace,
  runCli,
  TENANT_1,
  WORKFLOW_SHIPPED,
  type Workspace,
} from "../support/cli.js";

const API_KEY = "nf_SECRET_key_7f3a9c1e5b";
const ACCESS_TOKEN = "pat_SECRET_token_c0ffee4242";
const SECRETS = [API_KEY, ACCESS_TOKEN];

const CONFIG = `version: 1
organization: Acme Inc
topics:
  - key: order-updates
    name: Order updates
notificationGroups:
  - key: billing
    name: Billing
workflows:
  - key: order-shipped
    id: ${WORKFLOW_SHIPPED}
    name: Order shipped
    notificationGroup: billing
    active: true
overrides:
  - workflow: order-shipped
    tenant: ${TENANT_1}
    active: true
`;

let emulator: EmulatorHandle;
let workspace: Workspace;
const outputs: { command: string; result: CliResult }[] = [];

beforeAll(async () => {
  const seed = await loadSeedFile("examples/emulator-seed.yaml");
  seed.apiKeys = [{ key: API_KEY, environment: "development" }];
  seed.organization = {
    name: "Acme Inc",
    partnerConfigurations: [
      { projectIds: ["p1"], accessToken: ACCESS_TOKEN, configurationId: "cfg1", partnerType: "vercel" },
    ],
  };
  emulator = await startEmulator({ seed, port: 0 });
  workspace = await createWorkspace({ "notiform.yaml": CONFIG });
  const env = { NOTIFORM_API_KEY: API_KEY };
  const commands = [
    ["validate"],
    ["whoami"],
    ["plan", "--output", "text"],
    ["plan", "--output", "json", "--out", "plan.json"],
    ["plan", "--output", "markdown"],
    ["apply", "plan.json"],
    ["apply", "--auto-approve", "--output", "json"],
    ["export", "--dir", "exported"],
    ["plan", "--api-url", "http://127.0.0.1:9"],
  ];
  for (const command of commands) {
    // validate is offline: it takes no --api-url (each command accepts only its own flags).
    const offline = command.includes("--api-url") || command[0] === "validate";
    const args = offline ? command : [...command, "--api-url", emulator.url];
    outputs.push({
      command: command.join(" "),
      result: await runCli([...args, "--verbose"], { cwd: workspace.dir, env }),
    });
  }
});

afterAll(async () => {
  await emulator?.close();
});

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe("secret hygiene", () => {
  it("ran every command (the checks below are not vacuous)", () => {
    const byCommand = Object.fromEntries(outputs.map((o) => [o.command, o.result.code]));
    expect(byCommand).toMatchObject({
      validate: 0,
      whoami: 0,
      "plan --output text": 0,
      "apply plan.json": 0,
      "apply --auto-approve --output json": 0,
      "export --dir exported": 0,
    });
    expect(outputs.find((o) => o.command === "whoami")?.result.stdout).toContain("Acme Inc");
  });

  it("never prints the API key or the partner access token", () => {
    for (const { command, result } of outputs) {
      for (const secret of SECRETS) {
        expect(result.stdout, `stdout of ${command}`).not.toContain(secret);
        expect(result.stderr, `stderr of ${command}`).not.toContain(secret);
      }
    }
  });

  it("never writes them to the plan, the state file or the exported files", async () => {
    const files = await filesUnder(workspace.dir);
    expect(files.some((f) => f.endsWith("plan.json"))).toBe(true);
    expect(files.some((f) => f.endsWith("notiform.state.json"))).toBe(true);
    expect(files.some((f) => f.includes("exported"))).toBe(true);
    for (const file of files) {
      const text = await readFile(file, "utf8");
      for (const secret of SECRETS) expect(text, file).not.toContain(secret);
    }
  });
});
