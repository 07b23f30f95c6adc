// What the shape check (shapes.ts) found, shown at run time: an apply that refuses an uncertain
// create reports the action with op "uncertain", and that `--output json` follows
// schemas/apply-result.schema.json (it did not while the schema left "uncertain" out).
import { afterEach, describe, expect, it } from "vitest";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";
import { validatorOf } from "../../src/schemas.js";
import { createWorkspace, runCli } from "../support/cli.js";

let emulator: EmulatorHandle | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

describe("apply --output json", () => {
  it("reports a refused uncertain create as the apply-result schema describes", async () => {
    emulator = await startEmulator({ seedFile: "examples/emulator-seed.yaml", port: 0, strictSpec: true });
    const handle = emulator;
    const workspace = await createWorkspace({
      "notiform.yaml":
        "version: 1\norganization: Acme Inc\nnotificationGroups:\n  - { key: g0, name: Group 0 }\n",
    });
    const cli = (...args: string[]) =>
      runCli([...args, "--api-url", handle.url], {
        cwd: workspace.dir,
        env: { NOTIFORM_API_KEY: handle.apiKey },
      });
    // The create's answer is lost and a spec-only server cannot list groups: it stays uncertain.
    handle.injectFault({ method: "POST", path: "/v1/notification-groups", kind: "lost-response" });
    expect((await cli("apply", "--auto-approve")).code).toBe(1);

    const refused = await cli("apply", "--auto-approve", "--output", "json");
    expect(refused.code).toBe(1);
    const report = JSON.parse(refused.stdout);
    const validate = validatorOf("apply-result");
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(report.results).toEqual([
      expect.objectContaining({
        id: "notificationGroup/g0",
        op: "uncertain",
        status: "failed",
        error: expect.objectContaining({ code: "CREATE_UNCERTAIN" }),
      }),
    ]);
  });
});
