// Values from the environment that output holds only after something made another form of them:
// the pull-request comment's rendered messages ({{x}} escapes `=` as &#x3D;, {{uppercase x}}
// upper-cases it), the preview site's file names (a step named by a value is slugged into its
// path), a trigger identifier the server made from a name, a server's message quoting JSON that a
// JSON report escapes again. Found by the generative hunt (secrets-any-form.test.ts); each case
// here is one it found, fixed.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliTests, twoEnvironments } from "../support/cli.js";

const cliTest = cliTests();

const TOKEN = "Tok=Abc`Secret42";
const EMAIL_CONFIG = `version: 1
organization: Acme Inc
workflows:
  - identifier: token-mail
    name: Token mail
    preview: { payload: { token: "\${NF_TOKEN}" } }
    steps:
      - name: email
        type: email
        template:
          subject: "Your token {{token}} {{uppercase token}} {{lowercase token}}"
          content: "<p>{{token}}</p>"
          contentType: customHtml
`;

describe("the plan comment's rendered messages", () => {
  it("show a value from the environment masked, however the template prints it", async () => {
    const { cli } = await cliTest({
      config: EMAIL_CONFIG,
      env: (keys) => ({ NOTIFORM_API_KEY: keys.development, NF_TOKEN: TOKEN }),
    });
    const plan = await cli("plan", "--output", "markdown");
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain("#### Messages: 1 changed");
    expect(plan.stdout).toContain("Your token ******** ******** ********");
    for (const form of [
      "Tok&#x3D;Abc&#x60;Secret42",
      "TOK=ABC`SECRET42",
      "tok=abc`secret42",
      "Secret42",
      "SECRET42",
    ])
      expect(plan.stdout, form).not.toContain(form);
  });
});

describe("the preview site", () => {
  it("names no file or folder after a value from the environment (slugged, it is most of it)", async () => {
    // A key cannot come from the environment, but one may equal a value that does (NF_FLOW here).
    const config = `version: 1
workflows:
  - key: FlowSecret.77
    identifier: token-flow
    name: Flow \${NF_FLOW}
    steps:
      - name: "mail \${NF_STEP}"
        type: email
        template: { subject: "Hello", content: "<p>Hi</p>", contentType: customHtml }
      - name: "chat \${NF_STEP}"
        type: chat
        template: { content: "Hi" }
`;
    const { workspace, run } = await cliTest({
      config,
      env: () => ({ NF_STEP: "AbcSecret99=Xyz", NF_FLOW: "FlowSecret.77" }),
    });
    const preview = await run(["preview"], { url: null });
    expect(preview.code, preview.stderr).toBe(0);
    const folder = join(workspace.dir, "notiform-preview");
    const names = readdirSync(folder, { recursive: true, encoding: "utf8" });
    expect(names.length).toBeGreaterThan(5);
    const texts = names
      .filter((name) => /\.(html|json)$/.test(name))
      .map((name) => readFileSync(join(folder, name), "utf8"));
    for (const text of [...names, ...texts, preview.stdout, preview.stderr])
      for (const form of ["abcsecret99", "AbcSecret99", "flowsecret", "FlowSecret"])
        expect(text, form).not.toContain(form);
  });
});

describe("apply's report", () => {
  it("quotes no trigger identifier the server made from a name holding a value from the environment", async () => {
    const config = `version: 1
organization: Acme Inc
workflows:
  - identifier: plain-flow
    name: "Flow \${NF_NAME}"
    steps:
      - name: mail
        type: email
        template: { subject: "Hi", content: "<p>x</p>", contentType: customHtml }
`;
    const { cli, call } = await cliTest({
      config,
      env: (keys) => ({ NOTIFORM_API_KEY: keys.development, NF_NAME: "Tok=Abc`Secret42" }),
    });
    for (const output of ["text", "json"]) {
      const applied = await cli("apply", "--auto-approve", "--output", output);
      expect(applied.code, applied.stderr).toBe(0);
      expect(applied.stdout + applied.stderr).toContain("identifier set to plain-flow");
      expect((applied.stdout + applied.stderr).toLowerCase()).not.toContain("secret42");
      // Made again from the name by the next create.
      const made = await call("GET", "/v1/workflows/plain-flow");
      await call("PUT", `/v1/workflows/${made.data._id}`, { identifier: "renamed-away", name: "Other" });
    }
  });
});

/**
 * A topic named `${prefix} ${NF_TOKEN}` with NF_TOKEN = `token`, on a server that refuses each
 * topic create with `message(token)`; the CLI of that test.
 */
async function refusedTopic(prefix: string, token: string, message: (token: string) => unknown) {
  const config = `version: 1
organization: Acme Inc
topics:
  - key: quoted
    name: "${prefix} \${NF_TOKEN}"
`;
  const { cli, emulator } = await cliTest({
    config,
    env: (keys) => ({ NOTIFORM_API_KEY: keys.development, NF_TOKEN: token }),
  });
  emulator.injectFault({
    method: "POST",
    path: "/v1/topics",
    times: 10,
    kind: { status: 400, body: { message: message(token) } },
  });
  return cli;
}

describe("a JSON report of a refused write", () => {
  it("holds no value from the environment that the server quoted in JSON of its own", async () => {
    const cli = await refusedTopic(
      "Quoted",
      'Tok"Abc\\Secret42',
      (token) => `body ${JSON.stringify({ name: `Quoted ${token}` })} refused`,
    );
    const applied = await cli("apply", "--auto-approve", "--output", "json");
    expect(applied.code, applied.stderr).toBe(1);
    expect(applied.stdout).toContain("refused");
    expect(applied.stdout + applied.stderr).not.toContain("Secret42");
  });
});

describe("a refused write's message", () => {
  it("is masked whole however the server escapes a value, and never shown as raw text instead", async () => {
    // Ends in a backslash: masked inside the body's JSON text, its HTML form took one half of the
    // `\\` escape, the body no longer parsed, and its raw text was shown, where the value quoted
    // in JSON of the server's own is escaped twice.
    const cli = await refusedTopic("Q", 'Tok"Abc Secret42\\', (token) => [
      `<pre>${token.replace(/"/g, "&quot;")}</pre>`,
      `body ${JSON.stringify({ name: `Q ${token}` })} refused`,
    ]);
    for (const output of ["text", "json"]) {
      const applied = await cli("apply", "--auto-approve", "--output", output);
      expect(applied.code, applied.stderr).toBe(1);
      expect(applied.stdout + applied.stderr).toContain("refused");
      expect(applied.stdout + applied.stderr, output).not.toContain("Secret42");
    }
  });
});

describe("a JSON report of a refused promotion", () => {
  it("holds no value from the environment that the server quoted in JSON of its own", async () => {
    const token = 'Tok"Abc\\Secret42';
    const fresh = twoEnvironments("Fresh Inc");
    const config = `${fresh.header}workflows:
  - identifier: quoted
    name: "Quoted \${NF_TOKEN}"
`;
    const { run, emulator } = await cliTest({
      ...fresh.options,
      config,
      env: (keys) => ({ ...fresh.options.env?.(keys), NF_TOKEN: token }),
    });
    const applied = await run(["apply", "--env", "development", "--auto-approve"]);
    expect(applied.code, applied.stderr).toBe(0);
    const message = `change ${JSON.stringify({ name: `Quoted ${token}` })} refused`;
    for (const path of ["/v1/changes/*", "/v1/changes/bulk/apply"])
      emulator.injectFault({ method: "POST", path, times: 5, kind: { status: 400, body: { message } } });
    const promoted = await run(["promote", "--env", "development", "--auto-approve", "--output", "json"]);
    expect(promoted.code, promoted.stderr).toBe(1);
    expect(promoted.stdout).toContain("refused");
    expect(promoted.stdout + promoted.stderr).not.toContain("Secret42");
  });
});

describe("the promotion comment", () => {
  it("shows a value from the environment masked, also where markdown escapes it", async () => {
    const token = "Tok|Abc*Secret42";
    const fresh = twoEnvironments("Fresh Inc");
    const config = `${fresh.header}workflows:
  - identifier: piped
    name: "Piped \${NF_TOKEN}"
    steps:
      - name: "step \${NF_TOKEN}"
        type: chat
        template: { content: "Hi \${NF_TOKEN}" }
`;
    const { run } = await cliTest({
      ...fresh.options,
      config,
      env: (keys) => ({ ...fresh.options.env?.(keys), NF_TOKEN: token }),
    });
    const applied = await run(["apply", "--env", "development", "--auto-approve"]);
    expect(applied.code, applied.stderr).toBe(0);
    for (const output of ["markdown", "text", "json"]) {
      const preview = await run([
        "promote",
        "--env",
        "development",
        "--detailed-exitcode",
        "--output",
        output,
      ]);
      expect(preview.code, preview.stderr).toBe(2);
      expect(preview.stdout).toContain("********");
      expect(preview.stdout + preview.stderr, output).not.toContain("Secret42");
    }
  });
});
