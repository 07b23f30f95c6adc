// `notiform promote` as a process against the emulator (real flavor, both environments): apply a
// config in Development, preview exactly the managed pending changes, promote them, and a
// Production-key plan then shows no change for them; unmanaged changes stay pending. Also: saved
// promotions (stale ones refused), refusals (Production key, spec-only server, no TTY).
import { readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { cliTests, twoEnvironmentsConfig, WORKFLOW_SHIPPED } from "../support/cli.js";

const WEEKLY_DIGEST = "64f1c0ffee0000000000a003";

const CONFIG = `${twoEnvironmentsConfig("Acme Inc")}    include: [env/production/*.yaml]
notificationGroups:
  - key: billing
    name: Billing
workflows:
  - key: order-shipped
    id: ${WORKFLOW_SHIPPED}
    name: Order shipped v2
    notificationGroup: billing
    active: false
    tags: [orders]
`;

const cliTest = cliTests();

function schema(name: string) {
  const ajv = new Ajv2020({ strict: false });
  return ajv.compile(
    JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "schemas", name), "utf8")),
  );
}

async function setup(options: { strictSpec?: boolean } = {}) {
  const test = await cliTest({ config: CONFIG, ...options });
  const { call } = test;
  const pending = async (): Promise<{ _id: string; _entityId: string; type: string }[]> =>
    (await call("GET", "/v1/changes?promoted=false&page=0&limit=100")).data;
  // An organization that has promoted before: the fresh one's DefaultLayout change is promoted
  // (a spec-only server has no changes to promote).
  if (options.strictSpec !== true) {
    const fresh = await pending();
    expect(fresh.map((c) => c.type)).toEqual(["DefaultLayout"]);
    await call("POST", "/v1/changes/bulk/apply", { changeIds: fresh.map((c) => c._id) });
  }
  return { ...test, handle: test.emulator, pending };
}

/** Apply in Development, then edit a workflow the config does not manage (an unmanaged change). */
async function developmentAhead(session: Awaited<ReturnType<typeof setup>>) {
  const applied = await session.cli("apply", "--env", "development", "--auto-approve");
  expect(applied.code, applied.stderr).toBe(0);
  await session.call("PUT", `/v1/workflows/${WEEKLY_DIGEST}`, { name: "Weekly digest (edited by hand)" });
}

describe("notiform promote", () => {
  it("previews exactly the managed changes, promotes them, after which Production plans no change", async () => {
    const session = await setup();
    const { cli, call, pending, workspace, handle } = session;
    await developmentAhead(session);
    const groupId = JSON.parse(await workspace.read("notiform.development.state.json")).notificationGroups
      .billing.id as string;

    const preview = await cli("promote", "--env", "development", "--detailed-exitcode");
    expect(preview.code, preview.stderr).toBe(2);
    expect(preview.stdout).toContain("2 changes to promote from Development to Production.");
    expect(preview.stdout).toContain("^ notification group billing");
    expect(preview.stdout).toContain("^ workflow order-shipped");
    // The workflow as a diff against Production's current copy (the group by name).
    expect(preview.stdout).toContain("active: true -> false");
    expect(preview.stdout).toContain('notificationGroup: "General" -> "Billing"');
    expect(preview.stdout).toContain('tags: [] -> ["orders"]');
    expect(preview.stdout).toContain("Unmanaged pending changes (not promoted): 1");
    expect(preview.stdout).toContain('"Weekly digest (edited by hand)"');

    const json = await cli("promote", "--env", "development", "--detailed-exitcode", "--output", "json");
    const promotion = JSON.parse(json.stdout);
    expect(schema("promotion.schema.json")(promotion)).toBe(true);
    expect(
      promotion.entries.map((e: { kind: string; key: string; entityId: string }) => [
        e.kind,
        e.key,
        e.entityId,
      ]),
    ).toEqual([
      ["notificationGroup", "billing", groupId],
      ["workflow", "order-shipped", WORKFLOW_SHIPPED],
    ]);
    expect(promotion.entries[1].identifier).toBe("order-shipped");
    expect(promotion.unmanaged.map((e: { entityId: string }) => e.entityId)).toEqual([WEEKLY_DIGEST]);

    // Before promotion Production is behind: its plan (overlay naming the Production copy the seed
    // linked to the Development workflow) shows the group and the workflow arriving by promotion
    // (not applicable there, so not counted as changes), so the empty plan below is not vacuous.
    const productionCopy = async () => {
      const listed = await call("GET", "/v1/workflows?page=0&limit=100", undefined, handle.productionApiKey);
      const all = listed.data as { _id: string; _parentId?: string; name: string; active: boolean }[];
      return all.find((w) => w._parentId === WORKFLOW_SHIPPED);
    };
    const overlay = async (id: string | undefined) =>
      workspace.write("env/production/workflows.yaml", `workflows:\n  - key: order-shipped\n    id: ${id}\n`);
    await overlay((await productionCopy())?._id);
    const behind = await cli("plan", "--env", "production", "--detailed-exitcode", "--output", "json");
    expect(behind.code, behind.stderr).toBe(0);
    const waiting = (JSON.parse(behind.stdout).actions as { id: string; op: string; reason?: string }[])
      .filter((a) => a.op === "not-applicable" && a.reason?.includes("arrives by promotion"))
      .map((a) => a.id);
    expect(waiting).toEqual(["notificationGroup/billing", "workflow/order-shipped"]);

    handle.clearRequests();
    const promoted = await cli("promote", "--env", "development", "--auto-approve");
    expect(promoted.code, promoted.stderr).toBe(0);
    expect(promoted.stdout).toContain(
      "Promotion complete: 2 promoted, 0 already promoted, 0 failed, 0 skipped.",
    );
    expect(promoted.stderr).toContain("promoted: workflow order-shipped");
    // Groups before the workflows that use them; only the changes shown were sent.
    const applies = handle.requests.filter((r) => r.method === "POST").map((r) => r.path);
    const groupChange = promotion.entries[0].changeId;
    const workflowChange = promotion.entries[1].changeId;
    expect(applies).toEqual([`/v1/changes/${groupChange}/apply`, `/v1/changes/${workflowChange}/apply`]);

    // Production's ids are its own: the overlay names the Production workflow promotion wrote.
    const copy = await productionCopy();
    expect(copy).toMatchObject({ name: "Order shipped v2", active: false });
    await overlay(copy?._id);
    const plan = await cli("plan", "--env", "production", "--detailed-exitcode");
    expect(plan.stdout, plan.stderr).toContain("No changes.");
    expect(plan.stdout).not.toContain("arrives by promotion");
    expect(plan.code).toBe(0);

    const after = await cli("promote", "--env", "development", "--detailed-exitcode");
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toContain("Nothing to promote");
    // The unmanaged change stays pending.
    expect((await pending()).map((c) => c._entityId)).toEqual([WEEKLY_DIGEST]);
  });

  it("promotes the unmanaged changes too with --all", async () => {
    const session = await setup();
    await developmentAhead(session);
    const result = await session.cli(
      "promote",
      "--env",
      "development",
      "--all",
      "--auto-approve",
      "-o",
      "json",
    );
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(schema("promotion-result.schema.json")(report)).toBe(true);
    expect(report.counts).toEqual({ applied: 3, alreadyPromoted: 0, failed: 0, skipped: 0 });
    expect(await session.pending()).toEqual([]);
  });

  it("renders a markdown preview for a pull request or job summary", async () => {
    const session = await setup();
    await developmentAhead(session);
    const result = await session.cli(
      "promote",
      "--env",
      "development",
      "--detailed-exitcode",
      "-o",
      "markdown",
    );
    expect(result.code).toBe(2);
    expect(result.stdout).toContain(
      "### notiform promote · `Acme Inc` · environment `development` → Production",
    );
    expect(result.stdout).toContain('| `notification group billing` | `name: "Billing"` |');
    expect(result.stdout).toContain(
      '| `workflow order-shipped` | `active: true -> false`<br>`name: "Order shipped" -> "Order shipped v2"`<br>`notificationGroup: "General" -> "Billing"`<br>`tags: [] -> ["orders"]` |',
    );
    expect(result.stdout).toContain("1 unmanaged pending change (not promoted)");
  });

  it("saves a promotion and promotes exactly it; a moved change makes it stale and nothing is promoted", async () => {
    const session = await setup();
    const { cli, call, pending } = session;
    await developmentAhead(session);
    const saved = await cli("promote", "--env", "development", "--out", "promotion.json");
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.stderr).toContain("Saved the promotion to promotion.json");
    expect(await pending()).toHaveLength(3);

    await call("PUT", `/v1/workflows/${WORKFLOW_SHIPPED}`, { name: "Edited after review" });
    const stale = await cli("promote", "promotion.json", "--env", "development");
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain("the saved promotion is stale, nothing was promoted");
    expect(stale.stderr).toContain("workflow order-shipped");
    expect(await pending()).toHaveLength(3);

    const again = await cli("promote", "--env", "development", "--out", "promotion.json");
    expect(again.code).toBe(0);
    const applied = await cli("promote", "promotion.json", "--env", "development");
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain("2 promoted");
    expect((await pending()).map((c) => c._entityId)).toEqual([WEEKLY_DIGEST]);

    // Run again (a CI job retried): everything in it is already promoted, and nothing is sent.
    const rerun = await cli("promote", "promotion.json", "--env", "development");
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stdout).toContain("0 promoted, 2 already promoted, 0 failed");

    // A saved plan given by mistake is named as one, not as a promotion of another version.
    expect((await cli("plan", "--env", "development", "--out", "plan.json")).code).toBe(0);
    const plan = await cli("promote", "plan.json", "--env", "development");
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain("plan.json is not a notiform promotion: it looks like a saved plan");
  });

  it("refuses an edited promotion that slips in an unmanaged change, however the file labels it", async () => {
    const session = await setup();
    const { cli, pending, workspace } = session;
    await developmentAhead(session);
    expect((await cli("promote", "--env", "development", "--out", "promotion.json")).code).toBe(0);
    const saved = JSON.parse(await workspace.read("promotion.json"));
    const unmanaged = saved.unmanaged[0];
    const managedWorkflow = saved.entries.find((e: { kind: string }) => e.kind === "workflow");
    // Moved into the entries and marked managed: refused against the config's managed set.
    await workspace.write(
      "edited.json",
      JSON.stringify({
        ...saved,
        entries: [...saved.entries, { ...unmanaged, managed: true }],
        unmanaged: [],
      }),
    );
    const edited = await cli("promote", "edited.json", "--env", "development", "--auto-approve");
    expect(edited.code).toBe(1);
    expect(edited.stderr).toContain("carries a change the config does not manage");
    expect(edited.stderr).toContain(unmanaged.changeId);
    // Disguised as a managed workflow's entity: the change's own entity decides, so it is stale.
    await workspace.write(
      "disguised.json",
      JSON.stringify({
        ...saved,
        entries: [...saved.entries, { ...unmanaged, managed: true, entityId: managedWorkflow.entityId }],
        unmanaged: [],
      }),
    );
    const disguised = await cli("promote", "disguised.json", "--env", "development", "--auto-approve");
    expect(disguised.code).toBe(1);
    expect(disguised.stderr).toContain("nothing was promoted");
    expect(await pending()).toHaveLength(3);
  });

  it("reports a change promoted since the promotion was saved as already promoted", async () => {
    const session = await setup();
    const { cli, call } = session;
    await developmentAhead(session);
    await cli("promote", "--env", "development", "--out", "promotion.json");
    const file = JSON.parse(await session.workspace.read("promotion.json"));
    // Someone promotes the group in the dashboard meanwhile.
    await call("POST", `/v1/changes/${file.entries[0].changeId}/apply`);
    const result = await cli("promote", "promotion.json", "--env", "development");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("1 promoted, 1 already promoted, 0 failed");
    expect(result.stdout).toContain("notification group billing: promoted since the promotion was saved");
  });

  it("refuses to promote without a terminal to confirm, and promotes nothing", async () => {
    const session = await setup();
    await developmentAhead(session);
    const result = await session.cli("promote", "--env", "development");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("refusing to promote without confirmation");
    expect(await session.pending()).toHaveLength(3);
  });

  it("refuses a Production key with a hint to use the Development key", async () => {
    const session = await setup();
    const result = await session.cli("promote", "--env", "production");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("this key reaches Production");
    expect(result.stderr).toContain("hint: Run promote with the Development key");
  });

  it("says in one line that a spec-only server has no promotion", async () => {
    const session = await setup({ strictSpec: true });
    const result = await session.cli("promote", "--env", "development", "--detailed-exitcode");
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toEqual([
      "error: this server has no promotion (no environments or changes routes: it serves the spec alone); nothing to promote",
    ]);
  });

  it("masks a value that came from the environment in the preview and the saved file", async () => {
    const session = await setup();
    const secret = "s3cr3t-suffix-4711";
    await session.workspace.write(
      "notiform.yaml",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own ${VAR} interpolation
      CONFIG.replace("Order shipped v2", "Order shipped ${SUFFIX}"),
    );
    const run = (...args: string[]) =>
      session.run([...args, "--env", "development"], { env: { SUFFIX: secret } });
    const applied = await run("apply", "--auto-approve");
    expect(applied.code, applied.stderr).toBe(0);
    const preview = await run("promote", "--out", "promotion.json", "-o", "json");
    expect(preview.code, preview.stderr).toBe(0);
    expect(preview.stdout).toContain("Order shipped ********");
    expect(preview.stdout + preview.stderr).not.toContain(secret);
    expect(await session.workspace.read("promotion.json")).not.toContain(secret);
    // The masked file still promotes: its digests were made from the same masked values.
    const promoted = await run("promote", "promotion.json");
    expect(promoted.code, promoted.stderr).toBe(0);
    expect(promoted.stdout).toContain("2 promoted");
  });

  it.each([
    ["yes", 0, "yes\r", "Promotion complete: 2 promoted"],
    ["Ctrl-C", 130, "\x03", "Aborted; nothing was applied"],
  ])("asks on a terminal: %s exits %i", async (_name, code, keys, says) => {
    const session = await setup();
    await developmentAhead(session);
    const pty = session.onTerminal(["promote", "--env", "development"]);
    const timer = setInterval(() => {
      if (!pty.output().includes("Only 'yes' is accepted")) return;
      clearInterval(timer);
      pty.type(keys);
    }, 5);
    void pty.exited.then(() => clearInterval(timer));
    expect(await pty.exited).toBe(code);
    expect(pty.output()).toContain(says);
    expect(await session.pending()).toHaveLength(code === 0 ? 1 : 3);
  });

  it("warns, and leaves the group unmanaged, when the state file has no Development id for a config group", async () => {
    const session = await setup();
    await developmentAhead(session);
    await rm(session.workspace.path("notiform.development.state.json"));
    const result = await session.cli("promote", "--env", "development", "--detailed-exitcode");
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toContain("1 change to promote");
    expect(result.stdout).toContain("Unmanaged pending changes (not promoted): 2");
    expect(result.stdout).toContain(
      "notification group billing: the state file has no Development id for it (apply in Development first)",
    );
  });

  it("refuses flag combinations that would promote something other than what was previewed", async () => {
    const session = await setup();
    await developmentAhead(session);
    for (const args of [
      ["--auto-approve", "--detailed-exitcode"],
      ["--auto-approve", "--out", "p.json"],
      ["--target", "workflow/order-shipped", "--auto-approve"],
      ["p.json", "--all"],
    ]) {
      const result = await session.cli("promote", "--env", "development", ...args);
      expect(result.code, args.join(" ")).toBe(1);
      expect(result.stderr).toMatch(/^error: /);
    }
    expect(await session.pending()).toHaveLength(3);
  });

  it.each([
    ["the workflow's", 3, 1, "1 promoted, 0 already promoted, 1 failed, 0 skipped"],
    ["the group's", 1, 0, "0 promoted, 0 already promoted, 1 failed, 1 skipped"],
  ])("when %s promotion fails: exit %i", async (_name, code, failing, counts) => {
    const session = await setup();
    await developmentAhead(session);
    const preview = await session.cli("promote", "--env", "development", "--out", "p.json");
    expect(preview.code, preview.stderr).toBe(0);
    const entries = JSON.parse(await session.workspace.read("p.json")).entries as { changeId: string }[];
    const inject = {
      method: "POST",
      path: `/v1/changes/${entries[failing]?.changeId}/apply`,
      times: 1,
      kind: { status: 400, body: { statusCode: 400, message: "Injected refusal", error: "Bad Request" } },
    };
    await session.call("POST", "/__emulator/faults", { inject });
    const result = await session.cli("promote", "p.json", "--env", "development");
    expect(result.code, result.stderr).toBe(code);
    expect(result.stdout).toContain(counts);
    expect(result.stdout).toContain("Injected refusal");
    if (failing === 0)
      expect(result.stdout).toContain("workflow order-shipped: its notification group failed to promote");
  });
});
