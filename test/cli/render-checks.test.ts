// A template that fails the render checks stops validate, plan and apply (exit 1) before anything
// is sent to the server: the typo'd helper is refused at its line in the template file, once,
// with no stack trace, and the emulator receives no write. Warnings do not block.
import { afterEach, describe, expect, it } from "vitest";
import { type EmulatorHandle, startEmulator } from "../../src/emulator/index.js";
import { createWorkspace, runCli, SEED } from "../support/cli.js";

let emulator: EmulatorHandle | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const CONFIG = `version: 1
organization: Acme Inc
layouts:
  - identifier: brand
    name: Brand
    content: { file: layouts/brand.html }
`;

describe("render checks through the CLI", () => {
  it("validate, plan and apply refuse a typo'd helper at its line in the template file; nothing is written", async () => {
    emulator = await startEmulator({ seedFile: SEED, port: 0, flavor: "real" });
    const handle = emulator;
    const workspace = await createWorkspace({
      "notiform.yaml": CONFIG,
      "layouts/brand.html":
        "<html>\n<body>\n  {{{body}}}\n  <footer>{{upercase company}}</footer>\n</body>\n</html>\n",
    });
    const env = { NOTIFORM_API_KEY: handle.apiKey };
    const run = (...args: string[]) =>
      runCli([...args, "--api-url", handle.url], { cwd: workspace.dir, env });

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
