// `promote --output markdown` previews without --auto-approve (issue 26): exit 2 while changes are
// pending, 0 when none, nothing promoted; and each workflow shows what Production will receive as
// a diff against Production's current record (read with the Production environment's key), not
// the change's ids or its whole content. As processes against the emulator over HTTP.
import { describe, expect, it } from "vitest";
import type { EmulatorHandle } from "../../src/emulator/index.js";
import { cliTests, twoEnvironmentsConfig, WORKFLOW_SHIPPED } from "../support/cli.js";

const config = (name: string) => `${twoEnvironmentsConfig("Acme Inc")}workflows:
  - key: order-shipped
    id: ${WORKFLOW_SHIPPED}
    name: ${name}
    active: false
`;

const cliTest = cliTests();

async function setup() {
  const test = await cliTest({ config: config("Order shipped v2") });
  return { ...test, handle: test.emulator, cli: (args: string[]) => test.run(args) };
}

const promotions = (handle: EmulatorHandle) =>
  handle.requests.filter((r) => r.method === "POST" && r.path.startsWith("/v1/changes"));

describe("promote --output markdown", () => {
  it("previews without --auto-approve: exit 2 while changes are pending, 0 once none are, promoting nothing", async () => {
    const { handle, cli, call } = await setup();
    expect((await cli(["apply", "--env", "development", "--auto-approve"])).code).toBe(0);
    handle.clearRequests();
    const preview = await cli(["promote", "--env", "development", "--output", "markdown"]);
    expect(preview.code, preview.stderr).toBe(2);
    expect(preview.stdout).toContain("<!-- notiform-promote -->");
    expect(promotions(handle)).toEqual([]);
    // Field-level, against Production's current record: its name and status, old -> new.
    expect(preview.stdout).toContain('`name: "Order shipped" -> "Order shipped v2"`');
    expect(preview.stdout).toContain("`active: true -> false`");
    // Not the change's ids.
    const pending = await call("GET", "/v1/changes?promoted=false&page=0&limit=100");
    const ids = (pending as { data: { _id: string }[] }).data.map((c) => c._id);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(preview.stdout).not.toContain(id);

    expect((await cli(["promote", "--env", "development", "--auto-approve"])).code).toBe(0);
    const none = await cli(["promote", "--env", "development", "--output", "markdown"]);
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toContain("Nothing to promote");
  });

  it("shows only what differs from Production: a later edit is one field, not the whole workflow", async () => {
    const { handle, workspace, cli, json } = await setup();
    expect((await cli(["apply", "--env", "development", "--auto-approve"])).code).toBe(0);
    expect((await cli(["promote", "--env", "development", "--auto-approve"])).code).toBe(0);
    await workspace.write("notiform.yaml", config("Order shipped v3"));
    expect((await cli(["apply", "--env", "development", "--auto-approve"])).code).toBe(0);
    handle.clearRequests();
    const preview = await json(["promote", "--env", "development", "--detailed-exitcode"], {
      schema: "promotion",
    });
    expect(preview.code, preview.stderr).toBe(2);
    const promotion = preview.value;
    const workflow = promotion.entries.find((e: { kind: string }) => e.kind === "workflow");
    expect(workflow.diff).toEqual([{ field: "name", old: "Order shipped v2", new: "Order shipped v3" }]);
    const text = await cli(["promote", "--env", "development", "--detailed-exitcode"]);
    expect(text.stdout).toContain('name: "Order shipped v2" -> "Order shipped v3"');
    expect(text.stdout).not.toContain("active:");
    expect(promotions(handle)).toEqual([]);
  });

  it("without the Production key, says Production was not read and lists the changes' fields", async () => {
    const { cli, run } = await setup();
    expect((await cli(["apply", "--env", "development", "--auto-approve"])).code).toBe(0);
    const withoutProduction = { env: { NOTIFORM_API_KEY_PRODUCTION: undefined } };
    const preview = await run(["promote", "--env", "development", "--output", "markdown"], withoutProduction);
    expect(preview.code, preview.stderr).toBe(2);
    expect(preview.stdout).toContain("> warning: Production was not read");
    expect(preview.stdout).toContain("active: false");
    const text = await run(["promote", "--env", "development", "--detailed-exitcode"], withoutProduction);
    expect(text.stdout).toContain(
      "Production was not read (NOTIFORM_API_KEY_PRODUCTION, the production environment's key, is not set)",
    );
  });

  it("when production reads the key from Development's variable (an export run twice with one variable), says to give it its own", async () => {
    const { cli, run, workspace } = await setup();
    expect((await cli(["apply", "--env", "development", "--auto-approve"])).code).toBe(0);
    const shared = config("Order shipped v2").replace(
      "apiKeyEnv: NOTIFORM_API_KEY_PRODUCTION",
      "apiKeyEnv: NOTIFORM_API_KEY_DEVELOPMENT",
    );
    expect(shared).not.toContain("NOTIFORM_API_KEY_PRODUCTION");
    await workspace.write("notiform.yaml", shared);
    const preview = await run(["promote", "--env", "development", "--detailed-exitcode"]);
    expect(preview.code, preview.stderr).toBe(2);
    expect(preview.stdout).toContain(
      "Production was not read (the production environment reads its key from NOTIFORM_API_KEY_DEVELOPMENT, as this run does, and it reaches Development; give production a variable of its own (apiKeyEnv: NOTIFORM_API_KEY_PRODUCTION) and set it to the Production key)",
    );
  });
});
