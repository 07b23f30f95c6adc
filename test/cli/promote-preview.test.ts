// `promote --output markdown` previews without --auto-approve (issue 26): exit 2 while changes are
// pending, 0 when none, nothing promoted; and each workflow shows what Production will receive as
// a diff against Production's current record (read with the Production environment's key), not
// the change's ids or its whole content. As processes against the emulator over HTTP.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterEach, describe, expect, it } from "vitest";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";
import { createWorkspace, runCli, SEED, WORKFLOW_SHIPPED, type Workspace } from "../support/cli.js";

const config = (name: string) => `version: 1
organization: Acme Inc
environments:
  development:
    apiKeyEnv: NOTIFORM_API_KEY_DEVELOPMENT
  production:
    apiKeyEnv: NOTIFORM_API_KEY_PRODUCTION
workflows:
  - key: order-shipped
    id: ${WORKFLOW_SHIPPED}
    name: ${name}
    active: false
`;

let emulator: EmulatorHandle | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function setup(): Promise<{ handle: EmulatorHandle; workspace: Workspace; cli: Cli }> {
  emulator = await startEmulator({ seedFile: SEED, port: 0 });
  const handle = emulator;
  const workspace = await createWorkspace({ "notiform.yaml": config("Order shipped v2") });
  const keys = {
    NOTIFORM_API_KEY_DEVELOPMENT: handle.apiKey,
    NOTIFORM_API_KEY_PRODUCTION: handle.productionApiKey ?? "",
  };
  const cli: Cli = (args, env = keys) =>
    runCli([...args, "--api-url", handle.url], { cwd: workspace.dir, env });
  return { handle, workspace, cli };
}
type Cli = (args: string[], env?: Record<string, string>) => ReturnType<typeof runCli>;

const promotions = (handle: EmulatorHandle) =>
  handle.requests.filter((r) => r.method === "POST" && r.path.startsWith("/v1/changes"));

describe("promote --output markdown", () => {
  it("previews without --auto-approve: exit 2 while changes are pending, 0 once none are, promoting nothing", async () => {
    const { handle, cli } = await setup();
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
    const pending = await fetch(`${handle.url}/v1/changes?promoted=false&page=0&limit=100`, {
      headers: { authorization: `ApiKey ${handle.apiKey}` },
    });
    const ids = ((await pending.json()) as { data: { _id: string }[] }).data.map((c) => c._id);
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(preview.stdout).not.toContain(id);

    expect((await cli(["promote", "--env", "development", "--auto-approve"])).code).toBe(0);
    const none = await cli(["promote", "--env", "development", "--output", "markdown"]);
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toContain("Nothing to promote");
  });

  it("shows only what differs from Production: a later edit is one field, not the whole workflow", async () => {
    const { handle, workspace, cli } = await setup();
    expect((await cli(["apply", "--env", "development", "--auto-approve"])).code).toBe(0);
    expect((await cli(["promote", "--env", "development", "--auto-approve"])).code).toBe(0);
    await workspace.write("notiform.yaml", config("Order shipped v3"));
    expect((await cli(["apply", "--env", "development", "--auto-approve"])).code).toBe(0);
    handle.clearRequests();
    const preview = await cli(["promote", "--env", "development", "--output", "json", "--detailed-exitcode"]);
    expect(preview.code, preview.stderr).toBe(2);
    const promotion = JSON.parse(preview.stdout);
    const schema = new Ajv2020({ strict: false }).compile(
      JSON.parse(
        readFileSync(join(import.meta.dirname, "..", "..", "schemas", "promotion.schema.json"), "utf8"),
      ),
    );
    expect(schema(promotion), JSON.stringify(schema.errors)).toBe(true);
    const workflow = promotion.entries.find((e: { kind: string }) => e.kind === "workflow");
    expect(workflow.diff).toEqual([{ field: "name", old: "Order shipped v2", new: "Order shipped v3" }]);
    const text = await cli(["promote", "--env", "development", "--detailed-exitcode"]);
    expect(text.stdout).toContain('name: "Order shipped v2" -> "Order shipped v3"');
    expect(text.stdout).not.toContain("active:");
    expect(promotions(handle)).toEqual([]);
  });

  it("without the Production key, says Production was not read and lists the changes' fields", async () => {
    const { handle, cli } = await setup();
    expect((await cli(["apply", "--env", "development", "--auto-approve"])).code).toBe(0);
    const preview = await cli(["promote", "--env", "development", "--output", "markdown"], {
      NOTIFORM_API_KEY_DEVELOPMENT: handle.apiKey,
    });
    expect(preview.code, preview.stderr).toBe(2);
    expect(preview.stdout).toContain("> warning: Production was not read");
    expect(preview.stdout).toContain("active: false");
    const text = await cli(["promote", "--env", "development", "--detailed-exitcode"], {
      NOTIFORM_API_KEY_DEVELOPMENT: handle.apiKey,
    });
    expect(text.stdout).toContain(
      "Production was not read (NOTIFORM_API_KEY_PRODUCTION, the production environment's key, is not set)",
    );
  });
});
