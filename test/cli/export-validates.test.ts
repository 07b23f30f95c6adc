// `notiform export` writes only config that validates: topic keys the server accepts with "@",
// "+" and "/" are kept (and plan back to nothing over percent-encoded paths), a workflow
// description longer than an update may set is left out with a warning (one of 300 emoji is not),
// and the schema modeline resolves from the directory written to.
import { existsSync, readdirSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { topicKind } from "../../src/kinds/topic/index.js";
import { caller } from "../emulator/harness.js";
import { topic } from "../helpers/builders.js";
import { cliTests, runCli } from "../support/cli.js";

const LONG = "Sent when an order leaves the warehouse. ".repeat(25).slice(0, 1000);
const cliTest = cliTests();

function modelineOf(text: string): string {
  const match = /^# yaml-language-server: \$schema=(.+)$/m.exec(text);
  if (match?.[1] === undefined) throw new Error(`no modeline in:\n${text}`);
  return match[1];
}

describe("notiform export writes only config that validates", () => {
  it("keeps keys with @ + /, leaves out a 1,000-character description with a warning", async () => {
    const { emulator: handle, workspace, cli } = await cliTest();
    const call = caller(handle.url, handle.apiKey);
    for (const key of ["ops+dccc2e@example.com", "team/alerts"]) {
      expect((await call("POST", "/v1/topics", { key, name: `Topic ${key}` })).status).toBe(201);
    }
    const groups = await call("GET", "/v1/notification-groups");
    const created = await call("POST", "/v1/workflows", {
      name: "Long story",
      notificationGroupId: groups.body.data[0]._id,
      description: LONG,
      active: true,
      steps: [],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // 300 characters as the schema and the server count them (600 UTF-16 units): kept.
    const emoji = await call("POST", "/v1/workflows", {
      name: "Emoji story",
      notificationGroupId: groups.body.data[0]._id,
      description: "😀".repeat(300),
      active: true,
      steps: [],
    });
    expect(emoji.status, JSON.stringify(emoji.body)).toBe(201);

    const exported = await cli("export", "--dir", "config");
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stderr).toMatch(/warning: workflow long-story: description left out \(1000 characters/);

    const topics = await workspace.read("config/topics.yaml");
    expect(topics).toContain("key: ops+dccc2e@example.com");
    expect(topics).toContain("key: team/alerts");
    const workflows = await workspace.read("config/workflows.yaml");
    expect(workflows).toContain("key: long-story");
    expect(workflows).not.toContain("warehouse");
    expect(workflows).toContain(`description: ${"😀".repeat(300)}`);

    const validate = await runCli(["validate", "--config", "config/notiform.yaml"], { cwd: workspace.dir });
    expect(validate.code, validate.stderr).toBe(0);
    const plan = await cli("plan", "--config", "config/notiform.yaml", "--detailed-exitcode");
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toContain("No changes.");

    // Renaming the e-mail-like topic goes over its percent-encoded path and lands.
    await workspace.write("config/topics.yaml", topics.replace("Topic ops+", "Renamed ops+"));
    const applied = await cli("apply", "--config", "config/notiform.yaml", "--auto-approve");
    expect(applied.code, applied.stderr).toBe(0);
    const read = await caller(handle.url, handle.apiKey)("GET", "/v1/topics/ops%2Bdccc2e%40example.com");
    expect(read.body.data.name).toBe("Renamed ops+dccc2e@example.com");
  });

  it("names no file or folder after a device Windows keeps (con, aux, nul), and plans back to zero", async () => {
    const { emulator: handle, workspace, cli } = await cliTest();
    const call = caller(handle.url, handle.apiKey);
    const layout = await call("POST", "/v1/layouts", {
      name: "Nul",
      identifier: "nul",
      content: "<div>{{{body}}}</div>",
    });
    expect(layout.status, JSON.stringify(layout.body)).toBe(201);
    const groups = await call("GET", "/v1/notification-groups");
    const created = await call("POST", "/v1/workflows", {
      name: "Con",
      notificationGroupId: groups.body.data[0]._id,
      steps: [
        {
          name: "aux",
          template: {
            type: "email",
            subject: "Hi",
            content: "<p>hi</p>",
            contentType: "customHtml",
            layoutId: layout.body.data._id,
          },
        },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);

    const exported = await cli("export", "--dir", "config");
    expect(exported.code, exported.stderr).toBe(0);
    const written = readdirSync(join(workspace.dir, "config"), { recursive: true, encoding: "utf8" });
    const parts = written.flatMap((path) => path.split(/[\\/]/));
    expect(
      parts.filter((part) => ["con", "prn", "aux", "nul"].includes((part.split(".")[0] ?? "").toLowerCase())),
    ).toEqual([]);
    expect(written.some((path) => path.startsWith("templates"))).toBe(true);
    const plan = await cli("plan", "--config", "config/notiform.yaml", "--detailed-exitcode");
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });

  it("leaves out, never writes, a topic whose key the config cannot hold", () => {
    const live = new Map([
      ["ok", topic("ops@example.com", "Fine")],
      ["bad", topic("has space", "Odd")],
    ]);
    const section = topicKind.exportSection(live, {} as never);
    if (section === undefined || "notExported" in section) throw new Error("expected a section");
    expect(section.value).toEqual([{ key: "ops@example.com", name: "Fine" }]);
    expect(section.leftOut).toEqual(['topic "has space" left out: the config cannot hold its key or name']);
  });
});

describe("the schema modeline of exported files", () => {
  it("points at the running package's schema when the project has no node_modules", async () => {
    const { workspace, cli } = await cliTest();
    const result = await cli("export", "--dir", "deep/config");
    expect(result.code, result.stderr).toBe(0);
    const dir = workspace.path("deep/config");
    const schema = modelineOf(await readFile(join(dir, "notiform.yaml"), "utf8"));
    expect(schema).toMatch(/^\.\.?\//);
    expect(resolve(dir, schema)).toBe(resolve("schemas/notiform.schema.json"));
  });

  it("prefers the project's node_modules/notiform, found from the directory or above", async () => {
    const { workspace, cli } = await cliTest();
    const installed = workspace.path("node_modules/notiform/schemas/notiform.schema.json");
    await mkdir(dirname(installed), { recursive: true });
    await writeFile(installed, "{}");
    const result = await cli("export", "--dir", "config");
    expect(result.code, result.stderr).toBe(0);
    const dir = workspace.path("config");
    const schema = modelineOf(await readFile(join(dir, "topics.yaml"), "utf8"));
    expect(schema).toBe("../node_modules/notiform/schemas/notiform.schema.json");
    expect(existsSync(resolve(dir, schema))).toBe(true);
  });
});
