// What the shape check (shapes.ts) found, shown at run time: an apply that refuses an uncertain
// create reports the action with op "uncertain", and that `--output json` follows
// schemas/apply-result.schema.json (it did not while the schema left "uncertain" out).
import { describe, expect, it } from "vitest";
import { cliTests } from "../support/cli.js";

const cliTest = cliTests();

describe("apply --output json", () => {
  it("reports a refused uncertain create as the apply-result schema describes", async () => {
    const {
      emulator: handle,
      cli,
      json,
    } = await cliTest({
      strictSpec: true,
      config: "version: 1\norganization: Acme Inc\nnotificationGroups:\n  - { key: g0, name: Group 0 }\n",
    });
    // The create's answer is lost and a spec-only server cannot list groups: it stays uncertain.
    handle.injectFault({ method: "POST", path: "/v1/notification-groups", kind: "lost-response" });
    expect((await cli("apply", "--auto-approve")).code).toBe(3);

    const refused = await json(["apply", "--auto-approve"], { schema: "apply-result" });
    expect(refused.code).toBe(1);
    const report = refused.value;
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
