// A template that fails the render checks stops validate, plan and apply (exit 1) before anything
// is sent to the server: the typo'd helper is refused at its line in the template file, once,
// with no stack trace, and the emulator receives no write. Warnings do not block.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliTests, runCli } from "../support/cli.js";

const cliTest = cliTests();

const CONFIG = `version: 1
organization: Acme Inc
layouts:
  - identifier: brand
    name: Brand
    content: { file: layouts/brand.html }
`;

describe("render checks through the CLI", () => {
  it("validate, plan and apply refuse a typo'd helper at its line in the template file; nothing is written", async () => {
    const {
      emulator: handle,
      workspace,
      cli: run,
    } = await cliTest({
      flavor: "real",
      files: {
        "notiform.yaml": CONFIG,
        "layouts/brand.html":
          "<html>\n<body>\n  {{{body}}}\n  <footer>{{upercase company}}</footer>\n</body>\n</html>\n",
      },
      env: (keys) => ({ NOTIFORM_API_KEY: keys.development }),
    });

    const validate = await runCli(["validate"], { cwd: workspace.dir });
    expect(validate.code).toBe(1);
    expect(validate.stderr).toContain(
      'layouts/brand.html:4:13  error  layouts[0].content: Missing helper: "upercase" (did you mean "uppercase"?)',
    );
    expect(validate.stderr).not.toContain("    at ");

    const plan = await run("plan");
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain("layouts/brand.html:4:13");

    const apply = await run("apply", "--auto-approve");
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('Missing helper: "upercase"');
    expect(handle.requests.filter((r) => r.method !== "GET")).toEqual([]);
  });

  it("a warning (a variable no preview example supplies) blocks nothing and drops nothing: the template reaches preview and the server as written", async () => {
    const content = "Code {{code}} for {{name}}";
    const {
      emulator: handle,
      workspace,
      cli: run,
    } = await cliTest({
      flavor: "real",
      files: {
        "notiform.yaml": `version: 1
workflows:
  - key: w
    identifier: w
    name: W
    preview: { payload: { code: 1 } }
    steps:
      - name: sms
        type: sms
        template: { content: "${content}" }
`,
      },
      env: (keys) => ({ NOTIFORM_API_KEY: keys.development }),
    });
    const validate = await runCli(["validate"], { cwd: workspace.dir });
    expect(validate.code, validate.stderr).toBe(0);
    expect(validate.stderr).toContain(
      "warning  workflows[0].steps[0].template.content: no preview example supplies this variable: name",
    );

    // The variable no example supplies renders empty; the rest of the text stays.
    const preview = await runCli(["preview", "--out", "site"], { cwd: workspace.dir });
    expect(preview.code, preview.stderr).toBe(0);
    const page = JSON.parse(await readFile(join(workspace.dir, "site/w/sms.json"), "utf8"));
    expect(page.examples[0].content).toBe("Code 1 for ");

    const plan = await run("plan", "--no-color");
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain(content);
    const apply = await run("apply", "--auto-approve");
    expect(apply.code, apply.stderr).toBe(0);
    const created = handle.requests.find((r) => r.method === "POST" && r.path === "/v1/workflows");
    expect(JSON.stringify(created?.body)).toContain(JSON.stringify(content));
  });
});
