// A saved promotion run again after it completed (a retried CI job): every change in it is
// reported as already promoted and nothing is sent, including the layout its workflow required
// (the environment's default layout, which the server gives every email step it creates).
import { describe, expect, it } from "vitest";
import { cliTests, twoEnvironments } from "../support/cli.js";

const cliTest = cliTests();
const FRESH = twoEnvironments("Rerun Inc");

const CONFIG = `${FRESH.header}workflows:
  - identifier: receipt
    name: Receipt
    steps:
      - name: email
        type: email
        template:
          subject: "Receipt {{number}}"
          content: "<p>Thanks</p>"
`;

describe("a saved promotion run again", () => {
  it("reports everything as already promoted, sends nothing, exits 0", async () => {
    const { emulator: handle, cli } = await cliTest({ ...FRESH.options, config: CONFIG });
    expect((await cli("apply", "--env", "development", "--auto-approve")).code).toBe(0);
    const saved = await cli("promote", "--env", "development", "--out", "promotion.json", "-o", "json");
    expect(saved.code, saved.stderr).toBe(0);
    const entries = JSON.parse(saved.stdout).entries as { kind: string; identifier?: string }[];
    // The workflow, and the default layout its email step was given: required in Production first.
    expect(entries.map((e) => e.kind).sort()).toEqual(["layout", "workflow"]);

    const first = await cli("promote", "promotion.json", "--env", "development");
    expect(first.code, first.stdout + first.stderr).toBe(0);
    handle.clearRequests();
    const again = await cli("promote", "promotion.json", "--env", "development");
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toContain(`0 promoted, ${entries.length} already promoted, 0 failed`);
    expect(handle.requests.filter((r) => r.method !== "GET")).toEqual([]);
  });
});
