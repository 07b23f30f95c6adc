// The two ways a change reaches the server, for end-to-end tests that must pass both: directly
// (`apply --auto-approve`, `promote --auto-approve`) and through a reviewed file (`plan --out`
// then `apply FILE`; `promote --out` then `promote FILE`). A bug that lives only on the saved
// path (its reads, its checks) hides from a test that takes only the direct one.
import { expect } from "vitest";
import type { CliResult } from "./cli.js";

export type Way = "direct" | "saved";
export const BOTH_WAYS: readonly Way[] = ["direct", "saved"];

type Cli = (...args: string[]) => Promise<CliResult>;

/** Apply the config (with `args`, e.g. `--env production`) the given way; expects exit 0. */
export async function applyWay(cli: Cli, way: Way, ...args: string[]): Promise<CliResult> {
  if (way === "direct") return expectOk(await cli("apply", ...args, "--auto-approve"));
  const saved = `plan-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}.json`;
  expectOk(await cli("plan", ...args, "--out", saved));
  return expectOk(await cli("apply", saved, ...args));
}

/** Promote Development's managed pending changes the given way; expects exit 0. */
export async function promoteWay(cli: Cli, way: Way, ...args: string[]): Promise<CliResult> {
  if (way === "direct") return expectOk(await cli("promote", ...args, "--auto-approve"));
  const saved = `promotion-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}.json`;
  expectOk(await cli("promote", ...args, "--out", saved));
  return expectOk(await cli("promote", saved, ...args));
}

/** `plan --detailed-exitcode` exits 0: nothing left to do. */
export async function expectPlansToZero(cli: Cli, ...args: string[]): Promise<void> {
  const again = await cli("plan", ...args, "--detailed-exitcode");
  expect(again.code, `plan ${args.join(" ")} after apply:\n${again.stdout}${again.stderr}`).toBe(0);
}

function expectOk(result: CliResult): CliResult {
  expect(result.code, result.stdout + result.stderr).toBe(0);
  return result;
}
