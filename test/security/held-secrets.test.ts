// A secret the config stops naming. A field applied with a value from the environment holds the
// secret on the server; when the config replaces its `${VAR}` with a literal (or drops the
// variable), the plan's old side of that field is the live value: the old secret, which no
// masker knows any more. The state file names those fields (heldSecrets, never a value) from the
// apply that sent them, and every plan withholds their old side: text, markdown, JSON, the saved
// file and `show`, while `apply FILE` still takes the reviewed plan. An apply of the whole config
// that finds the server holding the config's own value there releases the field.
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliTests, twoEnvironments } from "../support/cli.js";

const cliTest = cliTests();

const FRESH = twoEnvironments("Held Secrets Inc");
const SECRET = "hk_7Qz9secretHOOKvalue42";
const STATE = "notiform.development.state.json";

/** The config with `value` where the secret goes (`${HOOK}`, or a literal once it is dropped). */
function configWith(value: string, topicName = `Order updates ${value}`): string {
  return `${FRESH.header}topics:
  - key: order-updates
    name: "${topicName}"
notificationGroups:
  - key: orders
    name: Orders
layouts:
  - identifier: brand
    name: Brand
    content: "<html><body><!-- ${value} -->{{{body}}}</body></html>"
  - identifier: plain
    name: Plain
    content: "<html><body>{{{body}}}</body></html>"
tenants:
  - identifier: acme-eu
    name: Acme Europe
    data: { webhook: "https://hooks.example/${value}", region: eu }
workflows:
  - identifier: order-shipped
    name: Order shipped
    description: "Calls ${value}"
    notificationGroup: orders
    steps:
      - name: in-app
        type: in_app
        template:
          content: "Order {{orderId}} shipped ${value}"
      - name: email
        type: email
        template:
          subject: "Order {{orderId}} shipped"
          content: "<p>Order {{orderId}} shipped</p>"
          layout: brand
      - name: plain-email
        type: email
        template:
          subject: "Sent ${value === "public" ? "v2" : "v1"}"
          content: "<p>Sent</p>"
          layout: plain
`;
}

const HELD = {
  "layout/brand": ["content"],
  "tenant/acme-eu": ["data"],
  "topic/order-updates": ["name"],
  "workflow/order-shipped": ["description", 'steps["in-app"].template.content'],
};

async function stateOf(dir: string): Promise<{ text: string; heldSecrets?: Record<string, string[]> }> {
  const text = await readFile(join(dir, STATE), "utf8");
  return { text, heldSecrets: JSON.parse(text).heldSecrets };
}

/** A fresh organization with the config applied while HOOK held the secret. */
async function appliedWithSecret() {
  const test = await cliTest({ ...FRESH.options, config: configWith("${HOOK}") });
  const applied = await test.run(["apply", "--env", "development", "--auto-approve"], {
    env: { HOOK: SECRET },
  });
  expect(applied.code, applied.stderr).toBe(0);
  return { run: test.run, dir: test.workspace.dir };
}

describe("a secret the config stops naming", () => {
  it("is withheld from every plan of the field, applies from a saved plan, and is released once in sync", async () => {
    const { run, dir } = await appliedWithSecret();
    const first = await stateOf(dir);
    expect(first.heldSecrets).toEqual(HELD);
    expect(first.text).not.toContain(SECRET);

    // The variable is dropped: the config sets the literal "public" where the secret was.
    await writeFile(join(dir, "notiform.yaml"), configWith("public"));
    const seen: string[] = [];
    for (const output of ["text", "markdown"]) {
      const shown = await run(["plan", "--env", "development", "--output", output, "--verbose"]);
      expect(shown.code, shown.stderr).toBe(0);
      seen.push(shown.stdout, shown.stderr);
    }
    const json = await run(["plan", "--env", "development", "--output", "json", "--out", "plan.json"]);
    expect(json.code, json.stderr).toBe(0);
    seen.push(json.stdout, json.stderr, await readFile(join(dir, "plan.json"), "utf8"));
    for (const output of ["text", "markdown"]) {
      const shown = await run(["show", "plan.json", "--output", output], { url: null });
      expect(shown.code, shown.stderr).toBe(0);
      seen.push(shown.stdout, shown.stderr);
    }
    // The changed messages' live sides render the step's template and the layout: held back.
    const preview = await run(["preview", "--env", "development", "--changed", "--out", "site"]);
    expect(preview.code, preview.stderr).toBe(0);
    seen.push(preview.stdout, preview.stderr);
    const site = join(dir, "site");
    const files = (await readdir(site, { recursive: true, withFileTypes: true })).filter((f) => f.isFile());
    for (const file of files) seen.push(file.name, await readFile(join(file.parentPath, file.name), "utf8"));
    for (const text of seen) expect(text).not.toContain(SECRET);
    const markdown = seen[2] ?? "";
    expect(markdown).toContain(
      "`order-shipped / in-app` | in\\-app | _(held back: it held a value from the environment)_ | `Order [orderId] shipped public` |",
    );
    expect(markdown).toContain(
      "`order-shipped / email` | email | _(held back: it held a value from the environment)_ |",
    );
    // An email on a layout that held none, whose own fields held none, is rendered as ever.
    expect(markdown).toContain("| `order-shipped / plain-email` | email | `Sent v1` | `Sent v2` |");
    const step = JSON.parse(await readFile(join(site, "order-shipped", "in-app.json"), "utf8"));
    expect(step.examples[0].before).toEqual({ error: expect.stringContaining("held back"), withheld: true });

    // Every held field is still planned, its new value shown and its old one withheld.
    const plan = JSON.parse(json.stdout);
    const changes = new Map<string, { old?: unknown; new: unknown }>();
    for (const action of plan.actions)
      for (const change of action.changes) changes.set(`${action.id} ${change.field}`, change);
    for (const [id, fields] of Object.entries(HELD)) {
      for (const field of fields)
        expect(changes.get(`${id} ${field}`)?.old, `${id} ${field}`).toBe("********");
    }
    expect(changes.get("topic/order-updates name")?.new).toBe("Order updates public");
    // A field that held no secret shows its old value as ever.
    expect(changes.has("workflow/order-shipped name")).toBe(false);

    // The reviewed file applies: the fresh plan withholds the same old sides.
    const fromFile = await run(["apply", "plan.json", "--env", "development"]);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect((await stateOf(dir)).heldSecrets).toEqual(HELD);
    const inSync = await run(["plan", "--env", "development", "--detailed-exitcode"]);
    expect(inSync.code, inSync.stdout).toBe(0);

    // An apply of the whole config finds the server holding "public" there: released.
    const settle = await run(["apply", "--env", "development", "--auto-approve"]);
    expect(settle.code, settle.stderr).toBe(0);
    const settled = await stateOf(dir);
    expect(settled.heldSecrets).toBeUndefined();
    expect(settled.text).not.toContain("heldSecrets");

    // So the next change of the field shows its old value again.
    await writeFile(join(dir, "notiform.yaml"), configWith("public", "Order news"));
    const next = await run(["plan", "--env", "development", "--output", "json"]);
    const topic = JSON.parse(next.stdout).actions.find((a: { id: string }) => a.id === "topic/order-updates");
    expect(topic.changes).toEqual([{ field: "name", old: "Order updates public", new: "Order news" }]);
  });

  it("is recorded before anything is sent, so a run that fails or is killed still names it", async () => {
    const { run, workspace, emulator } = await cliTest({ ...FRESH.options, config: configWith("${HOOK}") });
    // Every write is cut off: nothing the apply sends is known to have arrived.
    emulator.injectFault({ method: "POST", path: "/v1/*", times: 100, kind: "drop" });
    emulator.injectFault({ method: "PUT", path: "/v1/*", times: 100, kind: "drop" });
    const failed = await run(["apply", "--env", "development", "--auto-approve"], { env: { HOOK: SECRET } });
    expect(failed.code).not.toBe(0);
    const state = await stateOf(workspace.dir);
    expect(state.heldSecrets).toEqual(HELD);
    expect(state.text).not.toContain(SECRET);
  });

  it("keeps a field the whole config's apply still plans to change, and one of a resource applied with --target", async () => {
    const { run, dir } = await appliedWithSecret();
    await writeFile(join(dir, "notiform.yaml"), configWith("public"));
    // Only the topic is applied: every other held field is still the secret on the server.
    const targeted = await run([
      "apply",
      "--env",
      "development",
      "--auto-approve",
      "--target",
      "topic/order-updates",
    ]);
    expect(targeted.code, targeted.stderr).toBe(0);
    expect((await stateOf(dir)).heldSecrets).toEqual(HELD);
    const plan = await run(["plan", "--env", "development", "--output", "json"]);
    expect(plan.stdout).not.toContain(SECRET);
    const ids = JSON.parse(plan.stdout).actions.map((a: { id: string }) => a.id);
    expect(ids).toEqual(expect.arrayContaining(["layout/brand", "tenant/acme-eu", "workflow/order-shipped"]));
    expect(ids).not.toContain("topic/order-updates");
  });

  it("withholds the name of a resource the config stops managing, in the unmanaged list", async () => {
    const { run, dir } = await appliedWithSecret();
    // The topic leaves the config (notiform never deletes): the server keeps its name.
    const without = configWith("public").replace(
      /- key: order-updates\n.*\n/,
      "- key: other\n    name: Other\n",
    );
    expect(without).not.toContain("order-updates");
    await writeFile(join(dir, "notiform.yaml"), without);
    const plan = await run(["plan", "--env", "development", "--output", "json", "--list-unmanaged"]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).not.toContain(SECRET);
    expect(JSON.parse(plan.stdout).unmanaged).toContainEqual({
      kind: "topic",
      key: "order-updates",
      name: "********",
    });
  });

  it("withholds Production's old side in a promotion's diff, and Development's where it still holds one", async () => {
    const { run, dir } = await appliedWithSecret();
    const promoted = await run(["promote", "--env", "development", "--auto-approve"], {
      env: { HOOK: SECRET },
    });
    expect(promoted.code, promoted.stderr).toBe(0);
    await writeFile(join(dir, "notiform.yaml"), configWith("public"));
    expect((await run(["apply", "--env", "development", "--auto-approve"])).code).toBe(0);
    const seen: string[] = [];
    for (const output of ["text", "markdown"]) {
      const shown = await run(["promote", "--env", "development", "--output", output, "--detailed-exitcode"]);
      expect(shown.code, shown.stderr).toBe(2);
      seen.push(shown.stdout, shown.stderr);
    }
    const json = await run([
      "promote",
      "--env",
      "development",
      "--out",
      "promotion.json",
      "--output",
      "json",
    ]);
    expect(json.code, json.stderr).toBe(0);
    seen.push(json.stdout, await readFile(join(dir, "promotion.json"), "utf8"));
    for (const text of seen) expect(text).not.toContain(SECRET);
    const promotion = JSON.parse(json.stdout);
    const workflow = promotion.entries.find((e: { key?: string }) => e.key === "order-shipped");
    expect(workflow.diff).toContainEqual({ field: "description", old: "********", new: "********" });
    // A field that held no secret shows both sides as ever.
    expect(JSON.stringify(workflow.diff)).not.toContain('"field":"name"');
    const applied = await run(["promote", "promotion.json", "--env", "development"]);
    expect(applied.code, applied.stderr).toBe(0);
  });

  it("exports a value the server still holds of one as REDACTED, with a warning, and keeps the record", async () => {
    const { run, dir } = await appliedWithSecret();
    // The variable is gone before the config was applied without it: the server holds every value.
    await writeFile(join(dir, "notiform.yaml"), configWith("public"));
    const exported = await run(["export", "--env", "development", "--dir", "exported"]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toContain("warning: 5 values the server holds held a value from the environment");
    const files = (await readdir(join(dir, "exported"), { recursive: true, withFileTypes: true })).filter(
      (f) => f.isFile(),
    );
    const texts = await Promise.all(files.map((f) => readFile(join(f.parentPath, f.name), "utf8")));
    for (const text of [...texts, ...files.map((f) => f.name), exported.stdout, exported.stderr])
      expect(text).not.toContain(SECRET);
    const topics = texts.find((text) => text.includes("topics:")) ?? "";
    expect(topics).toMatch(/key: order-updates\n\s+name: REDACTED/);
    const state = JSON.parse(await readFile(join(dir, "exported", STATE), "utf8"));
    expect(state.heldSecrets).toEqual(HELD);
    expect(state.secretValues).toHaveLength(5);
  });
});
