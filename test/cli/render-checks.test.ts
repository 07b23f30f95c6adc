// A template that fails the render checks stops validate, plan and apply (exit 1) before anything
// is sent to the server: the typo'd helper is refused at its line in the template file, once,
// with no stack trace, and the emulator receives no write. Warnings do not block.
import { describe, expect, it } from "vitest";
import { cliTests, createWorkspace, runCli } from "../support/cli.js";

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
      'layouts/brand.html:4:13  error  Missing helper: "upercase" (did you mean "uppercase"?)',
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

  it("a warning (a variable no preview example supplies) does not block validate", async () => {
    const workspace = await createWorkspace({
      "notiform.yaml": `version: 1
workflows:
  - key: w
    identifier: w
    name: W
    preview: { payload: { code: 1 } }
    steps:
      - name: sms
        type: sms
        template: { content: "Code {{code}} for {{name}}" }
`,
    });
    const validate = await runCli(["validate"], { cwd: workspace.dir });
    expect(validate.code, validate.stderr).toBe(0);
    expect(validate.stderr).toContain("warning  no preview example supplies this variable: name");
  });
});
