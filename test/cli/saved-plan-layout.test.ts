// Issue 33, item 1, as reported: a saved plan (`plan --out`, then `apply FILE`) of a workflow whose
// email step names a layout, as an export writes it (`layout: novu-default-layout`, a layout the
// config does not declare), failed with "this server does not list layouts" although the list
// read answered 200: the saved path re-read workflows without the layout ids the plan had.
import { describe, expect, it } from "vitest";
import { cliTests, orderShippedByEmail } from "../support/cli.js";

const cliTest = cliTests();

const KEY = "nf_dev_saved_layout";

const config = (subject: string, layout?: string) => `version: 1
organization: Fresh Inc
${orderShippedByEmail({ subject, content: '"<p>It is on its way.</p>"', ...(layout === undefined ? {} : { layout }) })}`;

describe("apply FILE of a workflow whose email step names a layout", () => {
  it("applies the saved plan and plans to zero", async () => {
    const { cli, workspace, emulator } = await cliTest({
      seedFile: null,
      flavor: "real",
      seed: { organization: { name: "Fresh Inc" }, apiKeys: [{ key: KEY, environment: "development" }] },
      config: config("Shipped"),
      env: () => ({ NOTIFORM_API_KEY: KEY }),
    });
    expect((await cli("apply", "--auto-approve")).code).toBe(0);
    await workspace.write("notiform.yaml", config("Your order shipped", "novu-default-layout"));
    const planned = await cli("plan", "--out", "plan.json");
    expect(planned.code, planned.stderr).toBe(0);
    const applied = await cli("apply", "plan.json");
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const workflow = emulator.store("development").workflows[0];
    expect(workflow?.steps[0]?.template?.subject).toBe("Your order shipped");
    const again = await cli("plan", "--detailed-exitcode");
    expect(again.code, again.stdout).toBe(0);
  });
});
