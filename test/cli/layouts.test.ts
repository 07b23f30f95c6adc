// Layouts as a managed kind, end to end through the CLI against the emulator (real flavor, both
// environments): validate refuses content without {{{body}}} and two defaults (file:line); a
// layout with its content in a file applies in Development (POST answering the id only, then the
// set-default route), plans to zero; Production's plan says it arrives by promotion and sends
// nothing; promote; Production plans to zero. An existing layout newly marked the default is one
// set-default request. Export writes layouts with their content as files and plans back to zero.
// Layouts the config does not name are listed, never deleted.
import { describe, expect, it } from "vitest";
import { applyWay, BOTH_WAYS, promoteWay } from "../support/both-ways.js";
import { cliTests, runCli, twoEnvironmentsConfig } from "../support/cli.js";

const cliTest = cliTests();

const HTML = "<html><body><main>{{{body}}}</main><footer>{{footer}}</footer></body></html>\n";

const CONFIG = `${twoEnvironmentsConfig("Acme Inc")}layouts:
  - identifier: brand
    name: Brand
    description: The brand frame
    content: { file: layouts/brand.html }
    variables:
      - { name: footer, defaultValue: "Acme Inc" }
    isDefault: true
`;

/** Both environments, the real flavor. */
const setUp = (files: Record<string, string>) => cliTest({ files, flavor: "real" });

describe("layouts as code", () => {
  it("validate refuses content without {{{body}}} and two defaults, at file:line", async () => {
    const { workspace } = await setUp({
      "notiform.yaml": `version: 1
organization: Acme Inc
layouts:
  - identifier: one
    content: "<p>{{body}}</p>"
    isDefault: true
  - identifier: two
    content: "<p>{{{body}}}</p>"
    isDefault: true
`,
    });
    const result = await runCli(["validate"], { cwd: workspace.dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("notiform.yaml:5:14");
    expect(result.stderr).toContain("content must contain {{{body}}}");
    expect(result.stderr).toMatch(/notiform\.yaml:9:\d+ .*two layouts are marked isDefault: true/);
    expect(result.stderr).not.toContain("    at ");
  });

  it("a layout the server does not have and the config gives no content is refused at plan, nothing sent", async () => {
    // POST /v1/layouts needs content (CreateLayoutRequestDto: IsDefined); the apply would fail there.
    const { emulator, cli } = await setUp({
      "notiform.yaml": `version: 1
organization: Acme Inc
layouts:
  - identifier: bare
    name: Bare
`,
    });
    const result = await cli("plan");
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain("notiform.yaml:4:");
    expect(result.stderr).toContain(
      "layout bare: not on the server, and it has no content to create it with",
    );
    expect((await cli("apply", "--auto-approve")).code).toBe(1);
    expect(emulator.requests.filter((r) => r.method !== "GET")).toEqual([]);
    expect(emulator.requests.filter((r) => r.method !== "GET")).toEqual([]);
  });

  it.each(BOTH_WAYS)(
    "applies in Development, plans to zero; Production: arrives by promotion, then zero (%s)",
    async (way) => {
      const { emulator, cli, json } = await setUp({ "notiform.yaml": CONFIG, "layouts/brand.html": HTML });
      const planned = await json(["plan", "--env", "development"], { schema: "plan" });
      expect(planned.code, planned.stderr).toBe(0);
      const plan = planned.value;
      expect(plan.actions.map((a: { id: string; op: string }) => [a.id, a.op])).toEqual([
        ["layout/brand", "create"],
      ]);
      // The set-default route on the id the create answers: shown in the plan as apply sends it.
      expect(
        plan.actions[0].requests.map((r: { method: string; path: string }) => `${r.method} ${r.path}`),
      ).toEqual(["POST /v1/layouts", "POST /v1/layouts/<id of layout/brand>/default"]);
      expect(
        plan.unmanaged
          .filter((u: { kind: string }) => u.kind === "layout")
          .map((u: { key: string }) => u.key),
      ).toEqual(["novu-default-layout"]);
      emulator.clearRequests();
      await applyWay(cli, way, "--env", "development");
      const writes = emulator.requests
        .filter((r) => r.method !== "GET")
        .map((r) => `${r.method} ${r.path.replace(/[0-9a-f]{24}/, "ID")}`);
      expect(writes).toEqual(["POST /v1/layouts", "POST /v1/layouts/ID/default"]);
      const layouts = emulator.store("development").layouts ?? [];
      const brand = layouts.find((l) => l.identifier === "brand");
      expect(brand).toMatchObject({ content: HTML, isDefault: true, description: "The brand frame" });
      expect(layouts.find((l) => l.identifier === "novu-default-layout")).toMatchObject({
        isDefault: false,
        deleted: false,
      });
      const zero = await cli("plan", "--env", "development", "--detailed-exitcode");
      expect(zero.stdout, zero.stderr).toContain("No changes.");

      const behind = (await json(["plan", "--env", "production"])).value;
      const layoutActions = behind.actions.filter((a: { kind: string }) => a.kind === "layout");
      expect(layoutActions.map((a: { op: string; requests: unknown[] }) => [a.op, a.requests])).toEqual([
        ["not-applicable", []],
      ]);
      expect(layoutActions[0].reason).toContain("arrives by promotion");

      const promoted = await promoteWay(cli, way, "--env", "development");
      expect(promoted.stdout + promoted.stderr).toContain("brand");
      const copy = (emulator.store("production").layouts ?? []).find((l) => l.identifier === "brand");
      expect(copy).toMatchObject({ _parentId: brand?._id, content: HTML, isDefault: true });
      const settled = await cli("plan", "--env", "production", "--detailed-exitcode");
      expect(settled.stdout, settled.stderr).toContain("No changes.");
    },
  );

  it("an existing workflow whose email switches to a layout created in the same apply gets its new id", async () => {
    const config = `${CONFIG}workflows:
  - identifier: order-shipped
    steps:
      - name: email-customer
        type: email
        template: { subject: Shipped, content: "<p>On its way</p>", layout: brand }
`;
    const { emulator, cli, json } = await setUp({ "notiform.yaml": config, "layouts/brand.html": HTML });
    const plan = (await json(["plan", "--env", "development"])).value;
    const workflow = plan.actions.find((a: { id: string }) => a.id === "workflow/order-shipped");
    expect([workflow.op, workflow.dependsOn]).toEqual(["update", ["layout/brand"]]);
    expect(workflow.requests[0].method).toBe("PUT");
    expect(workflow.requests[0].refs).toEqual([
      { field: "steps[0].template.layoutId", action: "layout/brand" },
    ]);
    const applied = await cli("apply", "--env", "development", "--auto-approve");
    expect(applied.code, applied.stderr).toBe(0);
    const development = emulator.store("development");
    const brand = development.layouts?.find((l) => l.identifier === "brand");
    const step = development.workflows.find((w) => w._id === "64f1c0ffee0000000000a001")?.steps[0];
    expect(step?.template?._layoutId).toBe(brand?._id);
    const zero = await cli("plan", "--env", "development", "--detailed-exitcode");
    expect(zero.stdout, zero.stderr).toContain("No changes.");
  });

  it("an existing layout newly marked isDefault: true is one set-default request, and then plans to zero", async () => {
    const notDefault = CONFIG.replace("    isDefault: true\n", "");
    const { emulator, workspace, cli, json } = await setUp({
      "notiform.yaml": notDefault,
      "layouts/brand.html": HTML,
    });
    expect((await cli("apply", "--env", "development", "--auto-approve")).code).toBe(0);
    const brand = () => emulator.store("development").layouts?.find((l) => l.identifier === "brand");
    expect(brand()?.isDefault).toBe(false);

    await workspace.write("notiform.yaml", CONFIG);
    const plan = (await json(["plan", "--env", "development"])).value;
    expect(plan.actions.map((a: { id: string; op: string }) => [a.id, a.op])).toEqual([
      ["layout/brand", "update"],
    ]);
    expect(plan.actions[0].requests).toEqual([
      { method: "POST", path: `/v1/layouts/${brand()?._id}/default`, body: {} },
    ]);
    emulator.clearRequests();
    const applied = await cli("apply", "--env", "development", "--auto-approve");
    expect(applied.code, applied.stderr).toBe(0);
    expect(emulator.requests.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`)).toEqual([
      `POST /v1/layouts/${brand()?._id}/default`,
    ]);
    expect(brand()?.isDefault).toBe(true);
    const others = emulator.store("development").layouts?.filter((l) => l.identifier !== "brand") ?? [];
    expect(others.map((l) => l.isDefault)).toEqual(others.map(() => false));
    const zero = await cli("plan", "--env", "development", "--detailed-exitcode");
    expect(zero.stdout, zero.stderr).toContain("No changes.");
    expect(zero.code).toBe(0);
  });

  it("a new layout whose content uses names its variables do not list is created, then its variables patched, and plans to zero", async () => {
    // The server derives a new layout's variables from its content (here it would add
    // branding.logo, and footer twice); PATCH keeps them as sent.
    const content = '<img src="{{branding.logo}}">{{{body}}}<p>{{footer}}</p><p>{{footer}}</p>';
    const config = `${twoEnvironmentsConfig("Acme Inc")}layouts:
  - identifier: framed
    content: '${content}'
    variables:
      - { name: footer, defaultValue: "Acme Inc" }
`;
    const { emulator, cli, json } = await setUp({ "notiform.yaml": config });
    const plan = (await json(["plan", "--env", "development"], { schema: "plan" })).value;
    const variables = [{ name: "footer", type: "String", required: false, defaultValue: "Acme Inc" }];
    expect(plan.actions[0].requests).toEqual([
      {
        method: "POST",
        path: "/v1/layouts",
        body: { identifier: "framed", name: "framed", content, variables },
      },
      { method: "PATCH", path: "/v1/layouts/<id of layout/framed>", body: { variables } },
    ]);
    const applied = await cli("apply", "--env", "development", "--auto-approve");
    expect(applied.code, applied.stderr).toBe(0);
    const framed = emulator.store("development").layouts?.find((l) => l.identifier === "framed");
    expect(framed?.variables?.map(({ name, defaultValue }) => ({ name, defaultValue }))).toEqual([
      { name: "footer", defaultValue: "Acme Inc" },
    ]);
    const zero = await cli("plan", "--env", "development", "--detailed-exitcode");
    expect(zero.stdout, zero.stderr).toContain("No changes.");
  });

  it("an emptied description is said not applied (the server ignores an empty one) while the other fields change; a layout is customHtml", async () => {
    const config = (description: string, name: string) => `${twoEnvironmentsConfig("Acme Inc")}layouts:
  - identifier: brand
    name: ${name}
    description: "${description}"
    content: "<main>{{{body}}}</main>"
`;
    const { emulator, workspace, cli, run } = await setUp({
      "notiform.yaml": config("The brand frame", "Brand"),
    });
    expect((await cli("apply", "--env", "development", "--auto-approve")).code).toBe(0);
    const brand = () => emulator.store("development").layouts?.find((l) => l.identifier === "brand");

    await workspace.write("notiform.yaml", config("", "Brand 2"));
    const applied = await cli("apply", "--env", "development", "--auto-approve");
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout + applied.stderr).toContain('layout brand: description "" is not applied');
    expect(brand()).toMatchObject({ name: "Brand 2", description: "The brand frame" });
    const plan = await cli("plan", "--env", "development", "--no-color");
    expect(plan.stdout, plan.stderr).toContain("it cannot be cleared over the API");
    expect(plan.stdout).toContain("0 to create, 0 to update");

    await workspace.write("notiform.yaml", `${config("x", "Brand")}    contentType: editor\n`);
    const validate = await run(["validate"], { url: null });
    expect(validate.code).toBe(1);
    expect(validate.stderr).toContain('layouts[0].contentType: must be "customHtml", got "editor"');
  });

  it("the default moved to another layout, the old one's other fields changed too: one apply converges", async () => {
    const moved = `${CONFIG}  - identifier: novu-default-layout
    name: Old default
    isDefault: false
`;
    const { emulator, cli } = await setUp({ "notiform.yaml": moved, "layouts/brand.html": HTML });
    const applied = await cli("apply", "--env", "development", "--auto-approve");
    expect(applied.code, applied.stderr).toBe(0);
    const layouts = emulator.store("development").layouts ?? [];
    expect(layouts.find((l) => l.identifier === "novu-default-layout")).toMatchObject({
      name: "Old default",
      isDefault: false,
    });
    expect(layouts.find((l) => l.identifier === "brand")?.isDefault).toBe(true);
    const zero = await cli("plan", "--env", "development", "--detailed-exitcode");
    expect(zero.stdout, zero.stderr).toContain("No changes.");
  });

  it("isDefault false with no new default: said not applied, while a workflow naming the layout is created and its other fields change", async () => {
    const config = (name: string) => `${twoEnvironmentsConfig("Acme Inc")}layouts:
  - identifier: novu-default-layout
    ${name === "" ? "" : `name: ${name}`}
    isDefault: false
workflows:
  - identifier: welcome
    name: Welcome
    steps:
      - name: mail
        type: email
        template: { subject: Hi, content: "<p>Hi</p>", layout: novu-default-layout }
`;
    const { emulator, workspace, cli } = await setUp({ "notiform.yaml": config("") });
    const store = emulator.store("development");
    const layout = () => store.layouts?.find((l) => l.identifier === "novu-default-layout");
    // The layout sends nothing, and the workflow that names it does not wait on it.
    const applied = await cli("apply", "--env", "development", "--auto-approve");
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain("a layout stops being the default only when another becomes it");
    expect(applied.stdout).toContain("1 applied");
    const workflow = store.workflows.find((w) => w.triggers?.[0]?.identifier === "welcome");
    expect(workflow?.steps[0]?.template?._layoutId).toBe(layout()?._id);

    // A change of another field is made; isDefault is named as not applied.
    await workspace.write("notiform.yaml", config("Renamed"));
    const renamed = await cli("apply", "--env", "development", "--auto-approve");
    expect(renamed.code, renamed.stderr).toBe(0);
    expect(renamed.stdout + renamed.stderr).toContain(
      "layout novu-default-layout: isDefault false is not applied",
    );
    expect(layout()).toMatchObject({ name: "Renamed", isDefault: true });
    const plan = await cli("plan", "--env", "development", "--no-color");
    expect(plan.stdout, plan.stderr).toContain("0 to create, 0 to update");
  });

  it("an edited content file is one PATCH of content; export writes content as files and plans back to zero", async () => {
    const { emulator, workspace, cli, json, run } = await setUp({
      "notiform.yaml": CONFIG,
      "layouts/brand.html": HTML,
    });
    expect((await cli("apply", "--env", "development", "--auto-approve")).code).toBe(0);
    await workspace.write("layouts/brand.html", HTML.replace("<main>", '<main class="x">'));
    const plan = (await json(["plan", "--env", "development"])).value;
    expect(plan.actions.map((a: { id: string; op: string }) => [a.id, a.op])).toEqual([
      ["layout/brand", "update"],
    ]);
    expect(plan.actions[0].changes.map((c: { field: string }) => c.field)).toEqual(["content"]);
    expect(plan.actions[0].requests[0].method).toBe("PATCH");
    expect(Object.keys(plan.actions[0].requests[0].body)).toEqual(["content"]);
    expect((await cli("apply", "--env", "development", "--auto-approve")).code).toBe(0);
    expect(
      (emulator.store("development").layouts ?? []).find((l) => l.identifier === "brand")?.content,
    ).toContain('class="x"');

    const exported = await cli("export", "--env", "development", "--dir", "exported");
    expect(exported.code, exported.stderr).toBe(0);
    const yaml = await workspace.read("exported/layouts.yaml");
    expect(yaml).toContain("file: layouts/brand.html");
    expect(await workspace.read("exported/layouts/brand.html")).toContain('class="x"');
    // The export names the environment it read (development): plan it with --env.
    const zero = await run(["plan", "--env", "development", "--detailed-exitcode"], {
      cwd: workspace.path("exported"),
    });
    expect(zero.stdout, zero.stderr).toContain("No changes.");
  });
});
