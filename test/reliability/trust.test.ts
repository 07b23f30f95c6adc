// Smaller promises of "trust under failure", each over HTTP against the emulator: export leaves
// the state file a later plan needs; a user key named like an object property is data; a status
// change whose answer was lost is reported applied, not failed; duplicates on the server are
// warned about; a saved plan's bindings are never recorded on its word.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { EmulatorHandle } from "../../src/emulator/index.js";
import { cliTests, TENANT_1, WORKFLOW_SHIPPED } from "../support/cli.js";

const cliTest = cliTests();

const api = (handle: EmulatorHandle, method: string, path: string, body?: unknown) =>
  fetch(`${handle.url}${path}`, {
    method,
    headers: { authorization: `ApiKey ${handle.apiKey}`, "content-type": "application/json" },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  }).then((r) => r.json() as Promise<{ data: { _id: string } }>);

describe("trust under failure", () => {
  it("export writes the state file, so a group renamed right after export is renamed, not created again", async () => {
    const { cli, call, workspace: ws } = await cliTest();
    await call("POST", "/v1/notification-groups", { name: "Billing" });
    const exported = await cli("export", "--dir", ".");
    expect(exported.code, exported.stderr).toBe(0);
    const state = JSON.parse(await ws.read("notiform.state.json"));
    expect(state.notificationGroups.billing.id).toMatch(/^[0-9a-f]{24}$/);
    const groups = await ws.read("notification-groups.yaml");
    await ws.write("notification-groups.yaml", groups.replace("name: Billing", "name: Billing and invoices"));
    const plan = await cli("plan", "--output", "json");
    const actions = JSON.parse(plan.stdout).actions;
    expect(actions.map((a: { id: string; op: string }) => `${a.op} ${a.id}`)).toEqual([
      "update notificationGroup/billing",
    ]);
  });

  it("keeps a group keyed __proto__ (or constructor) as data: created once, then no changes", async () => {
    const session = await cliTest({
      config:
        "version: 1\norganization: Acme Inc\nnotificationGroups:\n  - { key: __proto__, name: Proto }\n  - { key: constructor, name: Ctor }\n",
      strictSpec: true,
    });
    expect((await session.cli("apply", "--auto-approve")).code).toBe(0);
    const state = JSON.parse(readFileSync(join(session.workspace.dir, "notiform.state.json"), "utf8"));
    expect(Object.keys(state.notificationGroups).sort()).toEqual(["__proto__", "constructor"]);
    const again = await session.cli("plan", "--detailed-exitcode");
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout + again.stderr).not.toMatch(/warning/i);
    expect((await session.cli("apply", "--auto-approve")).code).toBe(0);
    const names = session.emulator.store("development").notificationGroups.map((g) => g.name);
    expect(names.filter((n) => n === "Proto" || n === "Ctor")).toHaveLength(2);
  });

  it("reports a status change applied when its answer was lost and the retry met 'must provide a different status'", async () => {
    const session = await cliTest({
      config: `version: 1\norganization: Acme Inc\nworkflows:\n  - { key: shipped, id: ${WORKFLOW_SHIPPED}, active: false }\n`,
    });
    session.emulator.injectFault({
      method: "PUT",
      path: `/v1/workflows/${WORKFLOW_SHIPPED}/status`,
      kind: "lost-response",
    });
    const applied = await session.cli("apply", "--auto-approve", "--output", "json");
    expect(applied.code, applied.stderr).toBe(0);
    const report = JSON.parse(applied.stdout);
    expect(report.counts).toEqual({ applied: 1, failed: 0, skipped: 0 });
    expect(report.results[0].notes.join(" ")).toContain("retry found the status already set");
    expect((await session.cli("plan", "--detailed-exitcode")).code).toBe(0);
  });

  it("warns about two overrides for one workflow and tenant on the server", async () => {
    const session = await cliTest({
      config: `version: 1\norganization: Acme Inc\noverrides:\n  - { workflow: ${WORKFLOW_SHIPPED}, tenant: ${TENANT_1} }\n`,
    });
    expect((await session.cli("apply", "--auto-approve")).code).toBe(0);
    // A database without the unique index: a second override for the same pair.
    const store = session.emulator.store("development");
    const first = store.overrides[0];
    if (first === undefined) throw new Error("no override");
    store.overrides.push({ ...first, _id: "6600000000000000000000ff" });
    const plan = await session.cli("plan");
    expect(plan.stdout).toContain(`more than one workflow override ${WORKFLOW_SHIPPED}@${TENANT_1}`);
  });

  it("warns about two topics of one key, and two tenants of one identifier, on the server", async () => {
    const session = await cliTest({
      config:
        "version: 1\norganization: Acme Inc\ntopics:\n  - { key: news, name: News }\ntenants:\n  - { identifier: acme, name: Acme }\n",
    });
    expect((await session.cli("apply", "--auto-approve")).code).toBe(0);
    // A database without the unique indexes: a second topic and a second tenant of one identity.
    const store = session.emulator.store("development");
    const topic = store.topics.find((t) => t.key === "news");
    const tenant = store.tenants.find((t) => t.identifier === "acme");
    if (topic === undefined || tenant === undefined) throw new Error("not applied");
    store.topics.push({ ...topic, _id: "6600000000000000000000f1" });
    store.tenants.push({ ...tenant, _id: "6600000000000000000000f2" });
    const plan = await session.cli("plan", "--output", "json");
    expect(plan.code, plan.stderr).toBe(0);
    const warnings = (JSON.parse(plan.stdout).warnings as { message: string }[]).map((w) => w.message);
    expect(warnings).toEqual([
      expect.stringContaining("more than one topic news"),
      expect.stringContaining("more than one tenant acme"),
    ]);
  });

  it("refuses a saved plan whose group binding was edited, and records nothing", async () => {
    const session = await cliTest({
      config:
        "version: 1\norganization: Acme Inc\nnotificationGroups:\n  - { key: billing, name: Billing }\n",
      strictSpec: true,
    });
    expect((await session.cli("apply", "--auto-approve")).code).toBe(0);
    await session.workspace.write(
      "notiform.yaml",
      "version: 1\norganization: Acme Inc\nnotificationGroups:\n  - { key: billing, name: Billing 2 }\n",
    );
    expect((await session.cli("plan", "--out", "plan.json")).code).toBe(0);
    const file = join(session.workspace.dir, "plan.json");
    const plan = JSON.parse(readFileSync(file, "utf8"));
    plan.bindings.notificationGroups.billing = "6600000000000000000000aa";
    writeFileSync(file, JSON.stringify(plan));
    const before = readFileSync(join(session.workspace.dir, "notiform.state.json"), "utf8");
    const applied = await session.cli("apply", "plan.json");
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain("the binding of notification group billing");
    expect(readFileSync(join(session.workspace.dir, "notiform.state.json"), "utf8")).toBe(before);
  });

  it("starts nothing new after the first failure at concurrency > 1, and says what it skipped", async () => {
    const topics = Array.from(
      { length: 40 },
      (_, n) => `  - { key: t${String(n).padStart(2, "0")}, name: T${n} }\n`,
    );
    const session = await cliTest({
      config: `version: 1\norganization: Acme Inc\ntopics:\n${topics.join("")}`,
    });
    // The very first create fails at once; the other three in flight finish.
    session.emulator.injectFault({
      method: "POST",
      path: "/v1/topics",
      kind: { status: 400, body: { message: "no" } },
    });
    const result = await session.cli("apply", "--auto-approve", "--concurrency", "4", "--output", "json");
    const report = JSON.parse(result.stdout);
    const posts = session.emulator.requests.filter((r) => r.method === "POST").length;
    expect(report.counts.failed).toBe(1);
    expect(posts).toBeLessThanOrEqual(4);
    expect(report.counts.applied).toBe(posts - 1);
    expect(report.counts.skipped).toBe(40 - posts);
    expect(report.counts.skipped).toBeGreaterThan(30);
    expect(
      report.results.filter(
        (r: { status: string; reason?: string }) => r.status === "skipped" && /failed/.test(r.reason ?? ""),
      ),
    ).toHaveLength(report.counts.skipped);
  });

  it("refuses a saved plan that creates an override someone created meanwhile", async () => {
    const session = await cliTest({
      config: `version: 1\norganization: Acme Inc\noverrides:\n  - { workflow: ${WORKFLOW_SHIPPED}, tenant: ${TENANT_1}, active: true }\n`,
    });
    expect((await session.cli("plan", "--out", "plan.json")).code).toBe(0);
    await api(session.emulator, "POST", "/v1/workflow-overrides", {
      workflowId: WORKFLOW_SHIPPED,
      tenantId: TENANT_1,
      active: false,
    });
    const applied = await session.cli("apply", "plan.json");
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain(`override/${WORKFLOW_SHIPPED}@${TENANT_1}`);
    expect(session.emulator.store("development").overrides).toHaveLength(1);
  });
});
