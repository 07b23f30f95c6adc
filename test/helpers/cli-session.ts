// One emulator seeded from examples/emulator-seed.yaml, a workspace holding `config`, and a `cli`
// that runs notiform there against that emulator with its development key. The caller closes the
// emulator (usually in afterEach).
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";
import { type CliResult, runCli } from "./cli.js";
import { createWorkspace, type Workspace } from "./workspace.js";

export const SEED = "examples/emulator-seed.yaml";

export interface CliSession {
  emulator: EmulatorHandle;
  workspace: Workspace;
  cli: (...args: string[]) => Promise<CliResult>;
}

export async function startCliSession(
  config: string,
  options: { strictSpec?: boolean } = {},
): Promise<CliSession> {
  const emulator = await startEmulator({
    seedFile: SEED,
    port: 0,
    ...(options.strictSpec ? { strictSpec: true } : {}),
  });
  const workspace = await createWorkspace({ "notiform.yaml": config });
  const env = { NOTIFORM_API_KEY: emulator.apiKey };
  const cli = (...args: string[]) =>
    runCli([...args, "--api-url", emulator.url], { cwd: workspace.dir, env });
  return { emulator, workspace, cli };
}
