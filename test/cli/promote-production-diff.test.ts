// The promote preview against Production (issue 33, items 3 and 11): a layout edit and a template
// edit read as unified diffs labelled Production -> Development (not live/desired), in text and in
// markdown; and `--detailed-exitcode` exits 0 when Production already has the content of every
// pending change (2 only while Production lacks something). As processes against the emulator
// (real flavor, both environments) of a fresh organization.
import { describe, expect, it } from "vitest";
import { type CliResult, cliTests, orderShippedByEmail, twoEnvironments } from "../support/cli.js";

const cliTest = cliTests();

const FRESH = twoEnvironments("Preview Inc");

const LAYOUT = [
  "<!DOCTYPE html>",
  "<html>",
  "<body>",
  "<main>{{{body}}}</main>",
  "<footer>Acme Inc</footer>",
  "</body>",
  "</html>",
  "",
].join("\n");
const LAYOUT_EDITED = LAYOUT.replace("<footer>Acme Inc</footer>", "<footer>Acme Inc, Berlin</footer>");
const EMAIL = ["<h1>Shipped</h1>", "<p>Order {{orderId}} is on its way.</p>", "<p>Thanks</p>", ""].join("\n");
const EMAIL_EDITED = EMAIL.replace("is on its way.", "is on its way to you.");

const CONFIG = `${FRESH.header}layouts:
  - identifier: brand
    name: Brand
    content: { file: layouts/brand.html }
${orderShippedByEmail({
  subject: "Order {{orderId}} shipped",
  content: "{ file: templates/order-shipped.html }",
  layout: "brand",
})}`;

/** A fresh organization where the config is applied in Development and promoted once. */
async function promotedOnce() {
  const test = await cliTest({
    ...FRESH.options,
    files: {
      "notiform.yaml": CONFIG,
      "layouts/brand.html": LAYOUT,
      "templates/order-shipped.html": EMAIL,
    },
  });
  const { emulator: handle, workspace, cli } = test;
  /** Without the Production key: the preview cannot read Production. */
  const developmentOnly = (...args: string[]) =>
    test.run(args, { env: { NOTIFORM_API_KEY_PRODUCTION: undefined } });
  const applied = await cli("apply", "--env", "development", "--auto-approve");
  expect(applied.code, applied.stderr).toBe(0);
  const promoted = await cli("promote", "--env", "development", "--auto-approve");
  expect(promoted.code, promoted.stderr).toBe(0);
  return { handle, workspace, cli, developmentOnly };
}

/**
 * promotedOnce, then the layout and the template edited and applied together: the workflow's PUT
 * nests the layout's change in its own (as a real server does), listed no more.
 */
async function nestedLayoutEdit() {
  const promoted = await promotedOnce();
  await promoted.workspace.write("layouts/brand.html", LAYOUT_EDITED);
  await promoted.workspace.write("templates/order-shipped.html", EMAIL_EDITED);
  const applied = await promoted.cli("apply", "--env", "development", "--auto-approve");
  expect(applied.code, applied.stderr).toBe(0);
  const productionLayout = () =>
    promoted.handle.store("production").layouts?.find((l) => l.identifier === "brand")?.content;
  /**
   * brand edited again after `--out` (its nested change rewritten, no listed change moves): the
   * saved promotion is refused naming the layout, and Production keeps its brand.
   */
  const refusedAfterReEdit = async (run: (...args: string[]) => Promise<CliResult>, label: string) => {
    await promoted.workspace.write("layouts/brand.html", LAYOUT_EDITED.replace("Berlin", "Hamburg"));
    expect((await promoted.cli("apply", "--env", "development", "--auto-approve")).code).toBe(0);
    const stale = await run("promote", "--env", "development", "promotion.json");
    expect(stale.code, stale.stdout).toBe(1);
    expect(stale.stderr).toContain(
      `the saved promotion is stale, nothing was promoted: ${label} (no change of its own listed) changed in Development since`,
    );
    expect(productionLayout()).toBe(LAYOUT);
  };
  return { ...promoted, productionLayout, refusedAfterReEdit };
}

/** The brand layout's content set in Production by hand, with the Production key. */
async function editInProduction(handle: Awaited<ReturnType<typeof promotedOnce>>["handle"], content: string) {
  const copy = handle.store("production").layouts?.find((l) => l.identifier === "brand");
  const patched = await fetch(`${handle.url}/v1/layouts/${copy?._id}`, {
    method: "PATCH",
    headers: { authorization: `ApiKey ${FRESH.keys.production}`, "content-type": "application/json" },
    body: JSON.stringify({ content }),
  });
  expect(patched.status).toBe(200);
}

describe("the promote preview against Production", () => {
  it("shows a layout edit and a template edit as diffs from Production to Development", async () => {
    const { workspace, cli, developmentOnly } = await promotedOnce();
    await workspace.write("layouts/brand.html", LAYOUT_EDITED);
    await workspace.write("templates/order-shipped.html", EMAIL_EDITED);
    const applied = await cli("apply", "--env", "development", "--auto-approve");
    expect(applied.code, applied.stderr).toBe(0);

    const text = await cli("promote", "--env", "development", "--detailed-exitcode");
    expect(text.code, text.stderr).toBe(2);
    // The workflow's PUT named the layout: a real server nests the layout's pending change in
    // the workflow's and lists it no more. It is shown as carried, with its diff.
    expect(text.stdout).toContain(
      "1 change to promote from Development to Production. It may carry a layout change the server does not list on its own.",
    );
    expect(text.stdout).toContain(
      "  ^ layout brand, used by workflow order-shipped (no change of its own is listed: the server nests it in the change of a workflow written with a step naming it, and promotes it with that workflow)\n      content: changed, 7 lines\n",
    );
    expect(text.stdout).toContain("      content: changed, 7 lines\n");
    expect(text.stdout).toContain("        --- content (Production)\n");
    expect(text.stdout).toContain("        +++ content (Development)\n");
    expect(text.stdout).toContain("        -<footer>Acme Inc</footer>\n");
    expect(text.stdout).toContain("        +<footer>Acme Inc, Berlin</footer>\n");
    expect(text.stdout).toContain("      step email-customer  content: changed, 3 lines\n");
    expect(text.stdout).toContain("        --- email-customer (Production)\n");
    expect(text.stdout).toContain("        +<p>Order {{orderId}} is on its way to you.</p>\n");
    expect(text.stdout).not.toContain("(live)");
    expect(text.stdout).not.toContain("(desired)");
    expect(text.stdout).not.toContain("no field notiform shows changed");
    expect(text.stdout).not.toContain("\\n");

    const markdown = await cli("promote", "--env", "development", "--output", "markdown");
    expect(markdown.code, markdown.stderr).toBe(2);
    expect(markdown.stdout).toContain(
      "| `layout brand, used by workflow order-shipped` | `content: changed, 7 lines` |\n",
    );
    expect(markdown.stdout).toContain("_A layout listed after the changes: no change of its own is listed");
    expect(markdown.stdout).toContain("```diff\n");
    expect(markdown.stdout).toContain("\n+<footer>Acme Inc, Berlin</footer>\n");
    expect(markdown.stdout).toContain("\n+<p>Order {{orderId}} is on its way to you.</p>\n");

    // Production not read: the workflow's change lists what it sets; the nested layout change
    // cannot be seen, and the warning says so.
    const unread = await developmentOnly("promote", "--env", "development", "--detailed-exitcode");
    expect(unread.code, unread.stderr).toBe(2);
    expect(unread.stdout).toContain("  ^ workflow order-shipped\n      1 step changed\n");
    expect(unread.stdout).not.toContain("layout brand");
    expect(unread.stdout).toContain("a layout change the server nests in a workflow's is not shown");
    expect(unread.stdout).not.toContain("no field notiform shows changed");
  });

  it("a layout change carried by a workflow whose own content Production has still counts as ahead", async () => {
    const { handle, workspace, cli } = await promotedOnce();
    await workspace.write("layouts/brand.html", LAYOUT_EDITED);
    await workspace.write("templates/order-shipped.html", EMAIL_EDITED);
    expect((await cli("apply", "--env", "development", "--auto-approve")).code).toBe(0);
    // The template edit reverted: the workflow's change is still pending (and still carries the
    // layout's), but its own content is Production's again.
    await workspace.write("templates/order-shipped.html", EMAIL);
    expect((await cli("apply", "--env", "development", "--auto-approve")).code).toBe(0);
    const ahead = await cli("promote", "--env", "development", "--detailed-exitcode");
    expect(ahead.code, ahead.stdout + ahead.stderr).toBe(2);
    expect(ahead.stdout).toContain(
      "  ^ workflow order-shipped\n      (Production already has this content)\n",
    );
    expect(ahead.stdout).toContain("-<footer>Acme Inc</footer>\n");
    const json = JSON.parse(
      (await cli("promote", "--env", "development", "--output", "json", "--detailed-exitcode")).stdout,
    );
    expect(json.carried).toMatchObject([{ key: "brand", workflows: ["order-shipped"] }]);
    expect(json.carried[0].diff.map((change: { field: string }) => change.field)).toEqual(["content"]);

    // The layout edited in Production by hand as well: nothing is ahead any more.
    await editInProduction(handle, LAYOUT_EDITED);
    const level = await cli("promote", "--env", "development", "--detailed-exitcode");
    expect(level.code, level.stdout + level.stderr).toBe(0);
    expect(level.stdout).not.toContain("layout brand");
  });

  it("names a workflow the server named with a line break quoted, never as a line of its own", async () => {
    const { handle, cli } = await promotedOnce();
    const dev = async (method: string, path: string, body: unknown) => {
      const response = await fetch(`${handle.url}${path}`, {
        method,
        headers: { authorization: `ApiKey ${FRESH.keys.development}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      expect(response.status, await response.clone().text()).toBeLessThan(300);
      return ((await response.json()) as { data: unknown }).data;
    };
    const store = handle.store("development");
    const brand = store.layouts?.find((l) => l.identifier === "brand")?._id ?? "";
    await dev("PATCH", `/v1/layouts/${brand}`, { content: LAYOUT_EDITED });
    // A workflow the config does not manage, created in the dashboard with a step naming the
    // layout: the layout's change now travels in that workflow's, and --all promotes it.
    await dev("POST", "/v1/workflows", {
      name: "Sneaky\n  ^ layout forged",
      notificationGroupId: store.notificationGroups[0]?._id,
      steps: [{ name: "Email", template: { type: "email", subject: "s", content: "c", layoutId: brand } }],
    });
    const text = await cli("promote", "--env", "development", "--all", "--detailed-exitcode");
    expect(text.code, text.stderr).toBe(2);
    expect(text.stdout).toContain('  ^ layout brand, used by workflow "Sneaky\\n  ^ layout forged" (');
    // Three entries (the fresh organization's default layout, the workflow, the carried layout);
    // the forged one is not a line of its own.
    const heads = text.stdout.split("\n").filter((line) => line.startsWith("  ^ "));
    expect(heads).toHaveLength(3);
    expect(heads.some((line) => line.startsWith("  ^ layout forged"))).toBe(false);
  });

  it("a saved promotion refuses when a layout it carries changed since, and promotes it as reviewed", async () => {
    const { cli, productionLayout, refusedAfterReEdit } = await nestedLayoutEdit();
    const saved = await cli("promote", "--env", "development", "--out", "promotion.json");
    expect(saved.code, saved.stderr).toBe(0);

    await refusedAfterReEdit(cli, "layout brand, used by workflow order-shipped");

    // Reviewed again: promoted, with the layout as Development has it.
    expect((await cli("promote", "--env", "development", "--out", "promotion.json")).code).toBe(0);
    const promoted = await cli("promote", "--env", "development", "promotion.json");
    expect(promoted.code, promoted.stderr).toBe(0);
    expect(productionLayout()).toBe(LAYOUT_EDITED.replace("Berlin", "Hamburg"));
  });

  it("shows a nested layout change the promoted workflow's steps name no more, and checks it when saved", async () => {
    const { workspace, cli, refusedAfterReEdit } = await nestedLayoutEdit();
    // Then the step moves to another layout: brand's change stays where it was nested.
    await workspace.write("layouts/plain.html", "<main>{{{body}}}</main>\n");
    await workspace.write(
      "notiform.yaml",
      CONFIG.replace(
        "layouts:\n",
        "layouts:\n  - identifier: plain\n    name: Plain\n    content: { file: layouts/plain.html }\n",
      ).replace("layout: brand", "layout: plain"),
    );
    const moved = await cli("apply", "--env", "development", "--auto-approve");
    expect(moved.code, moved.stderr).toBe(0);

    const text = await cli("promote", "--env", "development", "--detailed-exitcode");
    expect(text.code, text.stderr).toBe(2);
    expect(text.stdout).toContain("  ^ layout brand (no change of its own is listed");
    expect(text.stdout).toContain("        +<footer>Acme Inc, Berlin</footer>\n");
    expect(text.stdout).toContain(
      "  ^ layout plain, used by workflow order-shipped (no change of its own is listed",
    );

    // Saved, then brand edited again: no promoted workflow names it now, and it is checked still.
    expect((await cli("promote", "--env", "development", "--out", "promotion.json")).code).toBe(0);
    await refusedAfterReEdit(cli, "layout brand");
  });

  it("a promotion saved without the Production key still refuses when a nested layout changed since", async () => {
    const { developmentOnly, refusedAfterReEdit } = await nestedLayoutEdit();
    const saved = await developmentOnly("promote", "--env", "development", "--out", "promotion.json");
    expect(saved.code, saved.stderr).toBe(0);
    expect(saved.stdout).not.toContain("layout brand");

    await refusedAfterReEdit(developmentOnly, "layout brand");
  });

  it("--detailed-exitcode exits 0 when Production already has every pending change's content", async () => {
    const { handle, workspace, cli } = await promotedOnce();
    await workspace.write("layouts/brand.html", LAYOUT_EDITED);
    const applied = await cli("apply", "--env", "development", "--auto-approve");
    expect(applied.code, applied.stderr).toBe(0);
    const ahead = await cli("promote", "--env", "development", "--detailed-exitcode");
    expect(ahead.code, ahead.stdout + ahead.stderr).toBe(2);

    // The same edit made in Production by hand: the change is still pending, Production has it.
    await editInProduction(handle, LAYOUT_EDITED);

    const level = await cli("promote", "--env", "development", "--detailed-exitcode");
    expect(level.code, level.stdout + level.stderr).toBe(0);
    expect(level.stdout).toContain("1 change to promote from Development to Production.");
    expect(level.stdout).toContain("Production already has the content of it.");
    expect(level.stdout).toContain("(Production already has this content)");
    const markdown = await cli("promote", "--env", "development", "--output", "markdown");
    expect(markdown.code, markdown.stderr).toBe(0);
  });
});
