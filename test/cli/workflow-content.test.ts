// Issue 24's "done when", end to end as a user does it, against the emulator (real flavor, both
// environments): export an organization whose workflows have content, the export plans back to
// zero, edit one subject, the plan (text, JSON, markdown) shows exactly that change, apply in
// Development sends one PUT that touches no other template, the re-plan is empty, promote, and
// Production then plans to zero.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { validatorOf } from "../../src/schemas.js";
import { applyWay, BOTH_WAYS, promoteWay } from "../support/both-ways.js";
import { cliTests, runCli, twoEnvironmentsConfig } from "../support/cli.js";
import { createContentWorkflow } from "../support/dashboard.js";

const cliTest = cliTests();

interface LiveStep {
  _id: string;
  _templateId: string;
  name: string;
  template: { _id: string; subject?: string; content?: unknown; updatedAt: string };
}

const EMAIL_HTML = `<h1>Your order {{orderId}} shipped</h1>
<p>Hello {{firstName}},</p>
<p>It is on its way.</p>
`;

async function organization() {
  const test = await cliTest({ flavor: "real" });
  const { emulator: handle, call } = test;
  // An organization built in the dashboard: a workflow with four steps of content.
  const { _id: workflowId } = await createContentWorkflow(handle, EMAIL_HTML, [
    { name: "wait", template: { type: "delay" }, metadata: { type: "regular", amount: 1, unit: "hours" } },
    {
      name: "bell",
      template: {
        type: "in_app",
        content: "Shipped {{orderId}}",
        cta: { type: "redirect", data: { url: "/orders" } },
      },
    },
    { name: "text", template: { type: "sms", content: "Order {{orderId}} shipped" } },
  ]);
  // Everything Development holds so far reaches Production, as in a real organization.
  const pending = (await call("GET", "/v1/changes?promoted=false&page=0&limit=100")).data as {
    _id: string;
  }[];
  await call("POST", "/v1/changes/bulk/apply", { changeIds: pending.map((c) => c._id) });
  return { ...test, handle, workflowId };
}

describe("workflow content as code", () => {
  it.each(BOTH_WAYS)(
    "export, edit a subject, plan exactly that, apply touching no other template, promote, Production plans to zero (%s)",
    async (way) => {
      const { handle, call, workspace, cli, workflowId } = await organization();

      const exported = await cli("export", "--dir", ".");
      expect(exported.code, exported.stderr).toBe(0);
      const workflowsYaml = await workspace.read("workflows.yaml");
      expect(workflowsYaml).toContain("name: email-customer");
      expect(workflowsYaml).toContain("file: templates/order-shipped-content/email-customer.html");
      expect(await workspace.read("templates/order-shipped-content/email-customer.html")).toBe(EMAIL_HTML);
      const zero = await cli("plan", "--detailed-exitcode");
      expect(zero.stdout, zero.stderr).toContain("No changes.");
      expect(zero.code).toBe(0);

      // The pull request: one subject edited, and environments to plan each with its own key.
      await workspace.write(
        "workflows.yaml",
        workflowsYaml.replace(
          "subject: Your order {{orderId}} shipped",
          'subject: "Shipped: order {{orderId}}"',
        ),
      );
      const root = (await workspace.read("notiform.yaml")).replace(/^serverEnvironment: .*\n/m, "");
      await workspace.write(
        "notiform.yaml",
        `${root}environments:\n  development:\n    apiKeyEnv: NOTIFORM_API_KEY_DEVELOPMENT\n  production:\n    apiKeyEnv: NOTIFORM_API_KEY_PRODUCTION\n`,
      );

      const json = await cli("plan", "--env", "development", "--detailed-exitcode", "--output", "json");
      expect(json.code, json.stderr).toBe(2);
      const plan = JSON.parse(json.stdout);
      const validate = validatorOf("plan");
      expect(validate(plan), JSON.stringify(validate.errors)).toBe(true);
      expect(plan.actions.map((a: { id: string; op: string }) => [a.id, a.op])).toEqual([
        ["workflow/order-shipped-content", "update"],
      ]);
      expect(plan.actions[0].changes).toEqual([
        {
          field: 'steps["email-customer"].template.subject',
          old: "Your order {{orderId}} shipped",
          new: "Shipped: order {{orderId}}",
        },
      ]);
      const markdown = await cli("plan", "--env", "development", "--output", "markdown");
      expect(markdown.stdout).toContain(
        '`step email-customer  subject: "Your order {{orderId}} shipped" -> "Shipped: order {{orderId}}"`',
      );

      const before = (await call("GET", `/v1/workflows/${workflowId}`)).data.steps as LiveStep[];
      handle.clearRequests();
      const applied = await applyWay(cli, way, "--env", "development");
      // What the server answered holds exactly what was asked: no "the server kept" warning.
      expect(applied.stdout + applied.stderr).not.toContain("the server kept");
      const writes = handle.requests.filter((r) => r.method !== "GET");
      expect(writes.map((r) => `${r.method} ${r.path}`)).toEqual([`PUT /v1/workflows/${workflowId}`]);
      const after = (await call("GET", `/v1/workflows/${workflowId}`)).data.steps as LiveStep[];
      // Every step kept its template; only the subject differs.
      expect(after.map((s) => s._templateId)).toEqual(before.map((s) => s._templateId));
      const content = (steps: LiveStep[]) =>
        steps.map((s) => ({ ...s.template, updatedAt: undefined, subject: undefined }));
      expect(content(after)).toEqual(content(before));
      expect(after[0]?.template.subject).toBe("Shipped: order {{orderId}}");
      const again = await cli("plan", "--env", "development", "--detailed-exitcode");
      expect(again.stdout, again.stderr).toContain("No changes.");

      // Production is behind until promotion: its plan says so and sends nothing for the workflow
      // (topics and tenants are per environment: apply creates them there).
      const behind = await cli("plan", "--env", "production", "--detailed-exitcode", "--output", "json");
      const production = JSON.parse(behind.stdout);
      const workflowActions = production.actions.filter((a: { kind: string }) => a.kind === "workflow");
      expect(
        workflowActions.map((a: { id: string; op: string; requests: unknown[] }) => [a.id, a.op, a.requests]),
      ).toEqual([["workflow/order-shipped-content", "not-applicable", []]]);
      expect(workflowActions[0].reason).toContain("arrives by promotion");
      expect(workflowActions[0].changes).toEqual(plan.actions[0].changes);
      handle.clearRequests();
      await applyWay(cli, way, "--env", "production");
      expect(handle.requests.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`)).toEqual([
        "POST /v1/topics",
        "POST /v1/topics",
        "POST /v1/tenants",
        "POST /v1/tenants",
        "POST /v1/tenants",
      ]);

      await promoteWay(cli, way, "--env", "development");
      const settled = await cli("plan", "--env", "production", "--detailed-exitcode");
      expect(settled.stdout, settled.stderr).toContain("No changes.");
      expect(settled.code).toBe(0);
      expect(readFileSync(join(workspace.dir, "notiform.yaml"), "utf8")).toContain("environments:");
    },
  );
});

describe("reading workflow content", () => {
  const config = (managed: string[]) => `version: 1
organization: Acme Inc
workflows:
${["order-shipped", "password-reset", "weekly-digest"]
  .map(
    (identifier) =>
      `  - identifier: ${identifier}\n${managed.includes(identifier) ? "    steps:\n      - name: text\n        type: sms\n        template: { content: Hi }\n" : ""}`,
  )
  .join("")}`;

  it.each([
    [
      "every listed workflow's content is managed: read by id while the config loads",
      ["order-shipped", "password-reset", "weekly-digest"],
    ],
    ["one of three is managed: only that one is read by id", ["password-reset"]],
  ])("reads each content-managed workflow once: %s", async (_, managed) => {
    const { emulator: handle, cli } = await cliTest({ config: config(managed), flavor: "real" });
    const result = await cli("plan");
    expect(result.code, result.stderr).toBe(0);
    const byId = handle.requests
      .filter((r) => /^\/v1\/workflows\/[0-9a-f]{24}$/.test(r.path))
      .map((r) => r.path);
    const ids = managed.map(
      (identifier) =>
        handle.store("development").workflows.find((w) => w.triggers[0]?.identifier === identifier)?._id,
    );
    expect(byId.sort()).toEqual(ids.map((id) => `/v1/workflows/${id}`).sort());
    // Each planned as a change: its one step would be added.
    for (const identifier of managed) expect(result.stdout).toContain(`~ workflow ${identifier}`);
  });
});

describe("creating a workflow with its content", () => {
  const CONFIG = `${twoEnvironmentsConfig("Acme Inc")}workflows:
  - identifier: welcome-flow
    name: Welcome
    tags: [onboarding]
    steps:
      - name: hello
        type: email
        template:
          subject: "Welcome {{firstName}}"
          content: { file: templates/hello.html }
      - name: nudge
        type: in_app
        template: { content: "Say hello" }
`;

  async function setup() {
    const files = { "notiform.yaml": CONFIG, "templates/hello.html": "<p>Hi</p>\n" };
    const test = await cliTest({ files, flavor: "real" });
    return { ...test, handle: test.emulator };
  }

  it("creates it in Development (POST, then its identifier), records no leftover intent, and plans to zero", async () => {
    const { handle, workspace, cli, json } = await setup();
    const plan = await json(["plan", "--env", "development"], { schema: "plan" });
    const [action] = plan.value.actions;
    expect(action).toMatchObject({ id: "workflow/welcome-flow", op: "create" });
    expect(action.requests).toEqual([
      {
        method: "POST",
        path: "/v1/workflows",
        body: {
          name: "Welcome",
          notificationGroupId: handle
            .store("development")
            .notificationGroups.find((g) => g.name === "General")?._id,
          tags: ["onboarding"],
          active: true,
          steps: [
            {
              name: "hello",
              active: true,
              template: {
                name: "hello",
                type: "email",
                subject: "Welcome {{firstName}}",
                content: "<p>Hi</p>\n",
                contentType: "customHtml",
              },
            },
            {
              name: "nudge",
              active: true,
              template: { name: "nudge", type: "in_app", content: "Say hello" },
            },
          ],
        },
      },
      // The server makes "welcome" from the name: the plan lists the PUT that sets the config's.
      {
        method: "PUT",
        path: "/v1/workflows/<id this create answers>",
        body: { identifier: "welcome-flow" },
        when: "the identifier the server made from the name is another",
      },
    ]);
    handle.clearRequests();
    const applied = await cli("apply", "--env", "development", "--auto-approve");
    expect(applied.code, applied.stderr).toBe(0);
    const created = handle.store("development").workflows.find((w) => w.name === "Welcome");
    expect(handle.requests.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /v1/workflows",
      `PUT /v1/workflows/${created?._id}`,
    ]);
    expect(created?.triggers[0]?.identifier).toBe("welcome-flow");
    const state = JSON.parse(await workspace.read("notiform.development.state.json"));
    expect(state.intents ?? {}).toEqual({});
    const again = await cli("plan", "--env", "development", "--detailed-exitcode");
    expect(again.stdout, again.stderr).toContain("No changes.");
    // Production has no such workflow until it is promoted: nothing is created there.
    const production = await json(["plan", "--env", "production"]);
    expect(production.value.actions).toEqual([
      expect.objectContaining({ id: "workflow/welcome-flow", op: "not-applicable", requests: [] }),
    ]);
  });

  it("in Production, one not promoted yet arrives by promotion, named or not", async () => {
    const { workspace, cli } = await setup();
    await workspace.write("notiform.yaml", CONFIG.replace("    name: Welcome\n", ""));
    const production = await cli("plan", "--env", "production", "--detailed-exitcode", "--output", "json");
    expect(production.code, production.stderr).toBe(0);
    expect(JSON.parse(production.stdout).actions).toEqual([
      expect.objectContaining({ id: "workflow/welcome-flow", op: "not-applicable", requests: [] }),
    ]);
    // In Development it needs a name to be created.
    const development = await cli("plan", "--env", "development");
    expect(development.code).toBe(1);
    expect(development.stderr).toContain("give it a name: to have notiform create it");
  });

  it("never creates it twice after a create whose answer was lost: uncertain until resolved", async () => {
    const { handle, workspace, cli, json, call } = await setup();
    handle.injectFault({ method: "POST", path: "/v1/workflows", kind: "lost-response" });
    const lost = await cli("apply", "--env", "development", "--auto-approve");
    // The server may have changed: exit 3, the create uncertain.
    expect(lost.code).toBe(3);
    expect(lost.stdout + lost.stderr).toContain("notiform resolve workflow/welcome-flow --id ID");
    const state = JSON.parse(await workspace.read("notiform.development.state.json"));
    expect(Object.keys(state.intents ?? {})).toEqual(["workflow/welcome-flow"]);
    const made = () => handle.store("development").workflows.filter((w) => w.name === "Welcome");
    expect(made().map((w) => w.triggers[0]?.identifier)).toEqual(["welcome"]);

    // The plan cannot know it is ours (its identifier is still the server's slug): uncertain.
    const [action] = (await json(["plan", "--env", "development"])).value.actions;
    expect(action).toMatchObject({ id: "workflow/welcome-flow", op: "uncertain", requests: [] });
    expect(action.reason).toContain('a workflow named "Welcome" exists');
    const refused = await cli("apply", "--env", "development", "--auto-approve");
    expect(refused.code).toBe(1);
    expect(made()).toHaveLength(1);

    // Deleted in the dashboard and resolved as not created: the next apply creates it, once.
    await call("DELETE", `/v1/workflows/${made()[0]?._id}`);
    const resolved = await runCli(
      ["resolve", "workflow/welcome-flow", "--not-created", "--env", "development"],
      {
        cwd: workspace.dir,
      },
    );
    expect(resolved.code, resolved.stderr).toBe(0);
    const applied = await cli("apply", "--env", "development", "--auto-approve");
    expect(applied.code, applied.stderr).toBe(0);
    expect(made().map((w) => w.triggers[0]?.identifier)).toEqual(["welcome-flow"]);
  });

  it("after a create whose answer was lost, resolve --id adopts the workflow it made: its identifier set, never a second one", async () => {
    const { handle, workspace, cli, json } = await setup();
    handle.injectFault({ method: "POST", path: "/v1/workflows", kind: "lost-response" });
    expect((await cli("apply", "--env", "development", "--auto-approve")).code).toBe(3);
    const made = () => handle.store("development").workflows.filter((w) => w.name === "Welcome");
    const id = made()[0]?._id ?? "";
    expect((await json(["plan", "--env", "development"])).value.actions[0].op).toBe("uncertain");

    const resolve = (...args: string[]) =>
      runCli(["resolve", ...args, "--env", "development"], { cwd: workspace.dir });
    const bad = await resolve("workflow/welcome-flow", "--id", "zzz");
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--id "zzz" is not a server id (24 hex characters)');
    const resolved = await resolve("workflow/welcome-flow", "--id", id);
    expect(resolved.code, resolved.stderr).toBe(0);
    expect(resolved.stderr).toContain(
      "the next plan adopts it and sets its trigger identifier to welcome-flow",
    );

    // The plan adopts it: the identifier the server made from the name is set to the config's.
    const [adopted] = (await json(["plan", "--env", "development"])).value.actions;
    expect(adopted).toMatchObject({ id: "workflow/welcome-flow", op: "update" });
    expect(adopted.changes).toContainEqual(
      expect.objectContaining({ field: "identifier", old: "welcome", new: "welcome-flow" }),
    );
    handle.clearRequests();
    const applied = await cli("apply", "--env", "development", "--auto-approve");
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    expect(handle.requests.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`)).toEqual([
      `PUT /v1/workflows/${id}`,
    ]);
    expect(made().map((w) => [w._id, w.triggers[0]?.identifier])).toEqual([[id, "welcome-flow"]]);
    const state = JSON.parse(await workspace.read("notiform.development.state.json"));
    expect(state.intents ?? {}).toEqual({});
    const again = await cli("plan", "--env", "development", "--detailed-exitcode");
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });
});

describe("workflow content on a server that serves the spec alone", () => {
  it("says the content is not applicable there and sends nothing for it", async () => {
    const { json } = await cliTest({
      strictSpec: true,
      config: `version: 1
organization: Acme Inc
workflows:
  - key: shipped
    id: 64f1c0ffee0000000000a001
    steps:
      - name: text
        type: sms
        template: { content: Hi }
`,
    });
    const result = await json(["plan"]);
    expect(result.code, result.stderr).toBe(0);
    const [action] = result.value.actions;
    expect(action).toMatchObject({ id: "workflow/shipped", requests: [] });
    expect(action.reason).toContain("workflow content needs the server's workflow read");
  });
});

describe("a saved plan of workflow content", () => {
  it("applies exactly it, and refuses it once the step it changes moved on the server", async () => {
    const id = "64f1c0ffee0000000000a001";
    const {
      emulator: handle,
      call,
      cli,
    } = await cliTest({
      flavor: "real",
      config: `version: 1
organization: Acme Inc
workflows:
  - identifier: order-shipped
    steps:
      - name: text
        type: sms
        template: { content: "Hello" }
`,
    });
    const put = (steps: unknown) => call("PUT", `/v1/workflows/${id}`, { steps });
    await put([{ name: "text", template: { type: "sms", content: "Hi" } }]);
    expect((await cli("plan", "--out", "plan.json")).code).toBe(0);
    await put([{ name: "text", template: { type: "sms", content: "Edited in the dashboard" } }]);
    const stale = await cli("apply", "plan.json");
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('steps["text"].template.content');
    expect((await cli("plan", "--out", "plan.json")).code).toBe(0);
    const applied = await cli("apply", "plan.json");
    expect(applied.code, applied.stderr).toBe(0);
    const steps = handle.store("development").workflows.find((w) => w._id === id)?.steps ?? [];
    expect(steps.map((s) => s.template?.content)).toEqual(["Hello"]);
  });
});

describe("a step's layout, named by identifier", () => {
  const BRAND = "e0bbbbbbbbbbbbbbbbbbbbbb";
  const DEFAULT = "e0aaaaaaaaaaaaaaaaaaaaaa";
  const config = (layout: string) => `version: 1
organization: Acme Inc
workflows:
  - identifier: order-shipped
    steps:
      - name: mail
        type: email
        template:
          subject: Shipped
          content: "<p>Shipped</p>"
          layout: ${layout}
`;

  async function setup(layout: string) {
    const test = await cliTest({ config: config(layout), flavor: "real" });
    const handle = test.emulator;
    (handle.store("development") as unknown as { layouts: unknown[] }).layouts = [
      {
        _id: DEFAULT,
        identifier: "novu-default-layout",
        isDefault: true,
        content: "<html>{{{body}}}</html>",
      },
      { _id: BRAND, identifier: "brand", isDefault: false, content: "<main>{{{body}}}</main>" },
    ];
    // The step as the dashboard made it: no layout chosen, so the default one.
    await test.call("PUT", "/v1/workflows/64f1c0ffee0000000000a001", {
      steps: [
        {
          name: "mail",
          template: {
            type: "email",
            subject: "Shipped",
            content: "<p>Shipped</p>",
            contentType: "customHtml",
          },
        },
      ],
    });
    handle.clearRequests();
    return { ...test, handle };
  }

  it("is compared by identifier and written as the layout's id", async () => {
    const { handle, cli } = await setup("brand");
    const plan = await cli("plan");
    expect(plan.stdout, plan.stderr).toContain('step mail  layout: "novu-default-layout" -> "brand"');
    handle.clearRequests();
    expect((await cli("apply", "--auto-approve")).code).toBe(0);
    const put = handle.requests.find((r) => r.method === "PUT");
    const body = put?.body as { steps: { template: { layoutId?: string } }[] } | undefined;
    expect(body?.steps[0]?.template.layoutId).toBe(BRAND);
    const step = handle.store("development").workflows[0]?.steps[0];
    expect(step?.template?._layoutId).toBe(BRAND);
    expect((await cli("plan", "--detailed-exitcode")).code).toBe(0);
  });

  it("is exported by identifier and plans back to zero", async () => {
    const { cli, run, workspace } = await setup("brand");
    expect((await cli("export", "--dir", "exported")).code).toBe(0);
    expect(await workspace.read("exported/workflows.yaml")).toContain("layout: novu-default-layout");
    const plan = await run(["plan", "--detailed-exitcode"], { cwd: workspace.path("exported") });
    expect(plan.stdout, plan.stderr).toContain("No changes.");
  });

  it("refuses a layout the server does not have, at its line", async () => {
    const { handle, cli } = await setup("no-such-layout");
    const plan = await cli("plan");
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain("notiform.yaml:11:19");
    expect(plan.stderr).toContain('no layout with identifier "no-such-layout"');
    expect(handle.requests.filter((r) => r.method !== "GET")).toEqual([]);
  });
});
